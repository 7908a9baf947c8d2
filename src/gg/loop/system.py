"""The system prompt an agent is created with; it is never rewritten afterwards."""

from __future__ import annotations

from dataclasses import dataclass

from gg import prompts
from gg.sandbox.languages import LanguageSpec
from gg.sdk.catalogue import FAMILY_BRIEFS, TYPE_SHAPES
from gg.sdk.registry import Ending, Registry, Role


@dataclass(frozen=True)
class ModuleLine:
    name: str
    brief: str
    import_line: str
    signatures: tuple[str, ...]


def system_prompt(registry: Registry, language: LanguageSpec, role: Role) -> str:
    endings = [
        f"`{op.qualified(language.id)}`"
        for op in registry
        if isinstance(op.gate, Ending) and op.gate.role is role
    ]
    modules = [
        ModuleLine(
            name=family,
            brief=FAMILY_BRIEFS[family],
            import_line=language.import_line(family),
            signatures=tuple(
                language.signature(op)
                for op in registry.in_family(family)
                if not isinstance(op.gate, Ending) or op.gate.role is role
            ),
        )
        for family in registry.families()
    ]
    return prompts.render(
        "system",
        language=language.display_name,
        arm_segment=prompts.render(language.segment_template),
        endings=" or ".join(endings),
        modules=modules,
        types=TYPE_SHAPES,
    )
