"""One agent's documentation world for the docs and skills tests: the default registry, a
surface built for a language, role and capabilities, and a membrane over a fresh workspace."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gg.config.catalogue import Role
from gg.errors import OperationError
from gg.sandbox.languages import JAVASCRIPT
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.docs.surface import build_surface
from gg.sdk.scope import ProgramScope
from gg.sdk.surface import Surface
from gg.state.skills import SkillShelf
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.guest_world import QuietLog


@dataclass
class World:
    surface: Surface
    views: ViewSet
    workspace: Workspace
    role: Role
    capabilities: frozenset[str]
    language: LanguageSpec

    def scope(self) -> ProgramScope:
        return ProgramScope(
            agent_id="root",
            role=self.role,
            capabilities=self.capabilities,
            workspace=self.workspace,
            views=self.views,
            turn=1,
            surface=self.surface,
            spell=default_registry().spelling(self.language.id),
        )

    def call(self, wire: str, **args: Any) -> Any:
        return Membrane(default_registry(), self.scope(), QuietLog(), self.language.id)(wire, args)

    def refusal(self, wire: str, **args: Any) -> OperationError:
        try:
            self.call(wire, **args)
        except OperationError as error:
            return error
        raise AssertionError(f"{wire} was expected to fail")


def world(
    tmp_path: Path,
    *,
    role: Role = Role.STANDARD,
    capabilities: frozenset[str] = frozenset(),
    skills: Path | None = None,
    language: LanguageSpec = JAVASCRIPT,
) -> World:
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    shelf = None if skills is None else SkillShelf(skills, language.module_extensions)
    surface = build_surface(default_registry(), language, role, capabilities, shelf)
    return World(surface, ViewSet(), Workspace(workspace), role, capabilities, language)
