"""A synthetic three-turn run (read, a failed edit, finish) emitted through `Telemetry`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gg.telemetry.agent_events import AgentSpawned
from gg.telemetry.emitter import Sink, Telemetry
from gg.telemetry.events import (
    ApiCall,
    ApiResult,
    CodeExecution,
    Log,
    ModelReply,
    ModelRequest,
    Receipt,
    RunFinished,
    RunStarted,
    TurnOutcomeEvent,
)

RUN_ID = "run-20261129-203233-ab12"
START = datetime(2026, 11, 29, 20, 32, 33, tzinfo=UTC)
SYSTEM_PROMPT = "You answer with programs.\nEvery turn, one program.\nUse the gg SDK."
READ_SOURCE = (
    'import { files } from "gg";\nconst spec = files.read_file("SPEC.md");\nconsole.log(spec.length);'
)
EDIT_SOURCE = 'import { files } from "gg";\nfiles.edit_file("SPEC.md", "x", "y");'
FINISH_SOURCE = 'import { session } from "gg";\nsession.finish("Audit done: 2 issues.");'
EDIT_ERROR = (
    "Runtime error\n----\n`edit_file` failed (conflict): `oldString` matched 3 times in SPEC.md\n"
    "    at program.js:2:7"
)
FINAL_TEXT = "Audit done: 2 issues."


class StepClock:
    """A clock that moves `step_ms` on every reading."""

    def __init__(self, start: datetime = START, step_ms: float = 250) -> None:
        self.now = start
        self.step = timedelta(milliseconds=step_ms)

    def __call__(self) -> datetime:
        moment = self.now
        self.now += self.step
        return moment


def program_call(call_id: str, source: str) -> dict[str, object]:
    return {"id": call_id, "name": "submit_program", "arguments": {"program": source}}


def echo(reply_text: str, call_id: str, source: str, receipt: str) -> list[dict[str, object]]:
    """What a request repeats of the previous reply: the assistant message and its receipt."""
    return [
        {"role": "assistant", "content": reply_text, "toolCalls": [program_call(call_id, source)]},
        {"role": "tool", "content": receipt, "toolCallId": call_id},
    ]


def spawn_tree(telemetry: Telemetry, *models: str) -> None:
    """Open the root and one subagent per further model, each answered by its model, in order."""
    root, *children = models
    telemetry.emit("root", 0, AgentSpawned(profile_id="auditor", model_id=root, depth=0))
    for number, model in enumerate(children, 1):
        spawned = AgentSpawned(profile_id="helper", model_id=model, depth=1, brief="help")
        telemetry.emit(f"root.{number}", 0, spawned, parent_agent_id="root")


def emit_sample_run(sinks: list[Sink], *, finish: bool = True) -> Telemetry:
    """Emit the sample run to `sinks`; without `finish`, stop after turn 2 (a killed run)."""
    telemetry = Telemetry(RUN_ID, sinks, clock=StepClock())
    telemetry.emit(
        "root",
        0,
        RunStarted(
            name="spec-audit",
            config_path="examples/spec-audit/gg.json",
            workspace="/tmp/ws",
            model="gpt-test",
            language="javascript",
            limits={"maxTurns": 10},
        ),
    )
    _turn_one(telemetry)
    _turn_two(telemetry)
    if finish:
        _turn_three(telemetry)
        telemetry.emit(
            "root",
            3,
            RunFinished(
                status="completed",
                exit_code=0,
                turns=3,
                duration_ms=4500.0,
                final_text=FINAL_TEXT,
            ),
        )
    return telemetry


def _turn_one(t: Telemetry) -> None:
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "Audit the spec."}]
    t.emit("root", 1, ModelRequest(messages=messages, request_index=0))
    t.emit(
        "root",
        1,
        ModelReply(
            text="Reading the spec first.",
            calls=[program_call("call_1", READ_SOURCE)],
            usage={"inputTokens": 1200, "outputTokens": 80},
            duration_ms=900.0,
        ),
    )
    t.emit(
        "root", 1, Receipt(call_id="call_1", tool="submit_program", body="program k3p9", program_id="k3p9")
    )
    t.emit("root", 1, ApiCall(operation="files.read_file", ordinal=0))
    t.emit("root", 1, ApiResult(operation="files.read_file", ordinal=0, ok=True))
    t.emit(
        "root",
        1,
        CodeExecution(
            submission=0,
            ok=True,
            tool_calls=1,
            api_calls=1,
            duration_ms=12.0,
            logs=["4096"],
            program_id="k3p9",
        ),
    )
    t.emit("root", 1, Log(level="info", message="program recorded", fields={"programId": "k3p9"}))
    t.emit("root", 1, TurnOutcomeEvent(outcome="progressed", consecutive_errors=0, turns=1))


def _turn_two(t: Telemetry) -> None:
    messages = [
        *echo("Reading the spec first.", "call_1", READ_SOURCE, "program k3p9"),
        {"role": "user", "content": "Logs\n----\n4096"},
    ]
    t.emit("root", 2, ModelRequest(messages=messages, request_index=1))
    t.emit(
        "root",
        2,
        ModelReply(
            text="Fixing the heading.",
            calls=[program_call("call_2", EDIT_SOURCE)],
            usage={"inputTokens": 1400, "outputTokens": 60},
            duration_ms=800.0,
        ),
    )
    t.emit(
        "root", 2, Receipt(call_id="call_2", tool="submit_program", body="program m2x8", program_id="m2x8")
    )
    _failed_edit(t)


def _failed_edit(t: Telemetry) -> None:
    t.emit("root", 2, ApiCall(operation="files.edit_file", ordinal=0))
    t.emit("root", 2, ApiResult(operation="files.edit_file", ordinal=0, ok=False, failure="conflict"))
    t.emit(
        "root",
        2,
        CodeExecution(
            submission=0,
            ok=False,
            tool_calls=1,
            api_calls=1,
            duration_ms=30.0,
            logs=[],
            program_id="m2x8",
            error=EDIT_ERROR,
            error_type="program_api_error",
        ),
    )
    t.emit("root", 2, Log(level="warn", message="guest was slow", fields={"ms": 900}))
    t.emit(
        "root",
        2,
        TurnOutcomeEvent(
            outcome="error",
            consecutive_errors=1,
            turns=2,
            error="program_fault",
            error_type="program_api_error",
            report="its last program threw",
            feedback=[EDIT_ERROR],
        ),
    )


def _turn_three(t: Telemetry) -> None:
    messages = [
        *echo("Fixing the heading.", "call_2", EDIT_SOURCE, "program m2x8"),
        {"role": "user", "content": EDIT_ERROR},
    ]
    t.emit("root", 3, ModelRequest(messages=messages, request_index=2))
    t.emit(
        "root",
        3,
        ModelReply(
            text="",
            calls=[program_call("call_3", FINISH_SOURCE)],
            usage={"inputTokens": 1500, "outputTokens": 40},
            duration_ms=700.0,
        ),
    )
    t.emit(
        "root", 3, Receipt(call_id="call_3", tool="submit_program", body="program q7w1", program_id="q7w1")
    )
    t.emit("root", 3, ApiCall(operation="session.finish", ordinal=0))
    t.emit("root", 3, ApiResult(operation="session.finish", ordinal=0, ok=True))
    t.emit(
        "root",
        3,
        CodeExecution(
            submission=0,
            ok=True,
            tool_calls=0,
            api_calls=1,
            duration_ms=5.0,
            logs=[],
            program_id="q7w1",
            finished=FINAL_TEXT,
        ),
    )
    t.emit("root", 3, TurnOutcomeEvent(outcome="finished", consecutive_errors=0, turns=3))
