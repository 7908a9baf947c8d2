"""Serving a program's call of an MCP tool: judged, sent, answered, recorded.

Rules kept here:
- the arguments, judged by the membrane against their shapes, are judged against the tool's whole
  input schema (`gg.mcp.arguments`); a refusal is `invalid-argument` and nothing is sent;
- the call waits at most the profile's `timeoutSecs`, and never past what is left of the run's
  `maxRuntimeSecs` (the shell's rule, `gg.sdk.shell.command_timeout`); the wait is off the
  program's clock (the operation waits externally). Past it the call is `limit-exceeded`;
- the answer is `gg.mcp.results`'; a server's JSON-RPC refusal, and an answer outside the tool's
  output schema, are `other`; a server that cannot be reached or stops during the call is
  `io-error`, and a line on the operator's stream says it is opened again (started, or reached)
  for the next call;
- every answer (a refusal of the schema included) is recorded like a host function's
  (`hostAnswer`), and a successful answer of a tool with no output schema is the run's latest
  sighting of it (`gg.sdk.sighting`);
- a session replayed from a recording that holds the server answers each call from it, in order
  (`gg.sdk.host.answers.ReplayedAnswers`), and the server is neither started nor reached.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp import MCPError

from gg.deadline import within
from gg.errors import ErrorCode
from gg.mcp.arguments import ArgumentsCheck
from gg.mcp.connection import OPEN_TIMEOUT_SECS, Connection, Unreachable
from gg.mcp.results import answered
from gg.mcp.schema import ANY
from gg.mcp.tools import ServedTool
from gg.prompts import render
from gg.sdk.host.answers import HostAnswer, ReplayedAnswers
from gg.sdk.host.binding import HostServices, give
from gg.sdk.host.calling import FunctionLoop, Overdue
from gg.sdk.host.declaration import FunctionDeclaration
from gg.sdk.registry import Handler
from gg.sdk.scope import ProgramScope
from gg.sdk.shell import command_timeout
from gg.sdk.sighting import Sightings
from gg.wire import camel


@dataclass(frozen=True)
class ServerSeat:
    """What serves the calls of one server's module: its connection (None when the recording
    answers for it), the run's loop, the call timeout, and the run's services."""

    key: str
    module: str
    connection: Connection | None
    loop: FunctionLoop
    timeout_secs: float
    sightings: Sightings
    services: HostServices
    answers: ReplayedAnswers


def handler_of(seat: ServerSeat, tools: Mapping[str, ServedTool]) -> Callable[[FunctionDeclaration], Handler]:
    """How each function of the seat's module is served: sent to the server, or answered from the
    recording when the seat has no connection."""

    def handler(declaration: FunctionDeclaration) -> Handler:
        wire = f"{seat.module}.{declaration.name}"
        served = tools.get(declaration.name)
        if seat.connection is None or served is None:
            return _replayed(seat, declaration, wire)
        check = ArgumentsCheck(served.tool.input_schema, served.arguments, _names(served))
        return _live(seat, seat.connection, served, check, wire)

    return handler


def _live(
    seat: ServerSeat, connection: Connection, served: ServedTool, check: ArgumentsCheck, wire: str
) -> Handler:
    key = served.declaration.name

    def handle(scope: ProgramScope, values: Mapping[str, Any]) -> Any:
        sent = check.sent(values)
        refusal = check.refusal(sent, scope.spelling(key).argument)
        if refusal is not None:
            answer = HostAnswer(wire, values, error=(ErrorCode.INVALID_ARGUMENT, refusal))
        else:
            answer = _sent(seat, connection, served, wire, values, sent, scope)
        return _given(seat, served.declares_result, answer, key, scope)

    return handle


def _sent(
    seat: ServerSeat,
    connection: Connection,
    served: ServedTool,
    wire: str,
    values: Mapping[str, Any],
    sent: dict[str, Any],
    scope: ProgramScope,
) -> HostAnswer:
    """The answer of one call sent to the server (see the module rules)."""
    timeout = command_timeout(None, seat.timeout_secs, scope.deadline, time.monotonic())
    if timeout <= 0:
        return HostAnswer(wire, values, error=(ErrorCode.LIMIT_EXCEEDED, render("run-time-spent")))
    try:
        waited = within(timeout + OPEN_TIMEOUT_SECS, scope.time_left())  # a lost server reopens first
        result = seat.loop.run(connection.call(served.tool.name, sent, timeout), waited)
    except (TimeoutError, Overdue):
        text = render("mcp-call-timed-out", server=seat.key, seconds=f"{timeout:.3g}")
        return HostAnswer(wire, values, error=(ErrorCode.LIMIT_EXCEEDED, text))
    except Unreachable as lost:
        seat.services.report(scope.agent_id, scope.turn, _lost_line(seat, str(lost)), None)
        text = render("mcp-server-lost", server=seat.key, reason=str(lost))
        return HostAnswer(wire, values, error=(ErrorCode.IO_ERROR, text))
    except MCPError as refused:
        text = render("mcp-server-refused", server=seat.key, reason=refused.error.message)
        return HostAnswer(wire, values, error=(ErrorCode.OTHER, text))
    except RuntimeError as outside:
        return HostAnswer(
            wire, values, error=(ErrorCode.OTHER, render("mcp-result-outside", reason=str(outside)))
        )
    return answered(wire, values, result)


def _replayed(seat: ServerSeat, declaration: FunctionDeclaration, wire: str) -> Handler:
    key = declaration.name
    unknown = declaration.result == ANY

    def handle(scope: ProgramScope, values: Mapping[str, Any]) -> Any:
        answer = seat.answers.next(scope.agent_id, key, wire, values)
        return _given(seat, not unknown, answer, key, scope)

    return handle


def _given(seat: ServerSeat, declares_result: bool, answer: HostAnswer, key: str, scope: ProgramScope) -> Any:
    if answer.error is None and not declares_result:
        seat.sightings.saw(answer.operation, answer.value)
    return give(answer, key, scope, seat.services)


def _names(served: ServedTool) -> dict[str, str]:
    """The property the server reads → the parameter's snake_case name."""
    return {served.arguments[camel(p.name)]: p.name for p in served.declaration.params}


def _lost_line(seat: ServerSeat, reason: str) -> str:
    return f"MCP server `{seat.key}` is not answering ({reason}); gg opens it again for the next call"
