"""The `history` module (seed 003): the holder's window and the views it is filling. It is its
holder's prompt, so it reports no snapshot of its own (each request records what it sent).

- Every agent holds one; a fresh one is an empty window with its system-prompt slot empty, which
  the holder's loop fills (with its own system prompt, then its brief) before its first turn.
- Never shared: a fork copies the thread, the task and the views, the slot empty; a successor
  takes them over on the same terms (`Window.fork`, `Window.adopt`, `ViewSet.fork`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from gg.config.kinds import ModuleKind
from gg.state.module import Holder, Module
from gg.state.window.store import Window
from gg.state.window.views import ViewSet


@dataclass
class HistoryModule(Module):
    kind: ClassVar[ModuleKind] = ModuleKind.HISTORY
    window: Window = field(default_factory=lambda: Window(system=None))
    views: ViewSet = field(default_factory=ViewSet)

    @classmethod
    def fresh(cls, holder: Holder) -> HistoryModule:
        return cls()

    def copy(self) -> HistoryModule:
        return HistoryModule(self.window.fork(), self.views.fork())

    def adopt(self, holder: Holder) -> HistoryModule:
        return HistoryModule(self.window.adopt(), self.views.adopt())
