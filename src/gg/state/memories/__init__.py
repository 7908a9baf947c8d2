"""The `memories` module (seed 003): model-curated notes in a store gg keeps, never on disk.

The parts, one concept each: `memory` and `log` (a memory, a revision, the author-tagged log),
`checks` (what a mutation must pass), `store`, `search`, `scopes` (which store a holder binds),
`holder` (a holder, its origin and its two watermarks), `notices`, `prompt` (block, notice,
reasons, guide, the calls as the arm spells them), `report` (telemetry payloads), `transfer`
(fork, adopt). The strategy, the six caps, the scope and the profile's settings are the
capability set's (`gg.config.memories`).

The interface a module framework calls; only `open_holder`, `fork` and `adopt` bind or release:
- `open_holder(profile, agent_id, ids, registry, spawner=None) -> MemoryHolder` — a new instance's
  holder, bound by its `scope` (`decide_binding`, pure); `ids` is the run's `StoreIds`, `registry`
  the run's `ProfileStores`, `spawner` the spawner's holder (None for the root and for agents gg
  dispatches itself). Its roster row reads `module_id`, `origin`, `scope` and `writable`.
- `fork(holder, agent_id, ids) -> Forked(holder, linked)` — the copy's holder: linked (disposition
  `linked`, same id) when the forker's scope is not `isolated`, else copied (`copied`, new id);
  re-stamped with the copy's agent id.
- `adopt(holder, receiving, agent_id, registry, ids, sole=None) -> Carried(holder) | Dropped |
  Incompatible(reason)` — a successor's take-over (drain the predecessor first; it is released);
  `Incompatible` means: open a fresh holder (`open_holder`, no spawner) and put `reason` in the
  opening note. `Carried.holder.module_id` differs from the predecessor's only for a `shared`
  successor re-bound to its own profile's store. The receiving caps are put in force only when the
  successor is the store's sole holder: `sole`, or, left out, no other holder registered with the
  store — so `release()` a holder whose agent has ended.
- `snapshot(holder)` (arrival, and after each drain that moved) and `drain(holder)` (after each
  program, and before a holder is dropped): `memory_state` / `memory_revision` payloads for the
  holder's own stream.
- `block_at(holder, BlockMoment.FIRST_TURN | COMPACTION)`: the pinned block to build then, if any;
  `notice_text(holder, names)`: the tail notice, once; `guide(holder, names)`: the system prompt's
  section; `names` spells each `Call` for the agent's arm (`call_names(spell)`, `spell` the
  arm's `gg.state.module.Spelling`, which leaves out the calls the profile's ablation withholds).
- `holder.offered`: the calls the holder may make (its strategy's; the reads alone when read-only);
  `named_calls(holder, names)`: those of them a sentence may name (none its profile withholds).
- A store's `MemoryRefusal` is worded when it is read: `refusal.said(spell)`, `spell` the arm's
  `gg.state.module.ArmNames` (its calls and arguments).
"""

from gg.state.memories.checks import MAX_CODE_CHARS, MAX_SLUG_CHARS, MemoryRefusal
from gg.state.memories.holder import MemoryHolder
from gg.state.memories.memory import Change, Memory, Revision
from gg.state.memories.prompt import (
    BlockMoment,
    CallNames,
    block_at,
    call_names,
    guide,
    mismatch_reason,
    named_calls,
    notice_text,
    pinned_block,
)
from gg.state.memories.report import drain, snapshot
from gg.state.memories.scopes import (
    KIND,
    BindingDecision,
    ProfileStores,
    ScopeSource,
    decide_binding,
    open_holder,
)
from gg.state.memories.store import Draft, MemoryStore
from gg.state.memories.transfer import Adoption, Carried, Dropped, Forked, Incompatible, adopt, fork

__all__ = [
    "KIND",
    "MAX_CODE_CHARS",
    "MAX_SLUG_CHARS",
    "Adoption",
    "BindingDecision",
    "BlockMoment",
    "CallNames",
    "Carried",
    "Change",
    "Draft",
    "Dropped",
    "Forked",
    "Incompatible",
    "Memory",
    "MemoryHolder",
    "MemoryRefusal",
    "MemoryStore",
    "ProfileStores",
    "Revision",
    "ScopeSource",
    "adopt",
    "block_at",
    "call_names",
    "decide_binding",
    "drain",
    "fork",
    "guide",
    "mismatch_reason",
    "named_calls",
    "notice_text",
    "open_holder",
    "pinned_block",
    "snapshot",
]
