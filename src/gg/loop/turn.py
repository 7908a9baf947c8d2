"""One turn, walked top to bottom (seed 001, "Turn execution").

1. ask the model: the system prompt, the window (each module first puts its part in it: the
   task list's pinned block), the one tool `submit_program`; every message the turn pushes is
   marked with its number (the turn a thread archive moves out whole); while it waits for the
   reply the turn holds none of its arm's guests (`gg.agents.leases`); once it answers, report
   what the request cost its window, band by band (`context_breakdown`);
2. acknowledge: push the assistant message, then one receipt per call (a submission's receipt
   is the library id minted for it), before anything runs;
3. run each submission in order against the same live window, stopping only after an ending;
4. decide the turn's one outcome from what happened (a pure decider);
5. apply the turn's deferred declarations (a compaction rewrites the window, and the modules'
   pinned blocks are rebuilt at that boundary);
6. push what the model reads next turn: each view the turn opened, then the feedback.

A run that holds a fault (its record lost, another agent's defect) asks no model and runs no
program from then on: the turn is Fatal at its next step (`Run.halt_if_broken`).

What a turn produced reaches the model whatever the turn declared: a compacting turn's views and
feedback (its Runtime error included) follow the compacted window (task, summary, re-opened
files), never vanish under it.

The run's time holds a turn wherever it stands (`RunTimeSpent`): a model call that failed or
answered once the run's time was spent, and a program after which it is spent (unless its ending
survived), stop the turn there. A late reply is recorded and never run; nothing of the turn is
judged, so nothing is charged to the model; the agent stops at the runtime ceiling.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from gg.config.hooks import HookEvent
from gg.errors import FatalFault, GgDefect
from gg.loop.calls import CallClass, StrayCall, Submission, Unrunnable, classify
from gg.loop.compaction import apply_compaction
from gg.loop.hooks import AgentHooks
from gg.loop.modules import rebuild_blocks, spelling
from gg.loop.program import run_submission
from gg.loop.run import Run
from gg.loop.setup import AgentSetup
from gg.loop.spend import Spend
from gg.loop.stream import AgentStream
from gg.loop.verdict import ProgramRun, TurnFacts, decide_turn
from gg.outcome import Continue, TurnOutcome
from gg.providers.base import (
    Message,
    ModelClient,
    ModelError,
    Reply,
    Request,
    ToolCall,
    arguments_value,
)
from gg.providers.sent_messages import SentMessages
from gg.providers.tool_choice import ToolChoice, tool_choice_of
from gg.sdk.scope import DeferredDeclarations
from gg.state.library import ProgramLibrary
from gg.state.module import Moment
from gg.state.window import View, Window
from gg.state.window.breakdown import band_chars, breakdown
from gg.state.workspace import Workspace
from gg.telemetry.events import CompactionApplied, ModelReply, ModelRequest, Receipt, ReplyCall

if TYPE_CHECKING:
    from gg.loop.agent import Incarnation

RECEIPT_OK = "ok"


class RunTimeSpent(Exception):
    """The run's time ran out while the turn ran: the turn stops where it stands, unjudged."""


def take_turn(agent: Incarnation, run: Run, deferred: DeferredDeclarations | None = None) -> TurnOutcome:
    """One turn; the declarations its programs defer to the turn's close collect in `deferred`."""
    setup, held, stream = agent.setup, agent.holdings, agent.stream
    deferred = DeferredDeclarations() if deferred is None else deferred
    held.window.begin_turn(stream.turn)
    request = _request(setup, held.window)
    sent = band_chars(request.system, setup.tool, held.window)
    _record_request(
        stream, held.window, opening=agent.requests == 0, tool_choice=tool_choice_of(agent.client)
    )
    agent.requests += 1
    run.halt_if_broken()
    with run.guests(setup.language, agent.owner).stepped_aside():  # the model's reply is outside work
        reply = _ask_model(agent.client, request, stream, (run.spend, agent.spend), run)
    stream.emit(breakdown(sent, reply.usage.input_tokens))
    calls = _acknowledge(reply, held.window, held.library, stream)
    runs = _run_submissions(agent, run, calls, deferred)
    views = held.views.close_turn()
    verdict = decide_turn(_facts(setup, calls, runs, len(views)))
    for warning in verdict.warnings:
        stream.warn(warning)
    if isinstance(verdict.outcome, Continue):
        _apply_deferred(deferred, held.window, setup.workspace, stream, agent.hooks)
        if deferred.compaction is not None:
            rebuild_blocks(held, Moment.COMPACTION, spelling(setup))
        _push_next_reading(held.window, views, verdict.outcome.feedback)
    return verdict.outcome


def _request(setup: AgentSetup, window: Window) -> Request:
    return Request(
        system=_system_prompt(window),
        messages=SentMessages(window.messages),
        tool=setup.tool,
        max_output_tokens=setup.model.max_output_tokens,
        temperature=setup.model.temperature,
    )


def _system_prompt(window: Window) -> str:
    """The window's system prompt; an empty slot at a request is gg's own defect."""
    if window.system is None:
        raise GgDefect(FatalFault.HOST_FAULT, "the window's system-prompt slot is empty at a request")
    return window.system


