"""The `memories` capability: `{"id": "memories", "implementation": <strategy>, "params": {...}}`.

Shape rules enforced here; what an enabled capability must write is `memories_findings`':
- `implementation` is `scratchpad`, `markdown` or `keyword-search`; only `memories` takes one;
- `params.scope` is `isolated`, `shared`, `inherited` or `read-only`;
- each of the six caps (`maxCount`, `maxLenPerMemory`, `maxTotalLen`, `maxLenIndex`,
  `maxLenDescription`, `maxResults`) is a whole number, 0 or more (`0` switches it off; `5e2` is a
  whole number, `2.5` is not). `maxLenIndex` under a strategy with no index and `maxResults`
  under one with no search have nothing to bound: either is refused unless written `0`;
- an enabled capability writes its `implementation`, its `scope` and every cap: gg substitutes
  nothing; a disabled one need not be complete, but what it writes is judged all the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from gg.config.catalogue import CapabilityId
from gg.config.defects import Finding, Loc, mapping
from gg.config.memories.caps import APPLIES, CapName, Caps, unapplied
from gg.config.memories.profile import MemoryProfile, Scope
from gg.config.memories.strategy import Strategy
from gg.config.part import Enabled, Part
from gg.config.values import Choice, Whole
from gg.wire import snake

__all__ = ["MemoriesCapability", "MemoriesParams", "memories_findings"]

CAP = Whole(0, note="0 switches it off")
Cap = Annotated[int, CAP]


class MemoriesParams(Part):
    """As written; an enabled capability writes every one (checked in `memories_findings`)."""

    scope: Annotated[Scope, Choice(Scope)] | None = None
    max_count: Cap | None = None
    max_len_per_memory: Cap | None = None
    max_total_len: Cap | None = None
    max_len_index: Cap | None = None
    max_len_description: Cap | None = None
    max_results: Cap | None = None


class MemoriesCapability(Part):
    """Model-curated notes, organized by `implementation`, bound by `params.scope`."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"enabled": {"const": False}}, "required": ["enabled"]},
            "else": {
                "required": ["implementation", "params"],
                "properties": {"params": {"required": ["scope", *(name.value for name in CapName)]}},
            },
        }
    )

    id: Literal[CapabilityId.MEMORIES]
    enabled: Enabled = True
    implementation: Annotated[Strategy, Choice(Strategy)] | None = None
    params: MemoriesParams = Field(default_factory=MemoriesParams)

    def profile(self, slug: str) -> MemoryProfile:
        """What profile `slug`'s memories resolve to. Raises `LookupError` for an incomplete one."""
        params = self.params
        written = {name: getattr(params, snake(name.value)) for name in CapName}
        if self.implementation is None or params.scope is None or None in written.values():
            raise LookupError(f"agent `{slug}`'s memories lack their implementation, scope or a cap")
        caps = Caps.resolve(self.implementation, {name: value for name, value in written.items() if value})
        return MemoryProfile(slug, self.implementation, caps, params.scope)


def memories_findings(capability: Mapping[str, Any], loc: Loc) -> Iterator[Finding]:
    """What an enabled `memories` capability leaves unwritten, each at its own key."""
    if capability.get("implementation") is None:
        yield Finding(
            (*loc, "implementation"),
            "is required when memories is enabled: " + Choice(Strategy).wanted.removeprefix("must be "),
        )
    params = mapping(capability.get("params", {}))
    if params is None:
        return
    if params.get("scope") is None:
        yield Finding(
            (*loc, "params", "scope"),
            "is required when memories is enabled: " + Choice(Scope).wanted.removeprefix("must be "),
        )
    for name in CapName:
        if params.get(name.value) is None:
            yield Finding(
                (*loc, "params", name.value), f"is required when memories is enabled; it {CAP.wanted}"
            )
    yield from _unapplied_findings(capability.get("implementation"), params, loc)


def _unapplied_findings(implementation: object, params: Mapping[str, Any], loc: Loc) -> Iterator[Finding]:
    """A cap written above `0` that the strategy has nothing to apply to, each at its own key."""
    if implementation not in {strategy.value for strategy in Strategy}:
        return  # an unknown or missing strategy is refused on its own
    strategy = Strategy(str(implementation))
    whole = {name: _whole_number(params.get(name.value)) for name in CapName}
    for name in unapplied(strategy, whole):
        where = ", ".join(f"`{s.value}`" for s in Strategy if s in APPLIES[name])
        yield Finding(
            (*loc, "params", name.value),
            f"bounds nothing under `{strategy.value}` (it applies under {where} alone): write 0",
        )


def _whole_number(value: object) -> int:
    """`value` as the whole number it stands for, or 0 when it stands for none (refused elsewhere)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer():
        return int(value)
    return 0
