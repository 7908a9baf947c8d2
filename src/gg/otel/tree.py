"""The span tree of a run, folded from its events as they come. Pure: no clock, no I/O.

Rules:
- `feed(record)` takes the run's wire records in emit order and returns the spans that record
  closed; `finish()` closes whatever is still open, at the last event's time. A stored run's
  records fed and finished give exactly the spans its live sink gave, ids included.
- The run is an `invoke_workflow` span, the trace's root, from `run_started` to `run_finished`.
- Each agent instance is an `invoke_agent` span from its `agent_spawned` to its `agent_finished`
  (an exec's or a machine move's predecessor, to the hand-over; any other, to the run's end). The
  root's first incarnation hangs off the run; a subagent off the program span that was running on
  its spawner when it opened (else the spawner's latest program, else the spawner); a fork's copy
  and an exec's or machine's successor hang where the instance they came from hangs, linked to
  the program that asked for them (`gg.otel.marks`). An agent no `agent_spawned` opened (a run
  recorded before many agents) is opened by its first event, off the run.
- A span ends in error when what it stands for failed: a run or an agent that did not complete,
  a program with an error, an SDK call that failed, a request no reply answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gg.otel import attributes as attrs
from gg.otel import marks
from gg.otel.content import request_content
from gg.otel.names import Conventions, GenAi, GenAiOperation, Gg
from gg.otel.opened import OpenedAgent, OpenSpan
from gg.otel.record import WireRecord
from gg.otel.spans import Kind, Span, SpanLink, StatusCode, nanos_of, span_id_of, trace_id_of
from gg.otel.steps import Steps

COMPLETED = "completed"
HANDED_OVER = "handed over"
STOPPED = "stopped"
RUN_KEY = "run"
ROOT_RELATION = "root"
SUBAGENT_RELATION = "subagent"


@dataclass(frozen=True)
class Made:
    """A hand-over on its way: the instance it came from, where that one hangs, the program
    span that asked for it, and the `agent_transition` record."""

    origin: str
    parent_id: str | None
    target: str
    transition: WireRecord


def fold_spans(
    run_id: str,
    records: Iterable[WireRecord],
    *,
    content: bool = False,
    conventions: Conventions | None = None,
) -> list[Span]:
    """Every span of a run whose records are all there (a stored run)."""
    tree = SpanTree(run_id, content=content, conventions=conventions)
    spans = [span for record in records for span in tree.feed(record)]
    return spans + tree.finish()


class SpanTree:
    """One run's spans, built event by event (see the module rules)."""

    def __init__(self, run_id: str, *, content: bool = False, conventions: Conventions | None = None) -> None:
        self.run_id = run_id
        self.trace_id = trace_id_of(run_id)
        self.content = content
        self.conventions = conventions or Conventions()
        self.agents: dict[str, OpenedAgent] = {}
        self.closed: list[Span] = []
        self._run: OpenSpan | None = None
        self._started: WireRecord = {}
        self._made: dict[str, Made] = {}  # the new instance's id -> its hand-over
        self._replies: list[WireRecord] = []
        self._last_ns = 0
        self._steps = Steps(self)

    def feed(self, record: WireRecord) -> list[Span]:
        """The spans `record` closed."""
        at = nanos_of(record.get("timestamp")) or self._last_ns
        self._last_ns = max(self._last_ns, at)
        kind = str(record.get("type") or "")
        if self._run is None:
            self._open_run(record if kind == "run_started" else {}, at)
        if kind in _RUN_LEVEL:
            _RUN_LEVEL[kind](self, record, at)
        else:
            self._on_agent_record(kind, record, at)
        return self.drain()

    def finish(self) -> list[Span]:
        """Close everything still open, at the last event's time."""
        self._close_everything(self._last_ns, None)
        return self.drain()

    def drain(self) -> list[Span]:
        out, self.closed = self.closed, []
        return out

    def span_id(self, key: str) -> str:
        return span_id_of(self.run_id, key)

    def close(
        self, span: OpenSpan, at: int, status: StatusCode = StatusCode.UNSET, why: str | None = None
    ) -> None:
        self.closed.append(span.closed(self.trace_id, at, status, why))

    # -- the run -------------------------------------------------------------------------------

    def _open_run(self, started: WireRecord, at: int) -> None:
        self._started = started
        name = f"{GenAiOperation.WORKFLOW.value} {started.get('name') or 'gg'}"
        self._run = OpenSpan(
            self.span_id(RUN_KEY),
            name,
            Kind.INTERNAL,
            None,
            at,
            attrs.workflow_attributes(self.run_id, started),
        )

    def _on_run_started(self, record: WireRecord, at: int) -> None:
        pass  # the run's span was opened from it before any other record

    def _on_run_finished(self, record: WireRecord, at: int) -> None:
        self._close_everything(at, record)

    def _close_everything(self, at: int, finished: WireRecord | None) -> None:
        for instance in list(self.agents.values()):
            self._close_instance(instance, at, {"status": STOPPED})
        self.agents.clear()
        if self._run is None:
            return
        run, self._run = self._run, None
        run.attributes.update(attrs.spent_attributes(self._replies))
        if finished is None:
            self.close(run, at)
            return
        run.attributes.update(attrs.ending_attributes(finished))
        self._close_judged(run, at, str(finished.get("status") or ""))

    def _close_judged(self, span: OpenSpan, at: int, status: str) -> None:
        if status == COMPLETED:
            self.close(span, at, StatusCode.OK)
            return
        span.attributes[GenAi.ERROR_TYPE] = status or "unknown"
        self.close(span, at, StatusCode.ERROR, status or None)

    # -- agents --------------------------------------------------------------------------------

    def _on_agent_record(self, kind: str, record: WireRecord, at: int) -> None:
        agent_id = str(record.get("agentId") or ROOT_RELATION)
        if kind == "agent_spawned" and agent_id not in self.agents:
            self._open_instance(record, at)
            return
        instance = self.agents.get(agent_id) or self._open_instance({"agentId": agent_id}, at)
        handler = _AGENT_LEVEL.get(kind)
        if handler is not None:
            handler(self, instance, record, at)
        else:
            self._steps.on(kind, instance, record, at)

    def _open_instance(self, spawned: WireRecord, at: int) -> OpenedAgent:
        agent_id = str(spawned.get("agentId") or ROOT_RELATION)
        relation, parent_id = self._placement(agent_id, spawned)
        if "modelId" not in spawned:
            spawned = {**spawned, "modelId": self._started.get("model") or ""}
        attributes = attrs.agent_attributes(self.run_id, spawned, relation, self.conventions)
        if self.content and isinstance(spawned.get("brief"), str):
            attributes[Gg.AGENT_BRIEF] = spawned["brief"]
        name = f"{GenAiOperation.AGENT.value} {spawned.get('profileId') or agent_id}"
        span = OpenSpan(self.span_id(f"agent:{agent_id}"), name, Kind.INTERNAL, parent_id, at, attributes)
        self._link_origin(agent_id, span)
        arm = spawned.get("language") if isinstance(spawned.get("language"), str) else None
        instance = OpenedAgent(
            agent_id, span, str(spawned.get("modelId") or ""), arm or self._root_arm(agent_id)
        )
        instance.boundary_ns = at
        self.agents[agent_id] = instance
        return instance

    def _placement(self, agent_id: str, spawned: WireRecord) -> tuple[str, str | None]:
        """(how the instance came to be, the span it hangs off)."""
        run_span = self.span_id(RUN_KEY)
        made = self._made.get(agent_id)
        if made is not None:
            return str(made.transition.get("kind") or ""), made.parent_id or run_span
        spawner = self.agents.get(str(spawned.get("parentAgentId") or ""))
        if spawner is not None:
            return SUBAGENT_RELATION, spawner.anchor()
        return ROOT_RELATION, run_span

    def _link_origin(self, agent_id: str, span: OpenSpan) -> None:
        made = self._made.pop(agent_id, None)
        if made is None:
            return
        span.links.append(SpanLink(self.trace_id, made.target, marks.transfer_attributes(made.transition)))
        span.attributes[Gg.ORIGIN_AGENT] = made.origin
        span.attributes[Gg.ORIGIN_SPAN] = made.target

    def _root_arm(self, agent_id: str) -> str | None:
        """The run's arm, for the root lineage of a run that did not record each agent's."""
        language = self._started.get("language")
        return language if isinstance(language, str) and agent_id.split("@")[0] == ROOT_RELATION else None

    def _on_transition(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        to_agent = str(record.get("toAgentId") or "")
        self._made[to_agent] = Made(instance.agent_id, instance.span.parent_id, instance.anchor(), record)
        if record.get("kind") != "fork":
            instance.span.attributes[Gg.AGENT_STATUS] = HANDED_OVER
            self._close_instance(instance, at, None)
            self.agents.pop(instance.agent_id, None)

    def _on_finished(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        self._close_instance(instance, at, record)
        self.agents.pop(instance.agent_id, None)

    def _close_instance(self, instance: OpenedAgent, at: int, finished: WireRecord | None) -> None:
        self._steps.close_open(instance, at)
        span = instance.span
        span.attributes.update(attrs.spent_attributes(instance.replies))
        if finished is None:
            self.close(span, at, StatusCode.OK)
            return
        status = str(finished.get("status") or "")
        span.attributes[Gg.AGENT_STATUS] = status
        if self.content and isinstance(finished.get("summary"), str):
            span.attributes[Gg.AGENT_SUMMARY] = finished["summary"]
        self._close_judged(span, at, status)

    def _on_fsm_state(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        if isinstance(record.get("state"), str):
            instance.span.attributes[Gg.AGENT_STATE] = record["state"]

    def _on_request(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        self._steps.open_chat(instance, record, at)
        if self.content and instance.chat is not None:
            instance.chat.attributes.update(request_content(record))

    def _on_reply(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        self._replies.append(record)
        self._steps.close_chat(instance, record, at)


_RUN_LEVEL: dict[str, Callable[[SpanTree, WireRecord, int], None]] = {
    "run_started": SpanTree._on_run_started,  # pyright: ignore[reportPrivateUsage]
    "run_finished": SpanTree._on_run_finished,  # pyright: ignore[reportPrivateUsage]
}
_AGENT_LEVEL: dict[str, Callable[[SpanTree, OpenedAgent, WireRecord, int], None]] = {
    "agent_transition": SpanTree._on_transition,  # pyright: ignore[reportPrivateUsage]
    "agent_finished": SpanTree._on_finished,  # pyright: ignore[reportPrivateUsage]
    "fsm_state": SpanTree._on_fsm_state,  # pyright: ignore[reportPrivateUsage]
    "model_request": SpanTree._on_request,  # pyright: ignore[reportPrivateUsage]
    "model_reply": SpanTree._on_reply,  # pyright: ignore[reportPrivateUsage]
}
