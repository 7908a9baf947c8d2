"""Small hand-written event streams, in the wire shapes of `anchor-state.md` §5, for what a run
gg records cannot show, or cannot show at the moment a test needs.

Every run of many agents the console's tests read is recorded by gg itself (`tests/console/crew/`:
every module kind held for real, `crew_run` / `crew_records`; the injection run in
`test_browser_security`). What is left here, and why:
- what a recorded run cannot give: a run written turn by turn while the console is open
  (`test_browser_live`; a real run cannot be held between two turns for a browser to watch the
  second arrive), and a store written before gg reported rosters (`test_modules`);
- single rules of the module fold, each on the few records that state it, which a recorded run
  could hold but the crew run does not: an FSM move that drops a kind, a `shared` profile whose
  store a succession re-bound (`split`, with its note), an `inherited` scope that fell back for
  several instances, a fork with `inherited` memories (`test_modules`, `test_distribution`);
- one reply at a time for the readers of a single event (`test_window`, `test_library`).
A `Recorder` emits records with a steady clock; `row` is one roster row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RUN_ID = "run-20260101-000000-mult"
OFF = {"moduleId": "", "enabled": False, "origin": "", "writable": False}


@dataclass
class Recorder:
    run_id: str = RUN_ID
    records: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    clock: int = 0
    echo: dict[str, list[dict[str, Any]]] = field(default_factory=dict[str, list[dict[str, Any]]])

    def emit(self, event_type: str, agent: str = "root", turn: int = 0, /, **body: Any) -> None:
        self.clock += 1
        minutes, seconds = divmod(self.clock, 60)
        stamp = f"2026-01-01T00:{minutes:02d}:{seconds:02d}.000Z"
        self.records.append(
            {
                "type": event_type,
                "timestamp": stamp,
                "runId": self.run_id,
                "agentId": agent,
                "turn": turn,
                **body,
            }
        )

    def roster(self, agent: str, **rows: dict[str, Any]) -> None:
        kinds = ("history", "memories", "tasks", "board", "skills", "archive")
        self.emit("agent_modules", agent, modules=[{"kind": k, **rows.get(k, OFF)} for k in kinds])

    def turn(self, agent: str, number: int, text: str, *, system: str | None = None, ok: bool = True) -> None:
        messages: list[dict[str, Any]] = list(self.echo.pop(agent, []))
        if system is not None:
            messages += [
                {"role": "system", "content": system},
                {"role": "user", "content": f"Task\n----\n{text}"},
            ]
        else:
            messages.append({"role": "user", "content": f"View: {text}\n----\nwhat the view held: {text}"})
        self.emit("model_request", agent, number, messages=messages, requestIndex=number)
        program = f'import {{ views }} from "gg";\nviews.openText({text!r}, "x");\n'
        call = {"id": f"c{number}", "name": "submit_program", "arguments": {"program": program}}
        usage = {"inputTokens": 1000 + 100 * number, "outputTokens": 50 + number}
        self.echo[agent] = [  # what the next request repeats: this reply and its receipt
            {"role": "assistant", "content": f"reply: {text}", "toolCalls": [call]},
            {"role": "tool", "content": f"{agent.replace('.', '')}{number}", "toolCallId": f"c{number}"},
        ]
        self.emit(
            "model_reply",
            agent,
            number,
            text=f"reply: {text}",
            calls=[call],
            usage=usage,
            durationMs=5.0,
            costUsd=0.002,
        )
        program_id = f"{agent.replace('.', '')}{number}"
        self.emit(
            "receipt",
            agent,
            number,
            callId=f"c{number}",
            tool="submit_program",
            body=program_id,
            programId=program_id,
        )
        self.emit("api_call", agent, number, operation="views.open_text", ordinal=0)
        self.emit("api_result", agent, number, operation="views.open_text", ordinal=0, ok=True)
        self.emit("log", agent, number, level="info", message=f"log: {text}", fields={})
        error = None if ok else f"Error: {text}\n    at program.js:2:7"
        self.emit(
            "program_kept",
            agent,
            number,
            programId=program_id,
            lines=2,
            chars=len(program),
            ok=ok,
            **({"error": error} if error else {}),
        )
        execution = {
            "submission": 1,
            "ok": ok,
            "toolCalls": 1,
            "apiCalls": 1,
            "durationMs": 3.0,
            "logs": [f"console: {text}"],
            "programId": program_id,
            "source": program,
        }
        if error:
            execution |= {"error": error, "errorType": "program_throw"}
        self.emit("code_execution", agent, number, **execution)
        outcome = {
            "outcome": "progressed" if ok else "error",
            "consecutiveErrors": 0 if ok else 1,
            "turns": number,
        }
        self.emit("turn_outcome", agent, number, **outcome)


def row(module_id: str, origin: str, *, scope: str | None = None, writable: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"moduleId": module_id, "enabled": True, "origin": origin, "writable": writable}
    if scope:
        out["scope"] = scope
    return out
