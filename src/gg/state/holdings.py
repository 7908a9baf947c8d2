"""What one agent instance holds, and how it is copied and handed on (seeds 000 and 003).

The parts: the window (the `history` module), the views it is filling, the program library (None
for an agent that keeps none), the surface (its documentation and the code modules loaded for it)
and the skills read set. Each part has a copy rule (`fork`) and a succession rule (`adopt`); the
whole applies them part by part:

| part | fork (a copy of the agent) | adopt (a successor under its own profile) |
|---|---|---|
| window | the thread and task; system-prompt slot empty | the same |
| views | copied whole | the same |
| library | entries and issued ids cloned | truncated to the successor's `keep` (below) |
| surface | the grant again, nothing loaded | the successor's grant, nothing loaded |
| skills read set | copied | kept verbatim |

A successor that keeps no library keeps nothing; one whose predecessor kept none starts its own.
Loaded code is never carried: a new instance starts with nothing loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gg.state.library import Minter, ProgramLibrary
from gg.state.skills import SkillReads
from gg.state.views import ViewSet
from gg.state.window import Window

if TYPE_CHECKING:
    from gg.config.model import ProgramLibrary as LibrarySettings
    from gg.run.setup import AgentSetup
    from gg.sdk.surface import Surface


@dataclass
class Holdings:
    window: Window
    surface: Surface
    views: ViewSet = field(default_factory=ViewSet)
    library: ProgramLibrary | None = None
    skills_read: SkillReads = field(default_factory=SkillReads)

    def fork(self) -> Holdings:
        """An independent copy for a copy of the agent; the two diverge from here."""
        return Holdings(
            window=self.window.fork(),
            surface=self.surface.fresh(),
            views=self.views.fork(),
            library=None if self.library is None else self.library.fork(),
            skills_read=self.skills_read.fork(),
        )

    def adopt(self, setup: AgentSetup, minter: Minter) -> Holdings:
        """What a successor under `setup` holds once it takes these over; `minter` is the run's
        program-id minter, for a library the successor starts fresh."""
        return Holdings(
            window=self.window.adopt(),
            surface=setup.grant.open(),
            views=self.views.adopt(),
            library=adopt_library(self.library, setup.library, minter),
            skills_read=self.skills_read.adopt(),
        )


def adopt_library(
    carried: ProgramLibrary | None, settings: LibrarySettings | None, minter: Minter
) -> ProgramLibrary | None:
    """A successor resolves its library from its own profile, then adopts what was carried
    (entries and issued ids) truncated to its own `keep`; a successor that keeps none keeps
    nothing."""
    if settings is None:
        return None
    if carried is None:
        return ProgramLibrary(settings.keep, settings.id_length, minter)
    return carried.adopted_by(settings.keep, settings.id_length)
