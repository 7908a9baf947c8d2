"""An agent's turns as spans: its model requests, its programs and their SDK calls, and the marks
its record leaves on its span. Pure; `gg.otel.tree` hands each agent's records here.

Rules:
- A model request is a `chat {model}` span (CLIENT) from `model_request` to `model_reply`; one no
  reply answered ends in error when its turn ends (`error.type` the turn's error type).
- A turn's programs are numbered in the order they run; program k is an `execute_tool
  submit_program` span from the end of the step before it (the turn's last receipt, or program
  k-1) to its `code_execution`, and answers the turn's k-th submission receipt (a receipt holding
  a program id, or `ok`).
- An SDK call is an `execute_tool {operation}` span under the program running it, from its
  `api_call` to the `api_result` of the same ordinal; a call or program left open when its agent
  closes ends with it, unjudged.
"""

from __future__ import annotations

from typing import Protocol

from gg.otel import attributes as attrs
from gg.otel import marks
from gg.otel.content import program_content, reply_content
from gg.otel.names import SUBMIT_PROGRAM, Conventions, GenAi, GenAiOperation, Gg, ToolType
from gg.otel.opened import OpenedAgent, OpenSpan
from gg.otel.record import WireRecord, float_of
from gg.otel.spans import Attributes, Kind, StatusCode

RECEIPT_OK = "ok"
NO_REPLY = "model_error"


class Tree(Protocol):
    """What the steps read and call on the run's span tree (`gg.otel.tree.SpanTree`)."""

    @property
    def run_id(self) -> str: ...

    @property
    def content(self) -> bool: ...

    @property
    def conventions(self) -> Conventions: ...

    def span_id(self, key: str) -> str: ...

    def close(
        self, span: OpenSpan, at: int, status: StatusCode = StatusCode.UNSET, why: str | None = None
    ) -> None: ...


