import io
import threading
from pathlib import Path

import pytest

from gg.errors import GgDefect
from gg.telemetry.emitter import CollectingSink, Telemetry
from gg.telemetry.events import Event, EventType, Log, RunFinished, TurnOutcomeEvent

from .sample import RUN_ID, StepClock


def progressed(turn: int) -> TurnOutcomeEvent:
    return TurnOutcomeEvent(outcome="progressed", consecutive_errors=0, turns=turn)


class Failing:
    def __init__(self, on: EventType | None = None) -> None:
        self.on = on
        self.written: list[Event] = []

    def write(self, event: Event) -> None:
        if self.on is None or event.type is self.on:
            raise OSError("disk full")
        self.written.append(event)

    def close(self) -> None:
        raise OSError("cannot close")


def test_every_event_is_stamped_with_the_run_the_clock_the_agent_and_the_turn() -> None:
    sink = CollectingSink()
    event = Telemetry(RUN_ID, [sink], clock=StepClock()).emit("worker-1", 4, progressed(4))
    assert sink.events == [event]
    assert event.to_wire() == {
        "type": "turn_outcome",
        "timestamp": "2026-11-29T20:32:33.000Z",
        "runId": RUN_ID,
        "agentId": "worker-1",
        "turn": 4,
        "outcome": "progressed",
        "consecutiveErrors": 0,
        "turns": 4,
    }


def test_sinks_receive_each_event_in_the_order_given() -> None:
    order: list[str] = []

    class Named(CollectingSink):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

        def write(self, event: Event) -> None:
            order.append(self.name)

    telemetry = Telemetry(RUN_ID, [Named("store"), Named("file"), Named("terminal")], clock=StepClock())
    telemetry.emit("root", 1, progressed(1))
    telemetry.emit("root", 2, progressed(2))
    assert order == ["store", "file", "terminal"] * 2


class FailingFile(Failing):
    """A record sink writing to a file, as the run store and the NDJSON file do."""

    def __init__(self, path: Path, on: EventType | None = None) -> None:
        super().__init__(on)
        self.path = path


def test_a_record_sink_that_fails_is_dropped_and_every_listener_is_told_the_loss() -> None:
    failing, kept = Failing(on=EventType.TURN_OUTCOME), CollectingSink()
    telemetry = Telemetry(RUN_ID, [failing, kept], clock=StepClock(), notes=io.StringIO())
    told: list[str] = []
    telemetry.on_loss(told.append)
    telemetry.emit("root", 1, progressed(1))
    telemetry.emit("root", 1, Log(level="info", message="after"))
    assert failing.written == []
    assert [e.type for e in kept.events] == [EventType.TURN_OUTCOME, EventType.LOG, EventType.LOG]
    assert [f.sink for f in telemetry.failures] == ["Failing"]
    assert told == ["the run's record is lost: Failing could not be written (disk full)"]
    assert telemetry.lost == told[0]


def test_a_record_loss_is_one_sentence_naming_the_path_and_the_cause_and_the_record_says_so(
    tmp_path: Path,
) -> None:
    notes, kept = io.StringIO(), CollectingSink()
    where = tmp_path / ".gg" / "runs.db"
    telemetry = Telemetry(RUN_ID, [FailingFile(where), kept], clock=StepClock(), notes=notes)
    telemetry.emit("root", 2, progressed(2))
    assert notes.getvalue() == (
        f"gg: the run's record is lost: {where} could not be written (disk full); the run stops.\n"
    )
    note = kept.wire()[1]
    assert note["type"] == "log" and note["level"] == "error" and note["turn"] == 2
    assert note["message"] == "the run's record is lost"
    assert note["fields"] == {"sink": "FailingFile", "error": "OSError: disk full", "path": str(where)}


def test_a_listener_joining_after_a_loss_is_told_it_at_once() -> None:
    telemetry = Telemetry(RUN_ID, [Failing()], clock=StepClock(), notes=io.StringIO())
    telemetry.emit("root", 1, progressed(1))
    told: list[str] = []
    telemetry.on_loss(told.append)
    assert told == ["the run's record is lost: Failing could not be written (disk full)"]


def test_an_event_the_record_could_not_keep_reaches_no_watcher_but_the_loss_does() -> None:
    watcher = CollectingSink()
    telemetry = Telemetry(
        RUN_ID,
        [Failing(on=EventType.RUN_FINISHED)],
        clock=StepClock(),
        notes=io.StringIO(),
        watchers=[watcher],
    )
    telemetry.emit("root", 1, progressed(1))
    telemetry.emit("root", 1, RunFinished(status="completed", exit_code=0, turns=1, duration_ms=1.0))
    assert [e.type for e in watcher.events] == [EventType.TURN_OUTCOME, EventType.LOG]
    assert watcher.wire()[1]["message"] == "the run's record is lost"


def test_a_watcher_that_fails_is_dropped_and_the_run_goes_on_with_its_record_whole() -> None:
    notes, kept = io.StringIO(), CollectingSink()
    telemetry = Telemetry(RUN_ID, [kept], clock=StepClock(), notes=notes, watchers=[Failing()])
    told: list[str] = []
    telemetry.on_loss(told.append)
    telemetry.emit("root", 2, progressed(2))
    telemetry.emit("root", 3, progressed(3))
    assert notes.getvalue() == "gg: watcher dropped: Failing failed on `turn_outcome`: OSError: disk full\n"
    assert [(e.type, e.turn) for e in kept.events] == [
        (EventType.TURN_OUTCOME, 2),
        (EventType.LOG, 2),
        (EventType.TURN_OUTCOME, 3),
    ]
    assert kept.wire()[1]["level"] == "warn" and told == [] and telemetry.lost is None


def test_when_every_record_sink_fails_each_loss_reaches_the_notes_stream() -> None:
    notes = io.StringIO()
    telemetry = Telemetry(RUN_ID, [Failing(), Failing()], clock=StepClock(), notes=notes)
    telemetry.emit("root", 1, progressed(1))
    telemetry.emit("root", 2, progressed(2))
    assert notes.getvalue().count("the run's record is lost") == 2
    assert len(telemetry.failures) == 2


def test_a_sink_failing_on_close_is_recorded_and_the_others_still_close() -> None:
    kept = CollectingSink()
    telemetry = Telemetry(RUN_ID, [Failing(on=EventType.LOG), kept], clock=StepClock(), notes=io.StringIO())
    telemetry.close()
    assert kept.closed
    assert [(f.sink, f.event_type) for f in telemetry.failures] == [("Failing", None)]


def test_emitting_after_close_is_a_gg_defect() -> None:
    telemetry = Telemetry(RUN_ID, [CollectingSink()], clock=StepClock())
    telemetry.close()
    with pytest.raises(GgDefect):
        telemetry.emit("root", 1, progressed(1))


def test_emits_from_several_threads_reach_every_sink_in_one_order() -> None:
    first, second = CollectingSink(), CollectingSink()
    telemetry = Telemetry(RUN_ID, [first, second])

    def agent(name: str) -> None:
        for turn in range(1, 201):
            telemetry.emit(name, turn, progressed(turn))

    threads = [threading.Thread(target=agent, args=(f"agent-{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(first.events) == 800
    assert first.events == second.events
