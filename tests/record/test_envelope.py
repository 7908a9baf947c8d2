"""A record read back is the wire record as written, its envelope read once into typed values; an
envelope that is missing or mistyped never raises; a stored text that is no JSON object reads as
`unreadable`."""

from __future__ import annotations

from gg.record.envelope import Record, as_record, record_of, records_of

WIRE = {
    "runId": "run-20261129-203233-ab12",
    "agentId": "root.1",
    "parentAgentId": "root",
    "turn": 3,
    "timestamp": "2026-11-29T20:32:34.000Z",
    "type": "model_reply",
    "text": "done",
}


def test_a_record_is_its_wire_record_with_the_envelope_read_into_typed_values() -> None:
    record = Record(WIRE)
    assert record == WIRE and isinstance(record, dict)
    assert (record.type, record.run_id, record.agent_id, record.turn) == (
        "model_reply",
        "run-20261129-203233-ab12",
        "root.1",
        3,
    )
    assert (record.timestamp, record.parent_agent_id, record["text"]) == (
        "2026-11-29T20:32:34.000Z",
        "root",
        "done",
    )


def test_an_envelope_missing_or_mistyped_reads_as_empty_never_raising() -> None:
    record = Record({"type": None, "turn": "3", "agentId": None})
    assert (record.type, record.agent_id, record.run_id, record.timestamp) == ("", "", "", "")
    assert (record.turn, record.parent_agent_id) == (0, None)
    assert Record({"turn": 2.0}).turn == 2


def test_a_record_is_read_once_and_passes_as_it_is() -> None:
    record = Record(WIRE)
    assert as_record(record) is record
    (again, plain) = records_of([record, dict(WIRE)])
    assert again is record and isinstance(plain, Record) and plain.agent_id == "root.1"


def test_a_stored_text_that_is_no_json_object_reads_as_unreadable() -> None:
    for text in ("{not json", "[1, 2]", '"text"'):
        record = record_of(text)
        assert (record.type, record["raw"], record.turn, record.agent_id) == ("unreadable", text, 0, "")
    assert record_of("x" * 500)["raw"] == "x" * 200
    assert record_of('{"type": "log", "turn": 1}').turn == 1
