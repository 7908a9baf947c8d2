"""A damaged run store is never written to, and `gg store rebuild` is the way out.

Real stores made by real `gg run`s, damaged as disks damage them (random bytes over pages 3–4,
a truncated file, garbage): `gg run` refuses the store (exit 2) as `gg runs` does, naming it and
the command that rebuilds it; `gg store rebuild` rebuilds `runs.db` from the runs' events files
(the source of truth), keeps the damaged file aside, names the files it could not read, and gives
the same store however often it runs.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from contextlib import chdir
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import gg
from gg.cli import main
from support.mounts import remount, tmpfs

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"
PAGE = 4096
WAY_OUT = "rebuild it from its runs' events files with: gg store rebuild --store "
Recorded = tuple[Path, dict[str, dict[str, Any]]]  # a folder holding two runs, and `gg show` of each


def _gg(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GG), *arguments], cwd=cwd, capture_output=True, text=True, timeout=300)


def _example(tmp_path: Path) -> Path:
    copy = tmp_path / "spec-audit"
    if not copy.exists():
        shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    return copy


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """Two runs of the example kept under a folder of their own, and `gg show --json` of each."""
    made = tmp_path_factory.mktemp("recorded")
    base = made / "base"
    base.mkdir()
    for _ in range(2):
        (_example(made) / "workspace" / "report.md").unlink(missing_ok=True)
        assert _gg(base, "run", str(_example(made))).returncode == 0
    return base, _shown(base)


def _two_runs(recorded: Recorded, tmp_path: Path) -> Recorded:
    """A copy of the two recorded runs' folder, for this test alone, and what `gg show` said."""
    base = tmp_path / "base"
    shutil.copytree(recorded[0], base)
    return base, recorded[1]


def _shown(base: Path) -> dict[str, dict[str, Any]]:
    """`gg show --json` of every run in the store under `base`, by id."""
    with chdir(base):
        listing = CliRunner().invoke(main, ["runs", "--json"])
        assert listing.exit_code == 0, listing.output
        ids = [run["id"] for run in json.loads(listing.output)["runs"]]
        return {
            run_id: json.loads(CliRunner().invoke(main, ["show", run_id, "--json"]).output) for run_id in ids
        }


def _overwrite_pages_3_and_4(store: Path) -> None:
    with store.open("r+b") as file:
        file.seek(2 * PAGE)
        file.write(random.Random(21).randbytes(2 * PAGE))


