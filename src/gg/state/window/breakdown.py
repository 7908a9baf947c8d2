"""What one request costs its window, band by band (seed 003: "each turn reports what every
module costs the window"). Pure.

- Every message of the window counts in the band its mark names (`BAND_OF`): the brief, the
  thread, the views, the documentation views, and each module's pinned blocks (the task list's,
  the skills read); the system prompt and the tool's schema are bands of their own. A band with
  nothing in it is left out, so the board's (always empty) is never listed.
- Sizes are characters: a message's content and its calls' arguments (as JSON), as the window
  counts them while it changes (`Window.band_sizes`), the tool's name, description and parameters
  (as JSON).
- When the provider measured the request (`input_tokens` above 0), the breakdown is in tokens:
  each band's share of the measured total in proportion to its characters, rounded so the shares
  add up to the total exactly (largest remainders first). Otherwise it is in characters.
"""

from __future__ import annotations

import json
from typing import Any

from gg.providers.base import ToolSpec
from gg.state.window.store import Band, Window
from gg.telemetry.breakdown import ContextBand, ContextBreakdown, ContextUnit

BAND_OF: dict[Band, ContextBand] = {
    Band.BRIEF: ContextBand.TASK,
    Band.THREAD: ContextBand.THREAD,
    Band.VIEW: ContextBand.VIEWS,
    Band.DOCS: ContextBand.DOCS,
    Band.MEMORY: ContextBand.MEMORY,
    Band.TASKS: ContextBand.TASK_LIST,
    Band.SKILL: ContextBand.SKILL,
}


def band_chars(system: str, tool: ToolSpec, window: Window) -> dict[ContextBand, int]:
    """Each band's characters in a request of `system`, `tool` and `window`, in band order."""
    sizes = dict.fromkeys(ContextBand, 0)
    sizes[ContextBand.SYSTEM] = len(system)
    sizes[ContextBand.TOOLS] = len(tool.name) + len(tool.description) + len(_json(tool.parameters))
    for band, size in window.band_sizes().items():
        sizes[BAND_OF[band]] += size
    return {band: size for band, size in sizes.items() if size}


def breakdown(chars: dict[ContextBand, int], input_tokens: int) -> ContextBreakdown:
    """The `context_breakdown` of a request of `chars`, measured at `input_tokens` (0: unmeasured)."""
    if input_tokens <= 0 or not chars:
        rows = [{"band": band.value, "chars": size} for band, size in chars.items()]
        return ContextBreakdown(unit=ContextUnit.CHARS.value, bands=rows)
    tokens = apportioned(chars, input_tokens)
    rows = [{"band": band.value, "tokens": tokens[band], "chars": size} for band, size in chars.items()]
    return ContextBreakdown(unit=ContextUnit.TOKENS.value, bands=rows, input_tokens=input_tokens)


def apportioned(chars: dict[ContextBand, int], total: int) -> dict[ContextBand, int]:
    """`total` split across the bands in proportion to their characters, summing to `total`."""
    whole = sum(chars.values())
    exact = {band: total * size / whole for band, size in chars.items()}
    shares = {band: int(value) for band, value in exact.items()}
    by_remainder = sorted(chars, key=lambda band: (shares[band] - exact[band], list(chars).index(band)))
    for band in by_remainder[: total - sum(shares.values())]:
        shares[band] += 1
    return shares


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
