"""One turn, walked top to bottom (seed 001, "Turn execution").

1. ask the model: the system prompt, the window, the one tool `submit_program`;
2. acknowledge: push the assistant message, then one receipt per call, before anything runs;
3. run each submission in order against the same live window, stopping only after an ending;
4. decide the turn's one outcome from what happened (a pure decider);
5. push what the model reads next turn: each view the turn opened, then the feedback.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from gg.loop.calls import CallClass, StrayCall, Submission, Unrunnable, classify
from gg.loop.program import run_program
from gg.loop.verdict import ProgramRun, TurnFacts, decide_turn
from gg.outcome import Continue, TurnOutcome
from gg.providers.base import Message, Reply, Request
from gg.telemetry.events import ModelReply, ModelRequest, Receipt

if TYPE_CHECKING:
    from gg.loop.agent import Agent

RECEIPT_OK = "ok"


def take_turn(agent: Agent) -> TurnOutcome:
    reply = _ask_model(agent)
    calls = _acknowledge(agent, reply)
    runs = _run_submissions(agent, calls)
    views = agent.views.close_turn()
    verdict = decide_turn(TurnFacts(calls=calls, runs=runs, views_opened=len(views)))
    for warning in verdict.warnings:
        agent.stream.warn(warning)
    if isinstance(verdict.outcome, Continue):
        for message in (*(view.render() for view in views), *verdict.outcome.feedback):
            agent.window.push(Message(role="user", content=message))
    return verdict.outcome


def _ask_model(agent: Agent) -> Reply:
    setup, window = agent.setup, agent.window
    fresh = window.take_unrecorded()
    recorded = [_wire_message(m) for m in fresh]
    if agent.ledger.turns == 0:
        recorded.insert(0, {"role": "system", "content": window.system})
    agent.stream.emit(
        ModelRequest(messages=recorded, tool_choice=agent.tool.name, request_index=agent.stream.turn)
    )
    request = Request(
        system=window.system,
        messages=tuple(window.messages),
        tool=agent.tool,
        max_output_tokens=setup.max_output_tokens,
        temperature=setup.temperature,
    )
    started = time.perf_counter()
    reply = agent.client.complete(request)
    agent.stream.emit(
        ModelReply(
            text=reply.text,
            calls=[{"id": c.id, "name": c.name, "arguments": c.arguments} for c in reply.calls],
            usage=_wire_usage(reply),
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
    )
    return reply


def _acknowledge(agent: Agent, reply: Reply) -> list[CallClass]:
    agent.window.push(Message(role="assistant", content=reply.text, tool_calls=reply.calls))
    calls = [classify(call) for call in reply.calls]
    for call in calls:
        body = _receipt(call)
        agent.window.push(Message(role="tool", content=body, tool_call_id=call.call_id))
        tool = "submit_program" if not isinstance(call, StrayCall) else call.name
        agent.stream.emit(Receipt(call_id=call.call_id, tool=tool, body=body))
    return calls


def _receipt(call: CallClass) -> str:
    match call:
        case Submission():
            return RECEIPT_OK
        case Unrunnable(reason=reason) | StrayCall(reason=reason):
            return reason


def _run_submissions(agent: Agent, calls: list[CallClass]) -> list[ProgramRun]:
    runs: list[ProgramRun] = []
    for call in calls:
        if not isinstance(call, Submission):
            continue
        run = run_program(agent, call, index=len(runs))
        runs.append(run)
        if run.surviving_ending is not None:
            break
    return runs


def _wire_message(message: Message) -> dict[str, object]:
    wire: dict[str, object] = {"role": message.role, "content": message.content}
    if message.tool_call_id is not None:
        wire["toolCallId"] = message.tool_call_id
    if message.tool_calls:
        wire["toolCalls"] = [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.tool_calls
        ]
    return wire


def _wire_usage(reply: Reply) -> dict[str, int]:
    usage = reply.usage
    return {
        "inputTokens": usage.input_tokens,
        "outputTokens": usage.output_tokens,
        "cacheReadTokens": usage.cache_read_tokens,
        "cacheWriteTokens": usage.cache_write_tokens,
    }
