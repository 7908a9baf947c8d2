"""Rebuilding the run store from the runs' events files, which are the source of truth.

Rules:
- The events files are those beside the store (`<.gg>/runs/<run-id>/events.ndjson`), each a
  run's whole record in the order it was emitted. The store is rebuilt from them alone, into a
  new file (`runs.db.rebuilding`) that then takes the store's place; no events file at all
  rebuilds nothing (`NothingToRebuild`) and leaves the store as it is.
- The store it replaces is kept, never deleted or overwritten: it becomes
  `runs.db.replaced-<UTC stamp>`, with its `-wal` and `-shm` files, so SQLite can still open it.
  What no events file holds (the study tables) stays there.
- Each file is read whole or not at all: a torn last line (a run killed mid-write, a full disk)
  is left out, as `read_events` leaves it out; a file with any other line that is not an event
  (not JSON, an event type this gg does not know, a missing envelope), bytes that are not UTF-8,
  or no event at all is named, with why, and restores nothing.
- A file's events are stored through the store's own rules, in one transaction per file
  (`StoreWriter.restore`), so each rebuilt row reads as the live run left it: a run whose file
  holds no `run_finished` reads `unfinished` once the rebuild has ended.
- Idempotent: rebuilding again from the same files gives the same runs and events.
- A rebuild cut short leaves the store as it was; the next one starts its new file afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gg.telemetry.clock import Clock, utc_now
from gg.telemetry.events import Event
from gg.telemetry.layout import events_beside, rebuilding, replaced, runs_beside, with_side_files
from gg.telemetry.ndjson import encode_record, read_events
from gg.telemetry.store import StoreWriter
from gg.telemetry.typed import event_of
from gg.wire import escaped

STAMP = "%Y%m%d-%H%M%S"


class NothingToRebuild(Exception):
    """No events file lies beside the store: there is nothing to rebuild it from."""


@dataclass(frozen=True)
class Unread:
    """An events file the rebuild could not read, and why."""

    path: Path
    reason: str


@dataclass(frozen=True)
class RunEvents:
    """One run's events, each with its wire line as written, in the order they were emitted."""

    run_id: str
    events: list[tuple[Event, str]]


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild restored, what it could not read, and where the store it replaced went."""

    store: Path
    runs: int
    events: int
    unread: tuple[Unread, ...]
    kept: Path | None  # the replaced store, kept; None when there was none


def rebuild_store(store: Path, clock: Clock = utc_now) -> Rebuilt:
    """Rebuild the store file `store` from the events files beside it (see the module rules)."""
    files = events_beside(store)
    if not files:
        where = escaped(str(runs_beside(store)))
        raise NothingToRebuild(f"no events files under {where}: there is nothing to rebuild the store from")
    fresh = rebuilding(store)
    _remove(fresh)
    runs, events, unread = _restore(StoreWriter(fresh), files)
    kept = _set_aside(store, clock().strftime(STAMP)) if store.exists() else None
    for made, into in zip(with_side_files(fresh), with_side_files(store), strict=True):
        if made.exists():
            made.replace(into)
    return Rebuilt(store, runs, events, tuple(unread), kept)


def _restore(target: StoreWriter, files: Sequence[Path]) -> tuple[int, int, list[Unread]]:
    """Every readable file's events into `target` (closed after): runs, events, files not read."""
    runs, events, unread = 0, 0, list[Unread]()
    try:
        for path in files:
            try:
                read = events_of(path).events
            except (OSError, ValueError, KeyError, TypeError) as why:
                unread.append(Unread(path, reason_of(why)))
                continue
            target.restore(read)
            runs, events = runs + 1, events + len(read)
    finally:
        target.close()
    return runs, events, unread


def events_of(path: Path) -> RunEvents:
    """A file's run: its events, each with its line; raises for a file that is not read whole."""
    records = read_events(path)
    if not records:
        raise ValueError("it holds no event")
    events = [(event_of(record), encode_record(record)) for record in records]
    return RunEvents(events[0][0].run_id, events)


def _set_aside(store: Path, stamp: str) -> Path:
    """Move the store and its side files to `runs.db.replaced-<stamp>` (`-2`, `-3`… after the
    stamp when a store kept in the same second is there); where it went."""
    aside, taken = replaced(store, stamp), 1
    while any(path.exists() for path in with_side_files(aside)):
        taken += 1
        aside = replaced(store, f"{stamp}-{taken}")
    for current, kept in zip(with_side_files(store), with_side_files(aside), strict=True):
        if current.exists():
            current.replace(kept)
    return aside


def _remove(store: Path) -> None:
    for path in with_side_files(store):
        path.unlink(missing_ok=True)


def reason_of(why: BaseException) -> str:
    """Why an events file could not be read, in plain words."""
    if isinstance(why, OSError):
        return why.strerror or str(why)
    if isinstance(why, UnicodeDecodeError):
        return f"it holds bytes that are not UTF-8 (at byte {why.start})"
    if isinstance(why, KeyError):
        return f"an event lacks `{why.args[0]}`"
    return str(why)
