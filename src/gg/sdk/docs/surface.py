"""Building one agent's `Surface` (`gg.sdk.surface`) for its arm: its documentation, its skills
shelf and an empty set of loaded code modules.

The documentation holds the pages of every function the agent may call (its role's endings, the
capabilities its profile enables, everything always bound), built from the arm's signature
catalogue, so what a search finds and what the agent may call are one set.
"""

from __future__ import annotations

from collections.abc import Collection

from gg.config.catalogue import Role
from gg.sdk.docs.index import DocIndex
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.docs.pages import documentation
from gg.sdk.docs.signatures import signature_catalogue
from gg.sdk.registry import Registry
from gg.sdk.skills import built_in_skills
from gg.sdk.surface import LoadedModules, Surface
from gg.state.skills import SkillShelf


def build_surface(
    registry: Registry,
    language: LanguageSpec,
    role: Role,
    capabilities: Collection[str],
    skills: SkillShelf | None = None,
    built_ins: Collection[str] = (),
) -> Surface:
    """The surface of an agent of `role` holding `capabilities`; `skills` is its directory's
    skills catalogue when the profile enables skills, beside which gg's own skills of the families
    `built_ins` names are offered (`gg.sdk.skills.built_in_skills`)."""
    granted = frozenset(capabilities)
    callable_keys = {op.qualified(language.id) for op in registry.bound(role, granted)}
    pages = documentation(signature_catalogue(registry, language), callable_keys)
    return Surface(
        docs=DocIndex(pages),
        modules=LoadedModules(language.module_key),
        document_module=language.document_module,
        skills=None if skills is None else skills.offering(built_in_skills(pages, built_ins)),
    )