def _truncate(store: Path) -> None:
    with store.open("r+b") as file:
        file.truncate(store.stat().st_size // 2)


def _garbage(store: Path) -> None:
    store.write_bytes(random.Random(21).randbytes(store.stat().st_size))


DAMAGES: dict[str, Callable[[Path], None]] = {
    "pages-3-4": _overwrite_pages_3_and_4,
    "truncated": _truncate,
    "garbage": _garbage,
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_store_is_refused_by_gg_run_as_by_gg_runs_naming_the_way_out(
    recorded: Recorded, tmp_path: Path, damage: str
) -> None:
    base, _ = _two_runs(recorded, tmp_path)
    store = base / ".gg" / "runs.db"
    DAMAGES[damage](store)
    damaged = store.read_bytes()
    listed = _gg(base, "runs")
    assert listed.returncode == 2 and WAY_OUT in listed.stderr  # refused by both, as `gg run` refuses it
    ran = _gg(base, "run", str(_example(tmp_path)))
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert ran.stderr.startswith(f"gg: the run store {store} cannot be used: it is ")
    assert "damaged (SQLite says: " in ran.stderr
    assert ran.stderr.rstrip().endswith(WAY_OUT + str(store))
    assert store.read_bytes() == damaged and len(list((base / ".gg" / "runs").iterdir())) == 2
    with pytest.raises(gg.ConfigError, match="damaged"):
        gg.run(_example(tmp_path), store=base)


def test_gg_store_rebuild_restores_every_run_as_it_was_and_keeps_the_damaged_store_aside(
    recorded: Recorded, tmp_path: Path
) -> None:
    base, before = _two_runs(recorded, tmp_path)
    store = base / ".gg" / "runs.db"
    _overwrite_pages_3_and_4(store)
    damaged = store.read_bytes()
    events = sum(
        len(path.read_text().splitlines()) for path in (base / ".gg" / "runs").glob("*/events.ndjson")
    )
    rebuilt = _gg(base, "store", "rebuild")
    assert rebuilt.returncode == 0, rebuilt.stderr
    lines = rebuilt.stdout.splitlines()
    assert lines[0] == f"gg store rebuild: restored 2 runs ({events} events) into {store}"
    (aside,) = (base / ".gg").glob("runs.db.replaced-*[0-9]")  # its -wal and -shm went with it
    assert lines[1] == f"the store it replaced is kept at {aside}" and aside.read_bytes() == damaged
    assert _shown(base) == before
    assert _gg(base, "run", str(_example(tmp_path))).returncode == 0


def test_rebuilding_again_gives_the_same_store_and_keeps_every_store_it_replaced(
    recorded: Recorded, tmp_path: Path
) -> None:
    base, before = _two_runs(recorded, tmp_path)
    first = _gg(base, "store", "rebuild", "--store", str(base))
    second = _gg(base, "store", "rebuild", "--store", str(base / ".gg" / "runs.db"))
    assert first.returncode == second.returncode == 0
    assert first.stdout.splitlines()[0] == second.stdout.splitlines()[0]
    assert len(list((base / ".gg").glob("runs.db.replaced-*[0-9]"))) == 2
    assert _shown(base) == before


def test_files_that_cannot_be_read_are_named_and_the_others_restored(
    recorded: Recorded, tmp_path: Path
) -> None:
    base, before = _two_runs(recorded, tmp_path)
    runs = base / ".gg" / "runs"
    kept = sorted(runs.iterdir())
    bad_line, not_utf8, empty = (runs / name for name in ("run-bad-line", "run-not-utf8", "run-empty"))
    for folder in (bad_line, not_utf8, empty):
        folder.mkdir()
    first_line = (kept[0] / "events.ndjson").read_text().splitlines()[0]
    (bad_line / "events.ndjson").write_text(f"{first_line}\nnot json\n{first_line}\n")
    (not_utf8 / "events.ndjson").write_bytes(b'{"type": "run_started", "name": "\xff"}\n')
    (empty / "events.ndjson").write_text("")
    torn = kept[1] / "events.ndjson"
    torn.write_text(torn.read_text() + '{"type": "log", "cut sho')
    rebuilt = _gg(base, "store", "rebuild")
    assert rebuilt.returncode == 1
    assert rebuilt.stdout.startswith("gg store rebuild: restored 2 runs (")
    assert rebuilt.stderr.splitlines() == [
        "could not read 3 events files, which restored nothing:",
        f"  {bad_line / 'events.ndjson'}: line 2 is not JSON (Expecting value)",
        f"  {empty / 'events.ndjson'}: it holds no event",
        f"  {not_utf8 / 'events.ndjson'}: it holds bytes that are not UTF-8 (at byte 33)",
    ]
    assert _shown(base) == before


def test_with_no_events_file_there_is_nothing_to_rebuild_and_the_store_stays(
    recorded: Recorded, tmp_path: Path
) -> None:
    base, _ = _two_runs(recorded, tmp_path)
    shutil.rmtree(base / ".gg" / "runs")
    store = base / ".gg" / "runs.db"
    kept = store.read_bytes()
    refused = _gg(base, "store", "rebuild")
    assert refused.returncode == 2
    assert refused.stderr == (
        f"gg store rebuild: no events files under {base / '.gg' / 'runs'}: there is nothing to rebuild the "
        f"store from; {store} is left as it was\n"
    )
    assert store.read_bytes() == kept and not list((base / ".gg").glob("runs.db.*"))


def test_a_store_that_filled_is_rebuilt_whole_from_the_events_files_that_kept_writing(tmp_path: Path) -> None:
    """The disk under the store fills mid-run; the events files (on another) keep the whole run,
    its `internal_error` end included, and the rebuilt store reads it so."""
    example = _example(tmp_path)
    replies = [
        {
            "calls": [
                {"name": "submit_program", "arguments": {"program": f"const t = {n};\n// {'y' * 120_000}\n"}}
            ]
        }
        for n in range(12)
    ]
    (example / "big.jsonl").write_text("".join(json.dumps(reply) + "\n" for reply in replies))
    document = json.loads((example / "gg.json").read_text())
    document["agents"][0]["model"]["journal"] = "big.jsonl"
    (example / "gg.json").write_text(json.dumps(document))
    with tmpfs(tmp_path / ".gg", "2m") as folder, tmpfs(folder / "runs", "64m"):
        assert _gg(tmp_path, "run", str(example)).returncode == 1
        remount(folder, "size=64m")
        rebuilt = _gg(tmp_path, "store", "rebuild")
        assert rebuilt.returncode == 0, rebuilt.stderr
        (shown,) = _shown(tmp_path).values()
    run = shown["run"]
    assert (run["status"], run["exitCode"]) == ("internal_error", 1)
    store = tmp_path / ".gg" / "runs.db"
    assert (
        run["message"] == f"the run's record is lost: {store} could not be written (database or disk is full)"
    )
