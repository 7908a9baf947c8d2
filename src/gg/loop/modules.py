"""What an agent's modules put in its window at each turn boundary and what they report, acted on
(seed 003, "What reaches the prompt", "Telemetry"). Each module decides its own text; the loop
places it:
- before an instance's first request, each first-turn block a module builds replaces the block of
  its band the window brought with it (a fork copy keeps its forker's block as it stood);
- before every request, each module's notice at the tail, once, then what each module rebuilds
  at every turn boundary (`refresh`: the task list), then what the modules report;
- at a compaction boundary, each band's block rebuilt (a band left with no block keeps none);
- across a succession, a block leaves the window with the store it described (a kind dropped or
  started fresh);
- after each program, what the modules report, on the agent's own stream.
Call names in every text are the agent's arm's (`spelling`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gg.config.kinds import Disposition
from gg.loop.setup import AgentSetup
from gg.loop.stream import AgentStream
from gg.providers.base import Message
from gg.sdk.surface import Surface
from gg.state.dispositions import Row
from gg.state.holdings import Holdings
from gg.state.module import Moment, Spelling
from gg.state.modules import ModuleSet
from gg.state.window import Band


def spelling(setup: AgentSetup) -> Spelling:
    """An operation key as the agent's arm spells it (`memories.read_memory` -> `gg.memories.readMemory`)."""
    return setup.registry.spelling(setup.language.id)


def open_turn(holdings: Holdings[Surface], setup: AgentSetup, stream: AgentStream, *, first: bool) -> None:
    """Before a request: the first turn's blocks, the notices, then what the modules report."""
    spell = spelling(setup)
    if first:
        rebuild_blocks(holdings, Moment.FIRST_TURN, spell)
    for module in holdings.modules.modules():
        text = module.notice(spell)
        if text is not None:
            holdings.window.push(Message(role="user", content=text))
    holdings.modules.refresh(holdings.window)
    report(stream, holdings.modules)


def rebuild_blocks(holdings: Holdings[Surface], moment: Moment, spell: Spelling) -> None:
    for band, text in blocks(holdings.modules, moment, spell).items():
        if text is not None or moment is Moment.COMPACTION:
            holdings.window.repin(band, text)


def release_blocks(holdings: Holdings[Surface], rows: Sequence[Row]) -> None:
    """Take out of a successor's window the block of every kind the succession dropped or
    started fresh."""
    gone = {row.kind for row in rows if row.disposition in (Disposition.DROPPED, Disposition.INITIALIZED)}
    for kind, cls in holdings.modules.classes.items():
        if kind in gone and cls.band is not None:
            holdings.window.repin(cls.band, None)


def blocks(modules: ModuleSet, moment: Moment, spell: Spelling) -> dict[Band, str | None]:
    """Per band a kind of the set pins in, the block to build at `moment`; None where it builds
    none, or does not hold the kind (a block standing there goes)."""
    built: dict[Band, str | None] = {}
    for kind, cls in modules.classes.items():
        module = modules.get(kind)
        if cls.band is not None:
            built[cls.band] = None if module is None else module.block(moment, spell)
    return built


def report(stream: AgentStream, modules: ModuleSet) -> None:
    """What the modules have to report since they last did, on the holder's stream."""
    for payload in modules.drain():
        stream.emit(payload)
