"""A stop (Ctrl-C, SIGTERM) that lands inside one of the store's writes (issue 27's newcomer: one
in about 170 tries said "cannot start a transaction within a transaction" and lost the run's end).

The write it cut short is rolled back whole, wherever the stop landed: before its `COMMIT` was
sent, just after its `BEGIN`, or on its rollback too (a second stop); one that lands just after
its `COMMIT` keeps it. The next write (the run's end, `interrupted`) is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from gg.record.runs import RunRow
from gg.record.store import RunStore
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import Log, RunFinished
from gg.telemetry.location import StoreLocation
from gg.telemetry.store import StoreWriter

from .sample import RUN_ID, StepClock, emit_sample_run


class StopAt:
    """A store connection that raises `KeyboardInterrupt` as each statement of `at` is about to
    be sent (or, `after`, just once it was), once each, as a signal checked there would."""

    def __init__(self, at: tuple[str, ...], *, after: bool = False) -> None:
        self._db: Any = None
        self._at, self._after = list(at), after

    def wrap(self, db: Any) -> None:
        self._db = db

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        if not (self._at and sql.startswith(self._at[0])):
            return self._db.execute(sql, parameters)
        self._at.pop(0)
        if self._after:
            self._db.execute(sql, parameters)
        raise KeyboardInterrupt

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def stopped_in_a_write(store_at: StoreLocation, stopping: StopAt, message: str) -> tuple[RunStore, RunRow]:
    """The sample run stopped while `message` is written (where `stopping` says), then ended
    `interrupted`: its store and its row."""
    store = RunStore(store_at)
    telemetry = emit_sample_run([store], finish=False)
    writer: StoreWriter = store._written()
    stopping.wrap(writer._db)
    writer._db = stopping
    with pytest.raises(KeyboardInterrupt):
        telemetry.emit("root", 2, Log(level="info", message=message))
    end = RunFinished(status="interrupted", exit_code=130, turns=2, duration_ms=1.0, final_text=None)
    Telemetry(RUN_ID, [store], clock=StepClock()).emit("root", 2, end)
    return store, store.find_run(RUN_ID)


@pytest.mark.parametrize("at", [("COMMIT",), ("INSERT INTO events",), ("COMMIT", "ROLLBACK")])
def test_a_stop_inside_a_write_loses_that_write_only_and_the_runs_end_is_kept(
    store_at: StoreLocation, at: tuple[str, ...]
) -> None:
    """A second stop may land on the rollback of the first: the next write rolls it back."""
    store, row = stopped_in_a_write(store_at, StopAt(at), "cut short")
    assert (row.status, row.exit_code, row.turns) == ("interrupted", 130, 2)
    assert "cut short" not in [record.get("message") for record in store.events(RUN_ID)]


def test_a_stop_just_after_a_write_committed_keeps_it_and_the_next_write_follows_it(
    store_at: StoreLocation,
) -> None:
    """The stop lands once `COMMIT` returned: that write is kept, and the next one takes the
    place after it (a newcomer's run lost its record: UNIQUE constraint failed on events.seq)."""
    store, row = stopped_in_a_write(store_at, StopAt(("COMMIT",), after=True), "kept")
    assert (row.status, row.exit_code, row.turns) == ("interrupted", 130, 2)
    messages = [record.get("message") for record in store.events(RUN_ID)]
    assert messages[-2:] == ["kept", None] and row.events == len(messages)
