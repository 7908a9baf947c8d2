"""What a span notes besides its own attributes: the link a hand-over leaves, and the span events
for module writes, ceilings and compactions. Pure.

Rules:
- A fork, an exec or a machine's move links the new instance's span to the program span that
  asked for it; the link carries the transition's kind, what it did to each module kind
  (`gg.transfer.<kind>` = its disposition) and to the program library (`gg.transfer.library.*`).
- A module write is a `gg.module.write` event on the writing agent's span: each memory revision
  (its name, revision and change; its body only with content), and each snapshot a task list,
  board, archive or skills module records after the agent's opening (its kind, store and size).
- A ceiling breached is a `gg.ceiling` event (limit, threshold, observed); a compaction is a
  `gg.compaction` event (messages before and after).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.otel.names import Gg, SpanEventName, transfer_key
from gg.otel.record import dict_of, float_of, int_of, list_of
from gg.otel.spans import Attributes, SpanEvent

# snapshot event type -> (module kind, the list whose length is its size)
SNAPSHOTS: dict[str, tuple[str, str]] = {
    "tasks_state": ("tasks", "tasks"),
    "board_state": ("board", "issues"),
    "archive_state": ("archive", "entries"),
    "skills_state": ("skills", "skills"),
}
MEMORY_REVISION = "memory_revision"


def transfer_attributes(transition: Mapping[str, Any]) -> Attributes:
    """A hand-over's link attributes: its kind and what it did to each kind and the library."""
    out: Attributes = {Gg.TRANSITION: str(transition.get("kind") or "")}
    if isinstance(state := transition.get("state"), str):
        out[Gg.TRANSITION_STATE] = state
    for row in list_of(transition.get("modules")):
        module = dict_of(row)
        if isinstance(module.get("kind"), str) and isinstance(module.get("disposition"), str):
            out[transfer_key(module["kind"])] = module["disposition"]
    library = dict_of(transition.get("library"))
    if isinstance(library.get("disposition"), str):
        out[Gg.LIBRARY_DISPOSITION] = library["disposition"]
        out[Gg.LIBRARY_HELD] = int_of(library.get("held"))
        out[Gg.LIBRARY_DROPPED] = int_of(library.get("dropped"))
    return out


def module_write(record: Mapping[str, Any], at_ns: int, content: bool) -> SpanEvent | None:
    """The `gg.module.write` event a record makes, if it records a write."""
    kind = record.get("type")
    if kind == MEMORY_REVISION:
        attributes: Attributes = {
            Gg.MODULE_KIND: "memories",
            Gg.MEMORY_NAME: str(record.get("name") or ""),
            Gg.MEMORY_REVISION: int_of(record.get("revision")),
            Gg.MEMORY_CHANGE: str(record.get("change") or ""),
        }
        if content and isinstance(record.get("body"), str):
            attributes[Gg.MEMORY_BODY] = record["body"]
        return SpanEvent(SpanEventName.MODULE_WRITE, at_ns, attributes)
    if not isinstance(kind, str) or kind not in SNAPSHOTS or int_of(record.get("turn")) == 0:
        return None
    module_kind, items = SNAPSHOTS[kind]
    attributes = {
        Gg.MODULE_KIND: module_kind,
        Gg.MODULE_ID: str(record.get("moduleId") or ""),
        Gg.MODULE_SIZE: len(list_of(record.get(items))),
    }
    return SpanEvent(SpanEventName.MODULE_WRITE, at_ns, attributes)


def ceiling(record: Mapping[str, Any], at_ns: int) -> SpanEvent:
    attributes: Attributes = {
        Gg.CEILING: str(record.get("limit") or ""),
        Gg.CEILING_THRESHOLD: float_of(record.get("threshold")) or 0.0,
        Gg.CEILING_OBSERVED: float_of(record.get("observed")) or 0.0,
    }
    return SpanEvent(SpanEventName.CEILING, at_ns, attributes)


def compaction(record: Mapping[str, Any], at_ns: int) -> SpanEvent:
    attributes: Attributes = {
        Gg.MESSAGES_BEFORE: int_of(record.get("messagesBefore")),
        Gg.MESSAGES_AFTER: int_of(record.get("messagesAfter")),
    }
    return SpanEvent(SpanEventName.COMPACTION, at_ns, attributes)
