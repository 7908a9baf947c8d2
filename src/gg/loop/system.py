"""The system prompt an agent is created with; it is never rewritten afterwards.

The module list names no function: each module it may call gets one line (path, brief, import
line), and the prompt points at the documentation calls, where functions and types are found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gg import prompts
from gg.sandbox.jail import JailPolicy
from gg.sandbox.languages import LanguageSpec
from gg.sdk.registry import Ending, Operation, Registry, Role, is_bound
from gg.sdk.skills import Skill
from gg.state.library import ProgramLibrary


@dataclass(frozen=True)
class ModuleLine:
    path: str
    brief: str
    import_line: str


def system_prompt(
    registry: Registry,
    language: LanguageSpec,
    role: Role,
    capabilities: frozenset[str],
    library: ProgramLibrary | None = None,
    skills: Sequence[Skill] = (),
    jail: JailPolicy | None = None,
) -> str:
    """The prompt for one agent: only the modules it may call, its own endings, the library's
    rules when it keeps one, the skills it may read when its profile enables them, and what its
    shell's jail is when it has one."""
    bound = [op for op in registry if is_bound(op.gate, role, capabilities)]
    endings = [f"`{op.qualified(language.id)}`" for op in bound if isinstance(op.gate, Ending)]
    modules = [
        ModuleLine(
            path=f"gg.{family}", brief=registry.brief(family), import_line=language.import_line(family)
        )
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
    if library is None:
        return ""
    spell = {op.key: op.qualified(language.id) for op in registry.in_family("programs")}
    return prompts.render(
        "library", get=spell["get"], rerun=spell["rerun"], history=spell["history"], keep=library.keep
    )
