"""What memories put in their holder's prompt, every sentence rendered from `prompts/templates/`.

- The pinned block (`pinned_block`): every body under `scratchpad`, the index under `markdown`,
  nothing under `keyword-search` or for an empty store.
- Its schedule (`block_at`): rebuilt at a compaction boundary, and built once at the first turn of
  a holder that bound a store somebody else filled (an inheritor, a `shared` profile's later
  instance, a successor); between those moments it is left as it stands, so a write since shows
  in the thread, not the block, and the index can lag.
- The notice (`notice_text`): co-holders' writes since the holder was last told, at the tail of
  its window, once; `None` when there are none.
- The strategy mismatch reason a successor's opening note carries (`mismatch_reason`), and the
  system prompt's section on the holder's memories (`guide`).
A text that names a call names it as the holder's arm spells it (`gg.memories.readMemory`,
`gg.memories.read_memory`), never by its key: `call_names(spell)`, handed in as `names`. It names
only a call the holder is offered (`named_calls`): one of its strategy's (a read-only holder's reads
alone) that its profile's ablation (`disabledOperations`) does not withhold, which `names` leaves out.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING

from gg import prompts
from gg.config.kinds import Origin
from gg.config.memories.profile import Scope
from gg.config.memories.strategy import Call, Pinned, Strategy
from gg.state.memories.checks import MAX_SLUG_CHARS
from gg.state.memories.holder import MemoryHolder
from gg.state.memories.notices import notice_entries
from gg.state.module import withholds

if TYPE_CHECKING:
    from gg.state.module import Spelling

CallNames = Mapping[Call, str]
"""Each call as the holder's arm spells it (`gg.memories.readMemory`, `gg.memories.read_memory`),
those its profile withholds left out."""


def call_names(spell: Spelling) -> CallNames:
    """Each call as the holder's arm (`spell`) spells its operation key, but those the holder's
    profile withholds."""
    return {call: spell(call.key) for call in Call if not withholds(spell, call.key)}


def named_calls(holder: MemoryHolder, names: CallNames) -> list[Call]:
    """The calls `holder` is offered and a sentence may name: its own (`MemoryHolder.offered`)
    that `names` holds."""
    return [call for call in holder.offered if call in names]


class BlockMoment(StrEnum):
    FIRST_TURN = "first-turn"
    COMPACTION = "compaction"


_FILLED_BY_ANOTHER = frozenset({Origin.INHERITED, Origin.PROFILE, Origin.TRANSFERRED})


def pinned_block(holder: MemoryHolder) -> str | None:
    """The block as the store stands now, or None when the strategy pins nothing or it is empty."""
    store = holder.store
    memories = store.memories
    if not memories or store.strategy.pins is Pinned.NOTHING:
        return None
    if store.strategy.pins is Pinned.BODIES:
        return prompts.render("memories-pad", memories=memories)
    return prompts.render("memories-index", index=store.index(), count=len(memories))


def block_at(holder: MemoryHolder, moment: BlockMoment) -> str | None:
    """The block to (re)build at `moment`, or None when none is built then."""
    if moment is BlockMoment.FIRST_TURN and holder.origin not in _FILLED_BY_ANOTHER:
        return None
    return pinned_block(holder)


def notice_text(holder: MemoryHolder, names: CallNames) -> str | None:
    """Advances the holder's notice watermark; the notice for what co-holders did, if anything."""
    entries = notice_entries(holder.take_news(), holder.strategy)
    if not entries:
        return None
    read = names[Call.READ] if Call.READ in named_calls(holder, names) else ""
    return prompts.render("memories-notice", entries=entries, read_call=read)


def mismatch_reason(held: Strategy, receiving: Strategy) -> str:
    return prompts.render("memories-mismatch", held=held.value, receiving=receiving.value)


def guide(holder: MemoryHolder, names: CallNames) -> str:
    """The system prompt's section on this holder's memories; a call `names` leaves out is neither
    listed among its calls nor named as the way to read or find them."""
    calls = named_calls(holder, names)
    return prompts.render(
        "memories-guide",
        strategy=holder.strategy.value,
        pins=holder.strategy.pins.value,
        calls=[names[call] for call in calls],
        read_call=names[Call.READ] if Call.READ in calls else None,
        search_call=names[Call.SEARCH] if Call.SEARCH in calls else None,
        caps=holder.store.caps,
        slug_chars=MAX_SLUG_CHARS,
        writable=holder.writable,
        linked=holder.scope is not Scope.ISOLATED or holder.origin is Origin.INHERITED,
    )
