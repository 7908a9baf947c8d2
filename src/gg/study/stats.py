"""The statistics a study reports, as small pure functions over numbers.

- `wilson_interval(solved, cells)`: the Wilson score interval for a solved rate, 95% by default;
  no interval for no cells; its low end is exactly 0 when none was solved and its high end
  exactly 1 when every one was (as the formula says, without a float's remainder).
- `mcnemar_exact(only_a, only_b)`: the exact two-sided McNemar p-value, the binomial test of the
  discordant pairs at one half; 1.0 when no pair is discordant.
- `median(values)` and `quantile(values, q)`: linear interpolation between order statistics (the
  rule numpy and R call type 7); no value for no values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z_95", "mcnemar_exact", "median", "p90", "quantile", "wilson_interval"]

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile


def wilson_interval(solved: int, cells: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval `(low, high)` for `solved` successes of `cells` trials."""
    if cells <= 0:
        return None
    if not 0 <= solved <= cells:
        raise ValueError(f"solved must lie between 0 and {cells}, got {solved}")
    rate = solved / cells
    z2 = z * z
    centre = (rate + z2 / (2 * cells)) / (1 + z2 / cells)
    spread = z / (1 + z2 / cells) * math.sqrt(rate * (1 - rate) / cells + z2 / (4 * cells * cells))
    low = 0.0 if solved == 0 else max(0.0, centre - spread)
    high = 1.0 if solved == cells else min(1.0, centre + spread)
    return low, high


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """The exact two-sided p-value of McNemar's test from the two discordant counts."""
    if only_a < 0 or only_b < 0:
        raise ValueError("discordant counts are never negative")
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    tail = sum(math.comb(discordant, k) for k in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2**discordant)


def quantile(values: Sequence[float], q: float) -> float | None:
    """The `q`-quantile (0 ≤ q ≤ 1), interpolating linearly between the sorted values."""
    if not 0 <= q <= 1:
        raise ValueError(f"a quantile lies between 0 and 1, got {q}")
    ordered = sorted(values)
    if not ordered:
        return None
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def median(values: Sequence[float]) -> float | None:
    return quantile(values, 0.5)


def p90(values: Sequence[float]) -> float | None:
    return quantile(values, 0.9)
