"""A reply's usage is spelled on the wire once (`gg.telemetry.events.UsageKey`): a `model_reply`'s
`usage`, a journal line's and a run's summary carry these names, and `gg show --json` and
`gg runs --json` print their counts under them."""

from __future__ import annotations

from gg.providers.base import Usage
from gg.providers.journal import parse_journal
from gg.telemetry.events import UsageKey


def test_the_usage_counts_are_spelled_once_in_camel_case() -> None:
    assert [key.value for key in UsageKey] == [
        "inputTokens",
        "outputTokens",
        "cacheReadTokens",
        "cacheWriteTokens",
        "cacheWrite1hTokens",
    ]


def test_a_usage_on_the_wire_carries_every_count_and_an_unreported_cache_read_as_null() -> None:
    assert Usage(12, 34, None, 5, 2).to_wire() == {
        "inputTokens": 12,
        "outputTokens": 34,
        "cacheReadTokens": None,
        "cacheWriteTokens": 5,
        "cacheWrite1hTokens": 2,
    }


def test_a_journal_lines_usage_is_read_under_the_same_names() -> None:
    line = '{"text": "hi", "usage": {"inputTokens": 12, "outputTokens": 34, "cacheWrite1hTokens": 2}}'
    (reply,) = parse_journal(line, "journal.jsonl")
    assert reply.usage == Usage(12, 34, None, 0, 2)
