import io
import threading

import pytest

from gg.errors import GgDefect
from gg.telemetry.emitter import SINK_FAILED_MESSAGE, CollectingSink, Telemetry
from gg.telemetry.events import Event, EventType, Log, TurnOutcomeEvent

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


def test_a_failing_sink_is_disabled_and_the_run_goes_on() -> None:
    failing, kept = Failing(on=EventType.TURN_OUTCOME), CollectingSink()
    telemetry = Telemetry(RUN_ID, [failing, kept], clock=StepClock(), notes=io.StringIO())
    telemetry.emit("root", 1, progressed(1))
    telemetry.emit("root", 1, Log(level="info", message="after"))
    assert failing.written == []
    assert [e.type for e in kept.events] == [EventType.TURN_OUTCOME, EventType.LOG, EventType.LOG]
    assert [f.sink for f in telemetry.failures] == ["Failing"]


def test_a_failing_sink_is_reported_on_the_notes_stream_and_in_the_record_itself() -> None:
    notes, kept = io.StringIO(), CollectingSink()
    telemetry = Telemetry(RUN_ID, [Failing(), kept], clock=StepClock(), notes=notes)
    telemetry.emit("root", 2, progressed(2))
    assert notes.getvalue() == (
        f"gg: {SINK_FAILED_MESSAGE}: Failing failed on `turn_outcome`: OSError: disk full\n"
    )
    note = kept.wire()[1]
    assert note["type"] == "log" and note["level"] == "error" and note["turn"] == 2
    assert note["fields"] == {"sink": "Failing", "error": "OSError: disk full"}


def test_when_every_sink_fails_the_note_still_reaches_the_notes_stream() -> None:
    notes = io.StringIO()
    telemetry = Telemetry(RUN_ID, [Failing(), Failing()], clock=StepClock(), notes=notes)
    telemetry.emit("root", 1, progressed(1))
    telemetry.emit("root", 2, progressed(2))
    assert notes.getvalue().count(SINK_FAILED_MESSAGE) == 2
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
