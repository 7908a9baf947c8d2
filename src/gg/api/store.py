"""`gg.open_store`: the runs a run store keeps, read back from Python.

    with gg.open_store(".") as store:
        for run in store.runs():
            print(run.id, run.status, run.final_text)
        events = store.run("latest").events()      # the typed events, as `on_event` received them
        transcript = store.run("latest").transcript()

- a location is a `runs.db` file, a folder holding `.gg/runs.db`, or the `.gg/` folder itself,
  given as a path or as a `sqlite:///` or `file://` URL of one, or a `postgresql://` URL
  (`gg.telemetry.location`); a location with no store is a `FileNotFoundError`, and opening
  never creates one; a location gg cannot read is a `ValueError`, a PostgreSQL server it cannot
  reach `gg.telemetry.postgres.StoreUnreachable`;
- `runs()` lists the runs newest first (all of them, or the newest `limit`); `run(ref)` finds one
  by its id, a unique prefix of it, or `latest`, and raises `LookupError` for none or several;
- a run's `status` is as `gg runs` shows it (`unfinished` for a run whose process is gone
  without writing its end); `events()` are the typed events it emitted, in order;
  `transcript()` is what `gg show` prints, as values (`gg.record.transcript.Transcript`).
The store is opened read-only (`gg.record.reader.open_reader`), so a store on a read-only mount, or one
another user may only read, is read too; it may stay open while runs are written to it (one whose
WAL cannot be opened is read as its file holds it when opened).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from gg.record.reader import RunReader
    from gg.record.runs import ListedRun
    from gg.record.transcript import Transcript
    from gg.telemetry.events import Event


def open_store(location: str | Path = ".") -> Store:
    """The run store at `location` (see the module docstring), opened to read."""
    from gg.record.reader import open_reader
    from gg.telemetry.location import parse_store_url
    from gg.telemetry.postgres import NoStoreThere, StoreUnreachable
    from gg.telemetry.store import RunStoreError

    where = parse_store_url(location, base=Path.cwd())
    try:
        return Store(open_reader(where))
    except StoreUnreachable:
        raise
    except (NoStoreThere, RunStoreError) as missing:
        raise FileNotFoundError(str(missing)) from None


class Store:
    """An open run store; close it, or use it as a context manager."""

    def __init__(self, store: RunReader) -> None:
        self._store = store

    @property
    def path(self) -> Path:
        return self._store.path

    def runs(self, limit: int | None = None) -> list[StoredRun]:
        """Every run, newest first, or the newest `limit`."""
        from gg.record.reader import EVERY_RUN

        rows = self._store.list_runs(EVERY_RUN if limit is None else limit)
        return [self._run(listed) for listed in self._store.listed(rows)]

    def run(self, ref: str = "latest") -> StoredRun:
        """The run `ref` names: an id, a unique prefix of one, or `latest`. Raises `LookupError`."""
        (listed,) = self._store.listed([self._store.find_run(ref)])
        return self._run(listed)

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _run(self, listed: ListedRun) -> StoredRun:
        row = listed.row
        return StoredRun(
            store=self._store,
            id=row.id,
            name=row.name,
            status=listed.status,
            exit_code=row.exit_code,
            language=row.language,
            model=row.model,
            turns=row.turns,
            started_at=row.started_at,
            finished_at=row.finished_at,
            final_text=row.final_text,
            message=row.message,
        )


@dataclass(frozen=True, kw_only=True)
class StoredRun:
    """One run as the store keeps it."""

    store: RunReader = field(repr=False, compare=False)
    id: str
    name: str
    status: str
    exit_code: int | None
    language: str
    model: str
    turns: int
    started_at: str
    finished_at: str | None
    final_text: str | None
    message: str | None

    def events(self) -> list[Event]:
        """Every event the run emitted, in order, as the typed values `on_event` received."""
        from gg.telemetry.typed import event_of

        return [event_of(record) for record in self.store.events(self.id)]

    def transcript(self) -> Transcript:
        """The run's transcript: its turns, what the model read, each program and outcome."""
        from gg.record.transcript import fold_transcript

        return fold_transcript(self.store.events(self.id), for_terminal=False)
