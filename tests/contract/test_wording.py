"""Every sentence the model reads is pinned: each template under `prompts/templates/` rendered with
stand-in values, and the real system prompt of each arm, against `wording.golden`.

A change of wording fails here on purpose. After reading the diff, re-pin with
`GG_PIN_WORDING=1 python3 bootstrap.py test tests/contract/test_wording.py`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from jinja2 import meta

from gg import prompts
from gg.config.catalogue import Role, RosterScope
from gg.config.delegation import FsmState, FsmTransition, RosterEntry
from gg.config.kinds import ModuleKind
from gg.loop.setup import Seat
from gg.loop.system import Delegating, arrival_segment, delegation_segment, system_prompt
from gg.sandbox.jail import JailPolicy
from gg.sandbox.languages import LANGUAGES
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import STANDS_IN_A_STATE
from gg.state.library import ProgramLibrary

TEMPLATES = Path(prompts.__file__).parent / "templates"
GOLDEN = Path(__file__).parent / "wording.golden"


class Sample(str):
    """A stand-in value: prints as its own name, and has whatever attributes and items a template
    asks of it, so every template renders without hand-written inputs."""

    def __new__(cls, name: str) -> Sample:
        return super().__new__(cls, f"<{name}>")

    def __getattr__(self, attr: str) -> Sample:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Sample(f"{self[1:-1]}.{attr}")

    def __iter__(self) -> Iterator[Any]:  # type: ignore[override]
        return iter([Sample(f"{self[1:-1]}[0]"), Sample(f"{self[1:-1]}[1]")])


def _template_renders() -> dict[str, str]:
    source = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES))
    renders: dict[str, str] = {}
    for path in sorted(TEMPLATES.glob("*.j2")):
        names = meta.find_undeclared_variables(source.parse(path.read_text(encoding="utf-8")))
        renders[f"template {path.stem}"] = prompts.render(path.stem, **{n: Sample(n) for n in names})
    return renders


def _system_prompts() -> dict[str, str]:
    registry = default_registry()
    renders: dict[str, str] = {}
    for language in LANGUAGES.values():
        for role in Role:
            library = ProgramLibrary(keep=20, id_length=4) if role is Role.STANDARD else None
            capabilities = frozenset({"program-library"} if library else set())
            prompt = system_prompt(registry, language, role, capabilities, library)
            renders[f"system {language.id} {role.value}"] = prompt
    for language, network in ((LANGUAGES["javascript"], False), (LANGUAGES["python"], True)):
        jail = JailPolicy(Path("/work/ws"), 1 << 32, network=network)
        prompt = system_prompt(registry, language, Role.STANDARD, frozenset({"shell"}), jail=jail)
        renders[f"system {language.id} standard shell{' network' if network else ''}"] = prompt
    return {**renders, **_delegating_prompts()}


def _delegating_prompts() -> dict[str, str]:
    """The system prompts of agents that start, hand on to and copy agents, or stand in a machine."""
    registry = default_registry()
    roster = (
        RosterEntry(agent="reviewer", description="reads a change", scopes=(RosterScope.SUBAGENT,)),
        RosterEntry(agent="worker", scopes=(RosterScope.SUBAGENT,)),
    )
    edge = FsmTransition(
        to="verify", transfer=(ModuleKind.HISTORY, ModuleKind.SKILLS), description="once built"
    )
    seat = Seat("process", FsmState(name="build", agent="builder", transitions=(edge,)))
    renders: dict[str, str] = {}
    for language in (LANGUAGES["javascript"], LANGUAGES["python"]):
        capabilities = frozenset({"subagents", "exec", "fork"})
        facts = Delegating(roster, max_depth=2, depth=1)
        prompt = system_prompt(
            registry,
            language,
            Role.STANDARD,
            capabilities,
            delegation=delegation_segment(registry, language, capabilities, facts),
            arrival=arrival_segment("spawn", "root"),
        )
        renders[f"system {language.id} standard delegation"] = prompt
    in_state = frozenset({STANDS_IN_A_STATE})
    machine = Delegating(seat=seat)
    renders["system javascript standard machine state"] = system_prompt(
        registry,
        LANGUAGES["javascript"],
        Role.STANDARD,
        in_state,
        delegation=delegation_segment(registry, LANGUAGES["javascript"], in_state, machine),
        arrival=arrival_segment("succession", "root"),
    )
    return renders


def _memory_renders() -> dict[str, str]:
    """What memories put in a prompt, under each strategy and access (`gg.state.memories.prompt`)."""
    from gg.config import memories as cm
    from gg.state import memories as m
    from gg.state.storeids import StoreIds

    names = {call: f"gg.memories.{call.value}" for call in cm.Call}
    written = {cm.CapName.MAX_COUNT: 64, cm.CapName.MAX_LEN_PER_MEMORY: 4096, cm.CapName.MAX_TOTAL_LEN: 9000}
    written |= {
        cm.CapName.MAX_LEN_INDEX: 2000,
        cm.CapName.MAX_LEN_DESCRIPTION: 256,
        cm.CapName.MAX_RESULTS: 25,
    }
    renders: dict[str, str] = {}
    for strategy in cm.Strategy:
        caps = cm.Caps.resolve(strategy, written)
        ids, registry = StoreIds(), m.ProfileStores()
        owner_profile = cm.MemoryProfile("root", strategy, caps, cm.Scope.ISOLATED)
        owner = m.open_holder(owner_profile, "root", ids, registry)
        reader_profile = cm.MemoryProfile("reader", strategy, caps, cm.Scope.READ_ONLY)
        reader = m.open_holder(reader_profile, "reader", ids, registry, owner)
        draft = m.Draft("build-commands", "how to build and test", "run the kiln at 900")
        (owner.store.write if strategy is cm.Strategy.SCRATCHPAD else owner.store.create)("root", draft)
        renders[f"memories guide {strategy} writable"] = m.guide(owner, names)
        renders[f"memories guide {strategy} read-only"] = m.guide(reader, names)
        renders[f"memories block {strategy}"] = m.pinned_block(owner) or "(none)"
        renders[f"memories notice {strategy}"] = m.notice_text(reader, names) or "(none)"
    return renders | _withheld_call_renders()


def _withheld_call_renders() -> dict[str, str]:
    """A memories refusal whose profile withholds a call it would name (handed as "")."""
    edit, delete = "gg.memories.edit_memory", "gg.memories.delete_memory"
    full = {"cap": 64, "cap_name": "maxCount"}
    fulls = {"delete": (edit, ""), "revise": ("", delete), "both": ("", "")}
    renders = {
        f"memories full, {withheld} withheld": prompts.render(
            "memories-full", **full, revise_call=revise_call, delete_call=delete_call
        )
        for withheld, (revise_call, delete_call) in fulls.items()
    }
    renders["memories taken, revise withheld"] = prompts.render("memories-taken", name="kiln", revise_call="")
    missing = prompts.render("memories-missing", name="kiln", create_call="")
    renders["memories missing, create withheld"] = missing
    return renders


def _golden() -> str:
    sections = {**_template_renders(), **_system_prompts(), **_memory_renders()}
    return "".join(f"=== {name} ===\n{text}\n" for name, text in sections.items())


def test_every_model_facing_wording_is_pinned() -> None:
    rendered = _golden()
    if os.environ.get("GG_PIN_WORDING"):
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert GOLDEN.exists(), "no golden wording yet: run with GG_PIN_WORDING=1"
    pinned = GOLDEN.read_text(encoding="utf-8")
    if rendered != pinned:
        pytest.fail("model-facing wording changed; read the diff, then re-pin:\n" + _diff(pinned, rendered))


def _diff(before: str, after: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(before.splitlines(True), after.splitlines(True), "pinned", "now", n=1)
    )
