"""What a call cost: the packaged price table, and unknown models costing nothing known."""

from __future__ import annotations

import pytest

from gg.providers.base import ModelError, Reply, Usage
from gg.providers.failures import FailedAttempt, Symptom
from gg.providers.pricing import Price, cost_at, cost_of, default_table, parse_table, priced

MILLION = 1_000_000


def test_a_listed_model_is_priced_per_million_tokens() -> None:
    assert cost_of("anthropic:claude-haiku-4-5", Usage(MILLION, MILLION)) == pytest.approx(6.0)


def test_an_alias_costs_what_its_model_costs() -> None:
    usage = Usage(12_345, 678, cache_read_tokens=10_000)
    assert cost_of("openai:gpt-4o-2024-08-06", usage) == cost_of("openai:gpt-4o", usage)


def test_an_unknown_model_costs_none_never_a_neighbours_price() -> None:
    assert cost_of("anthropic:claude-haiku-4-5-2099", Usage(10, 10)) is None
    assert cost_of("openrouter:anthropic/claude-haiku-4.5", Usage(10, 10)) is None
    assert cost_of("openai:llama3", Usage(10, 10)) is None


def test_cache_reads_and_writes_are_taken_out_of_the_prompt_and_priced_at_their_own_rates() -> None:
    price = Price(input=3.0, output=15.0, cache_read=0.3, cache_write=3.75, cache_write_1h=6.0)
    usage = Usage(1_000, 100, cache_read_tokens=600, cache_write_tokens=300, cache_write_1h_tokens=100)
    expected = (100 * 3.0 + 600 * 0.3 + 200 * 3.75 + 100 * 6.0 + 100 * 15.0) / MILLION
    assert cost_at(price, usage) == pytest.approx(expected)


def test_a_one_hour_write_on_a_model_without_that_rate_costs_none() -> None:
    price = Price(input=1.0, output=1.0, cache_read=0.1, cache_write=1.0)
    assert cost_at(price, Usage(100, 1, cache_write_tokens=50, cache_write_1h_tokens=50)) is None
    assert cost_at(price, Usage(100, 1, cache_write_tokens=50)) is not None


def test_every_packaged_entry_states_every_rate() -> None:
    table = default_table()
    assert "anthropic:claude-sonnet-5-5" in table.prices and "openai:gpt-5" in table.prices
    assert all(p.input > 0 and p.output > 0 for p in table.prices.values())
    anthropic = [p for name, p in table.prices.items() if name.startswith("anthropic:")]
    assert all(p.cache_write_1h is not None for p in anthropic)


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ('[models."a:b"]\ninput = 1\noutput = 1\ncache_read = 1', "`a:b.cache_write` must be a number"),
        ('[models."a:b"]\ninput = -1\noutput = 1\ncache_read = 1\ncache_write = 1', "`a:b.input`"),
        ('[models."a:b"]\ninput = 1\noutput = 1\ncache_read = 1\ncache_write = 1\ncost = 2', "unknown key"),
        (
            '[models."a:b"]\naliases = ["a:b"]\ninput = 1\noutput = 1\ncache_read = 1\ncache_write = 1',
            "`a:b` is priced twice",
        ),
    ],
)
def test_a_malformed_table_names_its_bad_entry(text: str, fault: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_table(text)
    assert fault in str(caught.value)


def test_a_reported_cost_is_kept_and_a_missing_one_comes_from_the_table() -> None:
    usage = Usage(MILLION, 0)
    reported = Reply("", (), usage, "m", cost_usd=0.42)
    assert priced("openai:gpt-4o", reported).cost_usd == 0.42
    assert priced("openai:gpt-4o", Reply("", (), usage, "m")).cost_usd == pytest.approx(2.5)


def test_a_charged_failure_is_raised_with_its_cost() -> None:
    failure = FailedAttempt(Symptom.LENGTH_CAPPED, "cut", usage=Usage(0, MILLION))
    with pytest.raises(ModelError) as caught:
        priced("openai:gpt-4o", failure)
    assert caught.value.cost_usd == pytest.approx(10.0)
