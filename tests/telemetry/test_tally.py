"""One reading of what a run spent: `gg runs` and `gg show` count the same tokens, cost and errors."""

from __future__ import annotations

from gg.record.tally import TokenCounts, tally
from gg.record.transcript import fold_transcript
from gg.telemetry.emitter import CollectingSink

from .sample import emit_sample_run


def test_tokens_sum_every_reply_in_any_common_spelling_and_costs_only_the_known_ones() -> None:
    records = [
        {"type": "model_reply", "usage": {"inputTokens": 100, "outputTokens": 10, "cacheReadTokens": 40}},
        {"type": "model_reply", "usage": {"prompt_tokens": 50, "completion_tokens": 5}, "costUsd": 0.25},
        {"type": "model_reply", "usage": {"inputTokens": True, "cost": 0.5}},
        {"type": "turn_outcome", "outcome": "error"},
        {"type": "turn_outcome", "outcome": "progressed"},
        {"type": "log", "level": "warn"},
    ]
    spent = tally(records)
    assert spent.tokens == TokenCounts(input=150, output=15, cache_read=40)
    assert (spent.cost_usd, spent.unpriced, spent.error_turns) == (0.75, 1, 1)


def test_a_run_whose_replies_have_no_known_cost_has_no_cost() -> None:
    assert tally([{"type": "model_reply", "usage": {}}]).cost_usd is None


def test_the_transcripts_totals_are_the_tally() -> None:
    sink = CollectingSink()
    emit_sample_run([sink])
    totals, spent = fold_transcript(sink.wire()).totals, tally(sink.wire())
    assert (totals.programs, totals.failed_programs, totals.cut_programs) == (
        spent.programs,
        spent.failed_programs,
        spent.cut_programs,
    )
    assert (totals.input_tokens, totals.output_tokens, totals.cost, totals.unpriced, totals.error_turns) == (
        spent.tokens.input,
        spent.tokens.output,
        spent.cost_usd,
        spent.unpriced,
        spent.error_turns,
    )


def _reply(agent: str, turn: int, *programs: str) -> dict[str, object]:
    calls = [
        {"id": f"c{n}", "name": "submit_program", "arguments": {"program": p}} for n, p in enumerate(programs)
    ]
    return {"type": "model_reply", "agentId": agent, "turn": turn, "calls": calls, "usage": {}}


def test_programs_are_each_that_ran_and_in_a_turn_that_never_closed_each_submitted_that_did_not() -> None:
    records = [
        _reply("root", 1, "a", "b"),
        {"type": "code_execution", "agentId": "root", "turn": 1, "ok": True},
        {"type": "code_execution", "agentId": "root", "turn": 1, "ok": False},
        {"type": "turn_outcome", "agentId": "root", "turn": 1, "outcome": "error"},
        _reply("root", 2, "c", "d", "e"),  # closed, one ran: the other two never count
        {"type": "code_execution", "agentId": "root", "turn": 2, "ok": True},
        {"type": "turn_outcome", "agentId": "root", "turn": 2, "outcome": "progressed"},
        _reply("root", 3, "f", "g"),  # never closed: one ran, one cut short
        {"type": "code_execution", "agentId": "root", "turn": 3, "ok": True},
        _reply("root.1", 1, "h"),  # never closed, nothing ran: cut short, no error turn
    ]
    spent = tally(records)
    assert (spent.programs, spent.failed_programs, spent.cut_programs, spent.error_turns) == (6, 1, 2, 1)
