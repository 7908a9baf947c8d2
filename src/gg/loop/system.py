"""The system prompt an agent is created with; it is never rewritten afterwards.

The module list names no function: each module it may call gets one line (path, brief, import
line), and the prompt points at the documentation calls, where functions and types are found.
An agent that may start or hand on to other agents is told how (`delegation_segment`): whom its
roster lets it start, how deep it may go, that a wait is off its program's clock but not the
run's, and the edges out of the machine state it stands in; an agent another one made is told
how it came to be (`arrival_segment`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gg import prompts
from gg.config.catalogue import Role
from gg.config.kinds import KIND_ORDER, ModuleKind
from gg.sandbox.jail import JailPolicy
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.registry import Ending, Operation, Registry, is_bound
from gg.state.library import ProgramLibrary
from gg.state.skills import Skill

if TYPE_CHECKING:
    from gg.config.delegation import RosterEntry
    from gg.loop.setup import Seat


@dataclass(frozen=True)
class ModuleLine:
    """A module's line: its path, brief and import line; `only`, the calls it is offered when its
    profile withholds some of the module (the brief speaks of the whole module)."""

    path: str
    brief: str
    import_line: str
    only: tuple[str, ...] = ()


def system_prompt(
    registry: Registry,
    language: LanguageSpec,
    role: Role,
    capabilities: frozenset[str],
    library: ProgramLibrary | None = None,
    skills: Sequence[Skill] = (),
    jail: JailPolicy | None = None,
    *,
    delegation: str = "",
    arrival: str = "",
    memories: str = "",
) -> str:
    """The prompt for one agent: only the modules it may call, its own endings, the library's
    rules when it keeps one, the skills it may read when its profile enables them, what its
    shell's jail is when it has one, and how its memories work when it holds some."""
    bound = registry.bound(role, capabilities)
    endings = [f"`{op.qualified(language.id)}`" for op in bound if isinstance(op.gate, Ending)]
    modules = [
        _module_line(registry, language, family, [op for op in bound if op.family == family])
        for family in registry.families()
        if any(op.family == family for op in bound)
    ]
    return prompts.render(
        "system",
        language=language.display_name,
        arm_segment=prompts.render(language.segment_template),
        endings=" or ".join(endings),
        modules=modules,
        docs=_docs_segment(registry, language),
        library=_library_segment(registry, language, library),
        skills=prompts.render("skills", skills=skills) if skills else "",
        shell=_shell_segment(bound, jail),
        delegation=delegation,
        arrival=arrival,
        memories=memories,
    )


def _module_line(
    registry: Registry, language: LanguageSpec, family: str, offered: Sequence[Operation]
) -> ModuleLine:
    withheld = any(wire.startswith(f"{family}.") for wire in registry.withheld)
    only = tuple(f"`{op.qualified(language.id)}`" for op in offered) if withheld else ()
    return ModuleLine(f"gg.{family}", registry.brief(family), language.import_line(family), only)


@dataclass(frozen=True)
class Delegating:
    """What an agent's delegation segment states: its roster's startable entries, the run's depth
    limit, how deep it stands, and the machine state it stands in."""

    roster: Sequence[RosterEntry] = ()
    max_depth: int | None = None
    depth: int = 0
    seat: Seat | None = None


def delegation_segment(
    registry: Registry, language: LanguageSpec, capabilities: frozenset[str], facts: Delegating
) -> str:
    """The segment for an agent that may start, hand on to or copy agents; "" for one that may not."""
    spell = {
        op.key: op
        for op in registry.in_family("delegation")
        if is_bound(op.gate, Role.STANDARD, capabilities)
    }
    if not spell:
        return ""
    python = language.id in ("python", "python-typed")
    call = {key: op.qualified(language.id) + _CALLS[key][python] for key, op in spell.items()}
    seat = facts.seat
    edges = [] if seat is None else seat.state.transitions
    return prompts.render(
        "delegation",
        module="gg.delegation",
        spawn=call.get("spawn_subagent", ""),
        wait=call.get("wait_for_subagents", ""),
        send=call.get("send_message", ""),
        send_method="send",
        model_field=registry.spelling(language.id).argument("model_id"),
        exec=call.get("exec", ""),
        fork=call.get("fork", ""),
        transition=call.get("transition_state", ""),
        roster=facts.roster,
        max_depth=facts.max_depth or 0,
        depth=facts.depth,
        state=None if seat is None else seat.state.name,
        machine=None if seat is None else seat.machine,
        edges=[{"to": e.to, "description": e.description, "carried": kinds_phrase(e.carried)} for e in edges],
    )


def kinds_phrase(kinds: Collection[ModuleKind]) -> str:
    """`the conversation and the task list`: the kinds, in kind order, as the model reads them."""
    return prompts.render("kinds", kinds=[kind.value for kind in KIND_ORDER if kind in kinds])


_CALLS = {  # each call's arguments, as the JavaScript and the Python arm spell them
    "spawn_subagent": ("({ agent, prompt })", "(agent=..., prompt=...)"),
    "wait_for_subagents": ("(ids?)", "(ids=None)"),
    "send_message": ("(agentId, message)", "(agent_id, message)"),
    "exec": ("(agent, prompt?)", "(agent, prompt=None)"),
    "fork": ("(prompt)", "(prompt)"),
    "transition_state": ("(state, note?)", "(state, note=None)"),
}


def arrival_segment(how: str | None, parent: str | None) -> str:
    """The segment for an agent another one made: `how` is `spawn`, `fork` or `succession`."""
    if how is None:
        return ""
    return prompts.render(
        "arrival",
        parent=parent if how in ("spawn", "fork") else None,
        successor=how == "succession",
        copy=how == "fork",
    )


def _shell_segment(bound: Sequence[Operation], jail: JailPolicy | None) -> str:
    if jail is None or not any(op.family == "shell" for op in bound):
        return ""
    return prompts.render("shell", network=jail.network)


def _docs_segment(registry: Registry, language: LanguageSpec) -> str:
    search, open_docs = registry.get("docs.search"), registry.get("views.open_docs_view")
    if search is None or open_docs is None:
        return ""
    return prompts.render(
        "docs-discovery", search=search.qualified(language.id), open_docs=open_docs.qualified(language.id)
    )


def _library_segment(registry: Registry, language: LanguageSpec, library: ProgramLibrary | None) -> str:
    spell = {op.key: op.qualified(language.id) for op in registry.in_family("programs")}
    if library is None or not {"get", "rerun", "history"} <= set(spell):
        return ""  # a library whose calls the profile withholds is not described
    return prompts.render(
        "library", get=spell["get"], rerun=spell["rerun"], history=spell["history"], keep=library.keep
    )