def _record_request(
    stream: AgentStream, window: Window, *, opening: bool, tool_choice: ToolChoice | None
) -> None:
    """What this request adds to the record: the messages since the last one, and on the
    agent's opening request its system prompt first; and the tool choice it is sent on."""
    recorded = [_wire_message(m) for m in window.take_unrecorded()]
    if opening:
        recorded.insert(0, {"role": "system", "content": window.system})
    choice = None if tool_choice is None else tool_choice.value
    stream.emit(ModelRequest(messages=recorded, request_index=stream.turn, tool_choice=choice))


def _ask_model(
    client: ModelClient, request: Request, stream: AgentStream, spends: tuple[Spend, ...], run: Run
) -> Reply:
    """The model's reply, its cost added to every spend in `spends` (the run's, the agent's)."""
    started = run.clock()
    try:
        reply = client.complete(request)
    except ModelError as failure:
        if failure.usage is not None:  # an answer gg cannot use is still paid for
            for spend in spends:
                spend.add(failure.usage, failure.cost_usd)
        if run.spent():
            raise RunTimeSpent from failure
        raise
    for spend in spends:
        spend.add(reply.usage, reply.cost_usd)
    stream.emit(
        ModelReply(
            text=reply.text,
            calls=[_wire_call(c) for c in reply.calls],
            usage=reply.usage.to_wire(),
            duration_ms=round((run.clock() - started) * 1000, 3),
            cost_usd=reply.cost_usd,
            response_model=reply.response_model,
        )
    )
    if run.spent():
        raise RunTimeSpent
    return reply


def _acknowledge(
    reply: Reply, window: Window, library: ProgramLibrary | None, stream: AgentStream
) -> list[CallClass]:
    """Every call gets its receipt before anything runs; a submission's is its minted id."""
    window.push(Message(role="assistant", content=reply.text, tool_calls=reply.calls))
    hints = reply.receipts_hint or ()
    calls: list[CallClass] = []
    for position, call in enumerate(reply.calls):
        classified = classify(call)
        if isinstance(classified, Submission) and library is not None:
            recorded = hints[position] if position < len(hints) else None
            classified = dataclasses.replace(classified, program_id=library.mint(recorded))
        body = _receipt(classified)
        window.push(Message(role="tool", content=body, tool_call_id=classified.call_id))
        tool = call.name if isinstance(classified, StrayCall) else "submit_program"
        program_id = classified.program_id if isinstance(classified, Submission) else None
        stream.emit(Receipt(call_id=classified.call_id, tool=tool, body=body, program_id=program_id))
        calls.append(classified)
    return calls


def _receipt(call: CallClass) -> str:
    match call:
        case Submission(program_id=program_id):
            return program_id or RECEIPT_OK
        case Unrunnable(reason=reason) | StrayCall(reason=reason):
            return reason


def _run_submissions(
    agent: Incarnation, run: Run, calls: list[CallClass], deferred: DeferredDeclarations
) -> list[ProgramRun]:
    runs: list[ProgramRun] = []
    for call in calls:
        if not isinstance(call, Submission):
            continue
        run.halt_if_broken()
        ran = run_submission(agent, run, call, len(runs), deferred)
        runs.append(ran)
        if ran.surviving_ending is not None:
            break
        if run.spent():
            raise RunTimeSpent
    return runs


def _facts(setup: AgentSetup, calls: list[CallClass], runs: list[ProgramRun], views_opened: int) -> TurnFacts:
    rerun = setup.registry.get("programs.rerun")
    return TurnFacts(
        calls=calls,
        runs=runs,
        views_opened=views_opened,
        print_call=setup.language.print_call,
        rerun_call=rerun.qualified(setup.language.id) if rerun else "",
    )


def _push_next_reading(window: Window, views: list[View], feedback: tuple[str, ...]) -> None:
    """What the model reads next turn: each view the turn opened (marked with what it shows, so
    it can be closed by name later), then gg's feedback."""
    for view in views:
        window.push_view(view)
    for message in feedback:
        window.push(Message(role="user", content=message))


def _apply_deferred(
    deferred: DeferredDeclarations,
    window: Window,
    workspace: Workspace,
    stream: AgentStream,
    hooks: AgentHooks | None,
) -> None:
    """The turn's compaction, between its `pre-compact` and `post-compact` hooks."""
    compaction = deferred.compaction
    if compaction is not None:
        fields = {"summary": compaction.summary, "files": list(compaction.files)}
        if hooks is not None:
            hooks.fire(HookEvent.PRE_COMPACT, fields)
        before, after = apply_compaction(window, compaction, workspace)
        if hooks is not None:
            hooks.fire(HookEvent.POST_COMPACT, fields)
        stream.emit(
            CompactionApplied(
                summary=compaction.summary,
                files=list(compaction.files),
                messages_before=before,
                messages_after=after,
            )
        )


def _wire_message(message: Message) -> dict[str, object]:
    wire: dict[str, object] = {"role": message.role, "content": message.content}
    if message.tool_call_id is not None:
        wire["toolCallId"] = message.tool_call_id
    if message.tool_calls:
        wire["toolCalls"] = [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.tool_calls
        ]
    return wire


def _wire_call(call: ToolCall) -> dict[str, object]:
    value = arguments_value(call.arguments)
    return ReplyCall(id=call.id, name=call.name, arguments=value, raw_arguments=call.raw_arguments).to_wire()
