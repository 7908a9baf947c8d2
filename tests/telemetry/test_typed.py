"""Wire records read back as typed events: every event type has its payload class, whichever
module declares it, and a record reads back as the event it was written from."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gg.telemetry.agent_events import AgentSpawned
from gg.telemetry.events import Event, EventType
from gg.telemetry.module_events import MemoryRevision
from gg.telemetry.typed import PAYLOAD_CLASSES, event_of


def test_every_event_type_has_its_payload_class() -> None:
    assert set(PAYLOAD_CLASSES) == set(EventType)
    assert all(cls.TYPE is kind for kind, cls in PAYLOAD_CLASSES.items())


def test_the_classes_are_known_however_little_was_imported_before() -> None:
    program = "from gg.telemetry.typed import PAYLOAD_CLASSES; print(len(PAYLOAD_CLASSES))"
    counted = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert int(counted.stdout) == len(EventType)


@pytest.mark.parametrize(
    "payload",
    [
        AgentSpawned(profile_id="worker", model_id="replay", depth=1, brief="go"),
        MemoryRevision(name="notes", revision=4, change="write", description="", body="b", len=1, lines=1),
    ],
)
def test_a_record_reads_back_as_the_event_it_was_written_from(payload: object) -> None:
    event = Event("run-1", "root.1", 2, "2026-12-01T12:00:00.000Z", payload, "root")  # type: ignore[arg-type]
    assert event_of(event.to_wire()) == event


def test_an_unknown_type_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="`nothing_such`"):
        event_of({"type": "nothing_such"})