class Steps:
    """The turn-level half of a `SpanTree`."""

    def __init__(self, tree: Tree) -> None:
        self._tree = tree

    def on(self, kind: str, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        match kind:
            case "receipt":
                self._on_receipt(instance, record, at)
            case "api_call":
                self._on_call(instance, record, at)
            case "api_result":
                self._on_result(instance, record, at)
            case "code_execution":
                self._on_execution(instance, record, at)
            case "turn_outcome":
                self._on_outcome(instance, record, at)
            case "limit_exceeded":
                instance.span.events.append(marks.ceiling(record, at))
            case "compaction":
                instance.span.events.append(marks.compaction(record, at))
            case _:
                if (write := marks.module_write(record, at, self._tree.content)) is not None:
                    instance.span.events.append(write)

    def open_chat(self, instance: OpenedAgent, request: WireRecord, at: int) -> None:
        self._end_unanswered(instance, at, NO_REPLY)
        instance.requests += 1
        instance.turn = int(request.get("turn") or 0)
        instance.programs_in_turn = 0
        instance.receipts = []
        _, model = attrs.model_parts(instance.model_id)
        tree = self._tree
        instance.chat = OpenSpan(
            tree.span_id(f"chat:{instance.agent_id}:{instance.requests}"),
            f"{GenAiOperation.CHAT.value} {model}",
            Kind.CLIENT,
            instance.span.span_id,
            at,
            attrs.chat_attributes(
                tree.run_id, instance.agent_id, instance.model_id, request, tree.conventions
            ),
        )

    def close_chat(self, instance: OpenedAgent, reply: WireRecord, at: int) -> None:
        instance.replies.append(reply)
        chat = instance.chat
        if chat is None:  # a reply with no request on the record: it took what it says it took
            self.open_chat(instance, reply, at - int((float_of(reply.get("durationMs")) or 0) * 1e6))
            chat = instance.chat
            assert chat is not None
        chat.attributes.update(attrs.reply_attributes(reply))
        if self._tree.content:
            chat.attributes.update(reply_content(reply, attrs.finish_reason(reply)))
        instance.chat = None
        instance.boundary_ns = at
        self._tree.close(chat, at)

    def close_open(self, instance: OpenedAgent, at: int) -> None:
        """Close what an instance still has open when it closes."""
        for _, call in instance.calls:
            self._tree.close(call, at)
        instance.calls = []
        if instance.program is not None:
            self._tree.close(instance.program, at)
            instance.program = None
        if instance.chat is not None:
            self._tree.close(instance.chat, at)
            instance.chat = None

    def _end_unanswered(self, instance: OpenedAgent, at: int, why: str) -> None:
        if instance.chat is None:
            return
        instance.chat.attributes[GenAi.ERROR_TYPE] = why
        self._tree.close(instance.chat, at, StatusCode.ERROR, why)
        instance.chat = None

    def _on_receipt(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        instance.boundary_ns = at
        if record.get("tool") == SUBMIT_PROGRAM and (
            record.get("programId") or record.get("body") == RECEIPT_OK
        ):
            instance.receipts.append(record)

    def _program(self, instance: OpenedAgent, at: int) -> OpenSpan:
        """The program running on `instance`, opened at the end of the step before it if new."""
        if instance.program is not None:
            return instance.program
        instance.programs_in_turn += 1
        key = f"program:{instance.agent_id}:{instance.turn}:{instance.programs_in_turn}"
        opening: Attributes = {
            GenAi.OPERATION: GenAiOperation.TOOL.value,
            GenAi.TOOL_NAME: SUBMIT_PROGRAM,
            GenAi.TOOL_TYPE: ToolType.FUNCTION.value,
        }
        start = min(instance.boundary_ns or at, at)
        instance.program = OpenSpan(
            self._tree.span_id(key), f"{GenAiOperation.TOOL.value} {SUBMIT_PROGRAM}", Kind.INTERNAL,
            instance.span.span_id, start, dict(opening),
        )  # fmt: skip
        return instance.program

    def _on_call(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        program = self._program(instance, at)
        instance.call_count += 1
        key = f"call:{instance.agent_id}:{instance.call_count}"
        name = f"{GenAiOperation.TOOL.value} {record.get('operation') or '?'}"
        span = OpenSpan(
            self._tree.span_id(key), name, Kind.INTERNAL, program.span_id, at, attrs.call_attributes(record)
        )
        instance.calls.append((int(record.get("ordinal") or 0), span))

    def _on_result(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        span = instance.take_call(int(record.get("ordinal") or 0))
        if span is None:  # a result whose call is not on the record: an instant call
            self._on_call(instance, record, at)
            span = instance.calls.pop()[1]
        result = attrs.result_attributes(record)
        span.attributes.update(result)
        failed = result.get(Gg.OK) is False
        code = str(result.get(Gg.CODE)) if failed else None
        self._tree.close(span, at, StatusCode.ERROR if failed else StatusCode.UNSET, code)

    def _on_execution(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        program = self._program(instance, at)
        for _, call in instance.calls:
            self._tree.close(call, at)
        instance.calls = []
        position = instance.programs_in_turn - 1
        receipt = instance.receipts[position] if position < len(instance.receipts) else None
        program.attributes.update(attrs.program_attributes(record, receipt, instance.arm))
        if self._tree.content:
            program.attributes.update(program_content(record, str(receipt.get("body")) if receipt else None))
        instance.program = None
        instance.last_program = program.span_id
        instance.boundary_ns = at
        error = program.attributes.get(GenAi.ERROR_TYPE)
        status = StatusCode.ERROR if error is not None else StatusCode.OK
        self._tree.close(program, at, status, str(error) if error is not None else None)

    def _on_outcome(self, instance: OpenedAgent, record: WireRecord, at: int) -> None:
        self._end_unanswered(instance, at, str(record.get("errorType") or NO_REPLY))
        instance.boundary_ns = at
