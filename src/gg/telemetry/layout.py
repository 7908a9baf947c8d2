"""Where a run's record lives on disk, under a base directory (the working directory).

- `<base>/.gg/runs.db`: the run store (SQLite), shared by every run started in `<base>`.
- `<base>/.gg/runs/<run-id>/events.ndjson`: one run's event stream, one JSON object a line.
- `<base>/.gg/runs/<run-id>/start/`: what a recorded run started from, kept for playback
  (`gg.telemetry.start`).
- beside a store being rebuilt: `runs.db.rebuilding` (the new store, until it takes the old one's
  place) and `runs.db.replaced-<stamp>` (the store it replaced, kept).

Every path in telemetry is built here and nowhere else.
"""

from __future__ import annotations

from pathlib import Path

from gg.wire import escaped

GG_DIR = ".gg"
STORE_FILE = "runs.db"
RUNS_DIR = "runs"
EVENTS_FILE = "events.ndjson"
START_DIR = "start"
SIDE_FILES = ("-wal", "-shm")  # what SQLite keeps beside a store in WAL, named after it


def store_path(base: Path) -> Path:
    """The run store's database file."""
    return base / GG_DIR / STORE_FILE


def run_dir(base: Path, run_id: str) -> Path:
    """The folder holding one run's files."""
    return base / GG_DIR / RUNS_DIR / run_id


def events_path(base: Path, run_id: str) -> Path:
    """One run's NDJSON event stream."""
    return run_dir(base, run_id) / EVENTS_FILE


def start_beside(store: Path, run_id: str) -> Path:
    """The folder keeping what one recorded run started from, beside the store file `store`."""
    return runs_beside(store) / run_id / START_DIR


def events_beside(store: Path) -> list[Path]:
    """Every run's events file beside the store file `store`, in the order of the run ids."""
    return sorted(runs_beside(store).glob(f"*/{EVENTS_FILE}"))


def runs_beside(store: Path) -> Path:
    """The folder of the runs' own files beside the store file `store`."""
    return store.parent / RUNS_DIR


def rebuilding(store: Path) -> Path:
    """Where a rebuild writes the new store before it takes the place of `store`."""
    return store.with_name(f"{store.name}.rebuilding")


def replaced(store: Path, stamp: str) -> Path:
    """Where the store a rebuild replaced is kept."""
    return store.with_name(f"{store.name}.replaced-{stamp}")


def with_side_files(store: Path) -> list[Path]:
    """The store file and the files SQLite keeps beside it, named after it."""
    return [store, *(store.with_name(store.name + side) for side in SIDE_FILES)]


def located_store(location: Path) -> Path:
    """The store file a location names: a `runs.db` file itself, a folder holding `.gg/runs.db`
    (or that will), or the `.gg/` folder itself."""
    if location.is_dir():
        if (location / STORE_FILE).is_file() or location.name == GG_DIR:
            return location / STORE_FILE
        return store_path(location)
    return location


def run_events_beside(store: Path, run_id: str) -> Path:
    """One run's NDJSON event stream beside the store file `store` (or the place a PostgreSQL
    store's local copies take)."""
    return runs_beside(store) / run_id / EVENTS_FILE


def holds_store(workspace: Path, store: Path) -> bool:
    """Whether the folder of the store file `store` (and of its runs' files) lies inside
    `workspace`, where programs could reach it."""
    return store.parent.resolve().is_relative_to(workspace.resolve())


def store_inside_workspace(workspace: Path, store_file: Path) -> str:
    """Why a launch whose workspace holds the folder of the store file `store_file` is refused
    (both paths escaped, as every path a refusal prints is)."""
    store = escaped(str(store_file.parent.resolve()))
    return (
        f"the workspace {escaped(str(workspace))} holds gg's run store ({store}); "
        "a program could read or overwrite every run"
    )
