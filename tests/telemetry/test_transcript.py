from typing import Any

from gg.record.records import error_location, first_error_line
from gg.record.transcript import Transcript, fold_transcript
from gg.telemetry.emitter import CollectingSink

from .sample import EDIT_ERROR, EDIT_SOURCE, FINAL_TEXT, READ_SOURCE, RUN_ID, emit_sample_run


def sample_records(*, finish: bool = True) -> list[dict[str, Any]]:
    sink = CollectingSink()
    emit_sample_run([sink], finish=finish)
    return sink.wire()


def sample(*, finish: bool = True) -> Transcript:
    return fold_transcript(sample_records(finish=finish))


def record(kind: str, turn: int, **fields: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "timestamp": "2026-11-29T20:32:33.000Z",
        "runId": "r",
        "agentId": "root",
        "turn": turn,
        **fields,
    }


def test_events_fold_into_one_turn_per_agent_and_turn_number() -> None:
    transcript = sample()
    assert transcript.run_id == RUN_ID
    assert [(t.agent_id, t.number) for t in transcript.turns] == [("root", 1), ("root", 2), ("root", 3)]
    assert (transcript.name, transcript.model, transcript.language) == (
        "spec-audit",
        "gpt-test",
        "javascript",
    )


def test_each_program_carries_its_source_from_the_reply_and_its_verdict() -> None:
    first = sample().turns[0]
    (program,) = first.programs
    assert (program.program_id, program.call_id, program.source) == ("k3p9", "call_1", READ_SOURCE)
    assert (program.ok, program.api_calls, program.duration_ms, program.logs) == (True, 1, 12.0, ("4096",))
    assert [(c.call_id, c.receipt) for c in first.calls] == [("call_1", "program k3p9")]


def test_a_failed_program_keeps_its_error_type_location_and_first_line() -> None:
    (program,) = sample().turns[1].programs
    assert (program.ok, program.error_type, program.source) == (False, "program_api_error", EDIT_SOURCE)
    assert program.location == "program.js:2:7"
    assert program.error_line == "`edit_file` failed (conflict): `oldString` matched 3 times in SPEC.md"


def test_api_calls_belong_to_the_program_that_made_them() -> None:
    (program,) = sample().turns[1].programs
    assert [(a.operation, a.ok, a.failure) for a in program.api] == [("files.edit_file", False, "conflict")]


def test_the_previous_reply_and_its_receipts_are_echoes_and_feedback_is_not() -> None:
    second = sample().turns[1]
    assert [(m.role, m.echo) for m in second.read] == [("assistant", True), ("tool", True), ("user", False)]
    assert not any(m.echo for m in sample().turns[0].read)


def test_operator_logs_and_the_outcome_stay_with_their_turn() -> None:
    second = sample().turns[1]
    assert [(log.level, log.message) for log in second.logs] == [("warn", "guest was slow")]
    assert second.outcome is not None
    assert (second.outcome.outcome, second.outcome.error_type, second.outcome.feedback) == (
        "error",
        "program_api_error",
        (EDIT_ERROR,),
    )


def test_totals_sum_tokens_and_take_turns_and_duration_from_run_finished() -> None:
    transcript = sample()
    totals = transcript.totals
    assert (totals.turns, totals.duration_ms) == (3, 4500.0)
    assert (totals.input_tokens, totals.output_tokens, totals.cost) == (4100, 180, None)
    assert (totals.programs, totals.failed_programs, totals.error_turns) == (3, 1, 1)
    assert (transcript.status, transcript.exit_code, transcript.final_text) == ("completed", 0, FINAL_TEXT)


def test_a_killed_run_folds_with_no_status_and_counts_from_its_events() -> None:
    records = sample_records(finish=False)
    records = records[
        : next(i for i, r in enumerate(records) if r["type"] == "turn_outcome" and r["turn"] == 2)
    ]
    transcript = fold_transcript(records)
    assert transcript.status is None
    assert transcript.turns[-1].outcome is None
    assert transcript.totals.turns == 2
    assert transcript.totals.duration_ms is not None and transcript.totals.duration_ms > 0


def test_programs_without_ids_are_matched_to_calls_carrying_a_program_in_order() -> None:
    calls = [
        {"id": "empty", "name": "submit_program", "arguments": {}},
        {"id": "a", "name": "submit_program", "arguments": '{"program": "one()"}'},
        {"id": "b", "name": "submit_program", "arguments": {"program": "two()"}},
    ]
    usage = {"prompt_tokens": 7, "completion_tokens": 3, "cost": 0.5}
    ran = {"ok": True, "toolCalls": 0, "apiCalls": 0, "durationMs": 1, "logs": []}
    transcript = fold_transcript(
        [
            record("model_reply", 1, text="", calls=calls, usage=usage),
            record("code_execution", 1, submission=0, **ran),
            record("code_execution", 1, submission=1, **ran),
        ]
    )
    (turn,) = transcript.turns
    assert [(p.call_id, p.source) for p in turn.programs] == [("a", "one()"), ("b", "two()")]
    assert (transcript.totals.input_tokens, transcript.totals.output_tokens, transcript.totals.cost) == (
        7,
        3,
        0.5,
    )


def test_a_program_is_matched_to_the_call_whose_source_it_ran() -> None:
    calls = [
        {"id": "a", "name": "submit_program", "arguments": {"program": "one()"}},
        {"id": "b", "name": "submit_program", "arguments": {"program": "two()"}},
    ]
    ran = {"ok": True, "toolCalls": 0, "apiCalls": 0, "durationMs": 1, "logs": []}
    transcript = fold_transcript(
        [
            record("model_reply", 1, text="", calls=calls, usage={}),
            record("code_execution", 1, submission=1, source="two()", **ran),
        ]
    )
    assert [p.call_id for p in transcript.turns[0].programs] == ["b"]


def test_another_agents_turns_are_their_own() -> None:
    records = [
        record("model_request", 1, messages=[{"role": "user", "content": "go"}]),
        {**record("model_request", 1, messages=[{"role": "user", "content": "sub"}]), "agentId": "worker-1"},
        record("turn_outcome", 1, outcome="progressed", consecutiveErrors=0, turns=1),
    ]
    turns = fold_transcript(records).turns
    assert [(t.agent_id, t.number, t.outcome is not None) for t in turns] == [
        ("root", 1, True),
        ("worker-1", 1, False),
    ]


def test_the_first_error_line_skips_the_heading_and_the_location_is_the_first_at_line() -> None:
    assert first_error_line("Runtime error\n----\n\nTypeError: x is undefined\n    at program.js:5:3") == (
        "TypeError: x is undefined"
    )
    assert first_error_line("boom") == "boom"
    assert (
        error_location("TypeError: x\n    at main (program.ts:5:3)\n    at program.ts:9:1")
        == "program.ts:5:3"
    )
    assert error_location("failed\n    at line 12, column 5") == "line 12, column 5"
    assert error_location("no location here") is None
