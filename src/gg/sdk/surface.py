"""What one agent's programs can learn and load.

- `Grant`: what the agent's profile grants, decided once: the documentation of every function it
  may call, how its code modules are keyed and documented, and its skills catalogue (the
  profile's directory, or None when the profile does not enable `skills`);
- `Surface`: what one agent instance has made of its grant: its documentation index, which grows
  as code modules load, and the code modules loaded for it, in load order, each under its own key.

A module loaded by a program is reachable from the agent's next program on: an arm run is handed
`modules.current()` as it stands when the program starts. Loading the same name again hands back
the module already loaded, under its first key. Loaded code is never carried (seed 003): a fork or
a successor starts from its grant with nothing loaded (`Surface.fresh`, `Grant.open`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.index import DocEntry, DocIndex
from gg.sdk.docs.modulekeys import camel_key, unique_key
from gg.state.skills import SkillShelf

ModuleDocumenter = Callable[[CodeModule, str], list[DocEntry]]  # (module, description) -> pages


class LoadedModules:
    """The code modules loaded for one agent, by the name they were loaded under."""

    def __init__(self, key_rule: Callable[[str], str] = camel_key) -> None:
        self.key_rule = key_rule
        self._by_name: dict[str, CodeModule] = {}

    def load(self, name: str, source: str, extension: str) -> tuple[CodeModule, bool]:
        """The module loaded under `name`, and whether this call loaded it."""
        if name in self._by_name:
            return self._by_name[name], False
        key = unique_key(name, self.keys(), self.key_rule)
        module = CodeModule(key, source, extension)
        self._by_name[name] = module
        return module, True

    def keys(self) -> list[str]:
        return [module.key for module in self._by_name.values()]

    def current(self) -> tuple[CodeModule, ...]:
        """What the next program is run with."""
        return tuple(self._by_name.values())


@dataclass(frozen=True)
class Grant:
    """What a profile grants its agents to read and load."""

    pages: tuple[DocEntry, ...]
    key_rule: Callable[[str], str]
    document_module: ModuleDocumenter
    skills: SkillShelf | None = None

    def open(self) -> Surface:
        """The surface a new instance starts with: the granted documentation, nothing loaded."""
        return Surface(DocIndex(self.pages), LoadedModules(self.key_rule), self.document_module, self.skills)


@dataclass
class Surface:
    """Built open (`Grant.open`, `gg.sdk.docs.surface.build_surface`); its grant is what its
    documentation held and its skills shelf when it was built."""

    docs: DocIndex
    modules: LoadedModules
    document_module: ModuleDocumenter
    skills: SkillShelf | None = None
    grant: Grant = field(init=False)

    def __post_init__(self) -> None:
        self.grant = Grant(tuple(self.docs), self.modules.key_rule, self.document_module, self.skills)

    def load_module(self, name: str, source: str, extension: str, description: str) -> CodeModule:
        """Load a code module for the agent; its exports join the documentation the first time."""
        module, fresh = self.modules.load(name, source, extension)
        if fresh:
            self.docs.add(self.document_module(module, description))
        return module

    def fresh(self) -> Surface:
        """What a copy of this agent starts with: its grant again, nothing loaded."""
        return self.grant.open()
