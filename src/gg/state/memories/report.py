"""What a memory holder reports: its snapshot (`memory_state`) and its own revisions
(`memory_revision`).

- `snapshot(holder)`: the store as this holder sees it, with the store's id, the holder's scope and
  access. A holder states it as it arrives (empty lists and the caps, for a fresh store).
- `drain(holder)`: the events the holder's stream owes since it last drained: each revision this
  holder made (one write, one event, on its author's stream), then a snapshot if the store moved at
  all — so a co-holder's write re-emits this holder's snapshot with no revision of its own. A
  drain that finds nothing says nothing.
"""

from __future__ import annotations

from gg.state.memories.holder import MemoryHolder
from gg.state.memories.memory import Revision
from gg.telemetry.events import Payload
from gg.telemetry.module_events import MemoryRevision, MemoryState


def snapshot(holder: MemoryHolder) -> MemoryState:
    store = holder.store
    with store.lock:
        memories = store.memories
        peak = store.peak
        return MemoryState(
            module_id=holder.module_id,
            strategy=store.strategy.value,
            memories=[
                {"name": m.name, "description": m.description, "len": m.length, "lines": m.lines}
                for m in memories
            ],
            count=len(memories),
            total_len=store.total_len,
            total_lines=store.total_lines,
            peak={"count": peak.count, "totalLen": peak.total_len, "totalLines": peak.total_lines},
            caps=store.caps.to_wire(),
            scope=holder.scope.value,
            writable=holder.writable,
        )


def revision_event(revision: Revision) -> MemoryRevision:
    return MemoryRevision(
        name=revision.name,
        revision=revision.revision,
        change=revision.change.value,
        description=revision.description,
        body=revision.body,
        len=revision.length,
        lines=revision.lines,
    )


def drain(holder: MemoryHolder) -> list[Payload]:
    taken = holder.take_revisions()
    events: list[Payload] = [revision_event(revision) for revision in taken.own]
    if taken.moved:
        events.append(snapshot(holder))
    return events
