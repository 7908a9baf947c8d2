"""Tokens and cost in a transcript: per turn and in total, never a guessed cost."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from gg.record.transcript import fold_transcript
from gg.terminal.show import render_transcript


def record(kind: str, turn: int, **fields: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "timestamp": "2026-11-29T20:32:33.000Z",
        "runId": "r",
        "agentId": "root",
        "turn": turn,
        **fields,
    }


def reply(turn: int, usage: dict[str, int], cost: float | None) -> dict[str, Any]:
    fields: dict[str, Any] = {"text": "", "calls": [], "usage": usage, "durationMs": 5}
    if cost is not None:
        fields["costUsd"] = cost
    return record("model_reply", turn, **fields)


RECORDS = [
    reply(
        1, {"inputTokens": 2000, "outputTokens": 100, "cacheReadTokens": 0, "cacheWriteTokens": 1800}, 0.01
    ),
    reply(
        2, {"inputTokens": 2300, "outputTokens": 50, "cacheReadTokens": 1800, "cacheWriteTokens": 0}, 0.002
    ),
    reply(3, {"inputTokens": 2500, "outputTokens": 20}, None),
    record("run_finished", 3, status="completed", exitCode=0, turns=3, durationMs=1000),
]


def test_each_turn_keeps_its_reply_cost_and_the_totals_count_what_no_price_covered() -> None:
    transcript = fold_transcript(RECORDS)
    assert [t.cost_usd for t in transcript.turns] == [0.01, 0.002, None]
    totals = transcript.totals
    assert (totals.input_tokens, totals.output_tokens) == (6800, 170)
    assert (totals.cache_read_tokens, totals.cache_write_tokens) == (1800, 1800)
    assert totals.cost is not None and abs(totals.cost - 0.012) < 1e-12
    assert totals.unpriced == 1


def test_a_run_with_no_known_cost_has_no_total_cost() -> None:
    transcript = fold_transcript([reply(1, {"inputTokens": 5, "outputTokens": 1}, None)])
    assert (transcript.totals.cost, transcript.totals.unpriced) == (None, 1)


def test_gg_show_prints_tokens_and_cost_per_turn_and_in_total() -> None:
    out = Console(record=True, width=200, color_system=None)
    render_transcript(fold_transcript(RECORDS), out)
    text = [line.rstrip() for line in out.export_text().splitlines()]
    assert "2,000 in / 100 out tokens (1,800 cache write) · $0.0100" in text
    assert "2,300 in / 50 out tokens (1,800 cache read) · $0.0020" in text
    assert "2,500 in / 20 out tokens" in text
    assert text[-1] == (
        "completed · exit 0 · 3 turns · 1.0 s · 6,800 in / 170 out tokens"
        " (1,800 cache read, 1,800 cache write) · $0.0120 (+1 reply unpriced) · 0 programs (0 failed)"
    )
