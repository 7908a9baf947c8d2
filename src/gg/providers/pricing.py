"""What a model call cost, in US dollars, from the price table `pricing.toml`.

- A model is looked up by its id, `<provider>:<model>`, or one of its listed aliases; a model the
  table does not list costs `None`: never a guess, never a neighbour's price.
- Rates are per million tokens. A call's cost is the sum of its uncached prompt tokens at
  `input`, cache reads at `cache_read`, default-lifetime cache writes at `cache_write`, one-hour
  writes at `cache_write_1h` and output tokens at `output`. `Usage.input_tokens` counts every
  prompt token, so the uncached ones are what remains after reads and writes (never below 0).
- One-hour writes on a model that lists no `cache_write_1h` rate cost `None` too.
- The table is checked whole when loaded: a malformed entry is a `ValueError` naming it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from gg.providers.base import Reply, Usage
from gg.providers.failures import FailedAttempt

PER_TOKENS = 1_000_000
_RATES = ("input", "output", "cache_read", "cache_write")


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_read: float
    cache_write: float
    cache_write_1h: float | None = None


@dataclass(frozen=True)
class PriceTable:
    prices: Mapping[str, Price]

    def price_of(self, model_id: str) -> Price | None:
        return self.prices.get(model_id)

    def cost_of(self, model_id: str, usage: Usage) -> float | None:
        price = self.price_of(model_id)
        return None if price is None else cost_at(price, usage)


def cost_at(price: Price, usage: Usage) -> float | None:
    """The cost of `usage` at `price`, in US dollars; `None` for an unpriced one-hour write."""
    long_writes = min(usage.cache_write_1h_tokens, usage.cache_write_tokens)
    if long_writes and price.cache_write_1h is None:
        return None
    read = usage.cache_read_tokens or 0  # none reported: every prompt token at the input rate
    uncached = max(0, usage.input_tokens - read - usage.cache_write_tokens)
    dollars_per_million = (
        uncached * price.input
        + read * price.cache_read
        + (usage.cache_write_tokens - long_writes) * price.cache_write
        + long_writes * (price.cache_write_1h or 0.0)
        + usage.output_tokens * price.output
    )
    return dollars_per_million / PER_TOKENS


def cost_of(model_id: str, usage: Usage) -> float | None:
    """The cost of one call of `model_id` (`<provider>:<model>`), from the packaged table."""
    return default_table().cost_of(model_id, usage)


@cache
def default_table() -> PriceTable:
    text = resources.files("gg.providers").joinpath("pricing.toml").read_text(encoding="utf-8")
    return parse_table(text)


def parse_table(text: str) -> PriceTable:
    """Read a price table (the TOML shape of `pricing.toml`); `ValueError` names a bad entry."""
    models = tomllib.loads(text).get("models", {})
    if not isinstance(models, dict):
        raise ValueError("`models` must be a table of models")
    prices: dict[str, Price] = {}
    for model_id, entry in models.items():
        price = _price(model_id, entry)
        for name in (model_id, *_aliases(model_id, entry)):
            if name in prices:
                raise ValueError(f"`{name}` is priced twice")
            prices[name] = price
    return PriceTable(prices)


def _price(model_id: str, entry: Any) -> Price:
    if not isinstance(entry, dict):
        raise ValueError(f"`{model_id}` must be a table")
    unknown = set(entry) - {*_RATES, "cache_write_1h", "aliases"}
    if unknown:
        raise ValueError(f"`{model_id}` has unknown key(s) {', '.join(sorted(unknown))}")
    rates = {name: _rate(model_id, name, entry.get(name)) for name in _RATES}
    long_write = entry.get("cache_write_1h")
    return Price(
        **rates, cache_write_1h=None if long_write is None else _rate(model_id, "cache_write_1h", long_write)
    )


def _rate(model_id: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"`{model_id}.{name}` must be a number of dollars, zero or more")
    return float(value)


def _aliases(model_id: str, entry: dict[str, Any]) -> list[str]:
    aliases = entry.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        raise ValueError(f"`{model_id}.aliases` must be a list of model ids")
    return list(aliases)


def priced(price_id: str | None, result: Reply | FailedAttempt) -> Reply:
    """How a client ends a call: the reply with its cost (a cost the provider reported itself
    is kept), or the failure raised as its `ModelError`, costed when it charged tokens. Tokens
    are priced under `price_id`, never when it is `None` (a model asked where its price does
    not hold: the factory's `price_id_of`)."""
    if isinstance(result, FailedAttempt):
        cost = result.cost_usd
        if cost is None and result.usage is not None and price_id is not None:
            cost = cost_of(price_id, result.usage)
        raise result.to_error(cost_usd=cost)
    if result.cost_usd is not None or price_id is None:
        return result
    return replace(result, cost_usd=cost_of(price_id, result.usage))
