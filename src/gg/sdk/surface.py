"""What one agent's programs can learn and load, kept for the agent's whole life.

- `docs`: the agent's documentation index (only what it may use); it grows as code modules load;
- `modules`: the code modules loaded for the agent, in load order, each under its own key;
- `skills`: the skills catalogue when the agent's profile enables `skills`, else None.

A module loaded by a program is reachable from the agent's next program on: an arm run is handed
`modules.current()` as it stands when the program starts. Loading the same name again hands back
the module already loaded, under its first key. The loop builds one `Surface` per agent
(`gg.sdk.docs.surface.build_surface`) and gives it to every `ProgramScope` of that agent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gg.sandbox.execution import CodeModule
from gg.sdk.docs.index import DocEntry, DocIndex
from gg.sdk.docs.modulekeys import camel_key, unique_key
from gg.sdk.skills import SkillShelf

ModuleDocumenter = Callable[[CodeModule, str], list[DocEntry]]  # (module, description) -> pages


class LoadedModules:
    """The code modules loaded for one agent, by the name they were loaded under."""

    def __init__(self, key_rule: Callable[[str], str] = camel_key) -> None:
        self._key_rule = key_rule
        self._by_name: dict[str, CodeModule] = {}

    def load(self, name: str, source: str, extension: str) -> tuple[CodeModule, bool]:
        """The module loaded under `name`, and whether this call loaded it."""
        if name in self._by_name:
            return self._by_name[name], False
        key = unique_key(name, self.keys(), self._key_rule)
        module = CodeModule(key, source, extension)
        self._by_name[name] = module
        return module, True

    def keys(self) -> list[str]:
        return [module.key for module in self._by_name.values()]

    def current(self) -> tuple[CodeModule, ...]:
        """What the next program is run with."""
        return tuple(self._by_name.values())


@dataclass
class Surface:
    docs: DocIndex
    modules: LoadedModules
    document_module: ModuleDocumenter
    skills: SkillShelf | None = None

    def load_module(self, name: str, source: str, extension: str, description: str) -> CodeModule:
        """Load a code module for the agent; its exports join the documentation the first time."""
        module, fresh = self.modules.load(name, source, extension)
        if fresh:
            self.docs.add(self.document_module(module, description))
        return module
