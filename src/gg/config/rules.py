"""Cross-field rules of a capability set, judged on the document as written.

They run beside pydantic's shape checks, on the raw document, so one refusal holds both kinds.
Each skips what is mis-shaped (pydantic names that) and yields findings at precise key paths:
- `agents` lists at least one agent (the first is the root); slugs are unique;
- `maxErrorRate` and `errorRateWindow` are written together or not at all;
- every agent but a machine (`fsm`) names its `model` and lists `responses-as-code`, enabled
  (code mode is the only mode);
- no capability is listed twice by one agent;
- an enabled `program-library` writes both `keep` and `idLength` (`null` counts as unwritten);
- `host-functions` lists at least one family, each once; `mcp` names at least one server;
- an enabled `memories` writes its `implementation`, `scope` and six caps (`memories.py`);
- a `replay` model names its `journal` and only a `replay` model does; other providers name a `model`;
- the agent tree's rules (rosters, `subagents`, `exec`, `fork`) are `roster.py`'s, a machine's
  `machines.py`'s;
- the hooks' placement and kind rules are `gg.config.hooks`';
- the module capabilities' rules (`tasks`, `project-management`, `agent-managed-context`) are
  `modules.py`'s.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from gg.config.catalogue import CapabilityId, Provider
from gg.config.defects import ABSENT, Finding, Loc, mapping, sequence
from gg.config.hooks.declaration import hooks_findings
from gg.config.host_functions import host_families_findings
from gg.config.machines import is_machine, machine_findings
from gg.config.mcp import mcp_servers_findings
from gg.config.memories.capability import memories_findings
from gg.config.model import ID_LENGTH, KEEP
from gg.config.modules import module_findings
from gg.config.roster import roster_findings

__all__ = ["cross_field_findings"]

_LIBRARY_PARAMS = {"keep": KEEP, "idLength": ID_LENGTH}


def cross_field_findings(
    document: Mapping[str, Any], *, models_handed: Collection[int] = ()
) -> Iterator[Finding]:
    """Every cross-field defect in the document. Every profile but a machine names its model,
    but those the run is handed a model for (`models_handed`, by index in `agents`: the root's,
    `0`, for `gg.run(model=...)`; each one `gg mcp serve` serves, whose model is the client) may
    go unnamed."""
    yield from _error_rate_pair(mapping(document.get("limits")) or {})
    yield from hooks_findings(document.get("hooks"), ("hooks",), session=True)
    agents = sequence(document.get("agents"))
    if agents is None:
        return
    if not agents:
        yield Finding(("agents",), "must list at least one agent")
        return
    yield from module_findings(agents)
    yield from _slugs(agents)
    for index, agent in enumerate(agents):
        if (profile := mapping(agent)) is None:
            continue
        worker = not is_machine(profile)
        if worker and "model" not in profile and index not in models_handed:
            yield Finding(("agents", index, "model"), "is required")
        yield from _model_binding(mapping(profile.get("model")), ("agents", index, "model"))
        capabilities = profile.get("capabilities", ABSENT)
        yield from _capabilities(capabilities, ("agents", index, "capabilities"), code_mode=worker)
        yield from hooks_findings(profile.get("hooks"), ("agents", index, "hooks"), session=False)
    yield from roster_findings(agents)
    yield from machine_findings(agents)


def _error_rate_pair(limits: Mapping[str, Any]) -> Iterator[Finding]:
    rate, window = limits.get("maxErrorRate") is not None, limits.get("errorRateWindow") is not None
    if rate and not window:
        yield Finding(
            ("limits", "errorRateWindow"),
            "is required when maxErrorRate is written: the number of recent turns the rate is measured over",
        )
    if window and not rate:
        yield Finding(
            ("limits", "maxErrorRate"),
            "is required when errorRateWindow is written: the fraction of error turns that stops an agent",
        )


def _slugs(agents: Sequence[Any]) -> Iterator[Finding]:
    first_at: dict[str, int] = {}
    for index, agent in enumerate(agents):
        slug = (mapping(agent) or {}).get("slug")
        if not isinstance(slug, str):
            continue
        if slug in first_at:
            yield Finding(
                ("agents", index, "slug"), f"repeats the slug of agents[{first_at[slug]}]; slugs are unique"
            )
        else:
            first_at[slug] = index


def _model_binding(model: Mapping[str, Any] | None, loc: Loc) -> Iterator[Finding]:
    provider = model.get("provider") if model is not None else None
    if model is None or not isinstance(provider, str):
        return
    if provider == Provider.REPLAY and model.get("journal") is None:
        yield Finding(
            (*loc, "journal"), "is required when the provider is replay: the recorded journal to play"
        )
    if provider in set(Provider) - {Provider.REPLAY}:
        if model.get("model") is None:
            yield Finding((*loc, "model"), f"is required when the provider is {provider}: the model's id")
        if model.get("journal") is not None:
            yield Finding((*loc, "journal"), "is read only by the replay provider")


def _capabilities(entries: object, loc: Loc, *, code_mode: bool) -> Iterator[Finding]:
    listed = [] if entries is ABSENT or entries is None else sequence(entries)
    if listed is None:
        return
    first_at: dict[str, int] = {}
    for index, entry in enumerate(listed):
        capability = mapping(entry)
        capability_id = capability.get("id") if capability is not None else None
        if capability is None or not isinstance(capability_id, str):
            continue
        if capability_id in first_at:
            yield Finding(
                (*loc, index, "id"),
                f"lists {capability_id} again (first at capabilities[{first_at[capability_id]}])",
            )
            continue
        first_at[capability_id] = index
        yield from _entry(capability, (*loc, index))
    if code_mode and CapabilityId.RESPONSES_AS_CODE not in first_at:
        ids = [(mapping(entry) or {}).get("id") for entry in listed]
        found = ids if entries is not ABSENT else ABSENT
        yield Finding(loc, "must list responses-as-code, enabled: code mode is the only mode", found=found)


def _entry(capability: Mapping[str, Any], loc: Loc) -> Iterator[Finding]:
    enabled = capability.get("enabled") is not False
    if capability.get("id") == CapabilityId.RESPONSES_AS_CODE and not enabled:
        yield Finding((*loc, "enabled"), "must be true: code mode is the only mode")
    if capability.get("id") == CapabilityId.HOST_FUNCTIONS:
        yield from host_families_findings(
            (mapping(capability.get("params")) or {}).get("families"), (*loc, "params")
        )
    if capability.get("id") == CapabilityId.MCP:
        servers = (mapping(capability.get("params")) or {}).get("servers")
        yield from mcp_servers_findings(servers, (*loc, "params"))
    if capability.get("id") == CapabilityId.MEMORIES and enabled:
        yield from memories_findings(capability, loc)
    if capability.get("id") == CapabilityId.PROGRAM_LIBRARY and enabled:
        params = mapping(capability.get("params", {}))
        for key, rule in _LIBRARY_PARAMS.items():
            if params is not None and params.get(key) is None:
                yield Finding(
                    (*loc, "params", key), f"is required when program-library is enabled; it {rule.wanted}"
                )
