"""The run store as one process opens it: written as a run's sink and read back, over one
connection.

Rules:
- Opened to be written (`create=True`, the default), it is the writer
  (`gg.telemetry.store.StoreWriter`: made when missing, checked, migrated) and a `RunReader`
  whose every query reads the writer's connection, so what was written is read back at once.
- Opened with `create=False`, it is the read-only reader `open_reader` opens (never made,
  migrated or written; one that does not exist is refused), and writing to it is refused.
- It lives where a `StoreLocation` says (`gg.telemetry.location`): an SQLite file, or a
  PostgreSQL database; a plain path is an SQLite file.
"""

from __future__ import annotations

from pathlib import Path

from gg.record.reader import Connections, RunReader, held_at
from gg.telemetry.dialect import dialect_of
from gg.telemetry.events import Event
from gg.telemetry.integrity import StoreCheck
from gg.telemetry.layout import store_path
from gg.telemetry.location import Backend, StoreLocation
from gg.telemetry.store import BUSY_TIMEOUT_MS, RunStoreError, StoreWriter


class RunStore(RunReader):
    """The run store: a telemetry `Sink` (write/close) and every query of `RunReader`."""

    def __init__(
        self,
        where: Path | StoreLocation,
        *,
        create: bool = True,
        pid: int | None = None,
        host: str | None = None,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        location = where if isinstance(where, StoreLocation) else StoreLocation(Backend.SQLITE, where)
        writer = (
            StoreWriter(location, pid=pid, host=host, busy_timeout_ms=busy_timeout_ms) if create else None
        )
        connections: Connections = held_at(location) if writer is None else writer
        super().__init__(
            location.path, connections, dialect=dialect_of(location.backend), where=location.shown
        )
        self.location = location
        self._writer = writer
        self.check: StoreCheck | None = None if writer is None else writer.check  # how the check on open went

    @classmethod
    def at(cls, base: Path, *, create: bool = True) -> RunStore:
        """The store under a base directory (`<base>/.gg/runs.db`)."""
        return cls(store_path(base), create=create)

    def write(self, event: Event) -> None:
        """Store one event and bring its run's row up to date, in one transaction."""
        self._written().write(event)

    def _written(self) -> StoreWriter:
        if self._writer is None:
            raise RunStoreError(f"the run store {self.where} was opened to be read, not written")
        return self._writer
