"""A synthetic run of many agents holding modules, in the event shapes of `anchor-state.md` §5.

It holds what no run gg records can hold yet (memories, tasks, a board and an archive are not
wired into runs; `tests/console/crew/` is the recorded run, for everything else): a planner root
with memories, tasks, a board and skills spawns two implementers sharing a `shared` memories
store, forks a copy of itself, then execs into a reviewer whose memory strategy differs
(memories re-initialized). `text` is written into every model- or program-written field (reply,
program, view label, log line, memory body, task and issue titles, agent brief, skill name).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RUN_ID = "run-20260101-000000-mult"
OFF = {"moduleId": "", "enabled": False, "origin": "", "writable": False}
MEMORY_CAPS = {
    "maxCount": None,
    "maxLenPerMemory": 8192,
    "maxTotalLen": None,
    "maxLenIndex": None,
    "maxLenDescription": 256,
    "maxResults": None,
}


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

    def breakdown(self, agent: str, number: int, **bands: float) -> None:
        rows = [{"band": name, "tokens": size} for name, size in bands.items()]
        self.emit("context_breakdown", agent, number, bands=rows, unit="tokens")


def row(module_id: str, origin: str, *, scope: str | None = None, writable: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"moduleId": module_id, "enabled": True, "origin": origin, "writable": writable}
    if scope:
        out["scope"] = scope
    return out


def multi_agent_run(text: str = "plain words", *, finished: bool = True) -> list[dict[str, Any]]:
    r = Recorder()
    r.emit(
        "run_started",
        name="planning",
        configPath="planning.json",
        workspace="/ws",
        model="replay",
        language="javascript",
        limits={},
    )
    _root_opens(r, text)
    _implementers(r, text)
    _fork(r)
    _exec(r, text)
    if finished:
        r.emit("agent_finished", "root.1", 3, status="completed", summary=f"summary: {text}")
        r.emit(
            "run_finished",
            "root.1",
            3,
            status="completed",
            exitCode=0,
            turns=3,
            durationMs=1234.0,
            finalText=f"done: {text}",
        )
    return r.records


def _root_opens(r: Recorder, text: str) -> None:
    r.emit("agent_spawned", "root", profileId="planner", modelId="replay", depth=0)
    r.roster(
        "root",
        history=row("history-0", "created"),
        memories=row("memories-0", "created", scope="isolated"),
        tasks=row("tasks-0", "created"),
        board=row("board-0", "run"),
        skills=row("skills-0", "created"),
    )
    r.emit(
        "memory_state",
        "root",
        moduleId="memories-0",
        strategy="scratchpad",
        memories=[],
        count=0,
        totalLen=0,
        totalLines=0,
        peak={"count": 0, "totalLen": 0, "totalLines": 0},
        caps=MEMORY_CAPS,
        scope="isolated",
        writable=True,
    )
    r.emit(
        "skills_state",
        "root",
        moduleId="skills-0",
        skills=[{"name": f"skill: {text}", "description": "How to review", "read": False}],
    )
    r.turn("root", 1, text, system=f"You are the planner. {text}")
    r.emit(
        "tasks_state",
        "root",
        1,
        moduleId="tasks-0",
        tasks=[
            {"id": "t1", "title": f"task: {text}", "status": "in_progress", "blockedBy": []},
            {"id": "t2", "title": "second task", "status": "pending", "blockedBy": ["t1"]},
        ],
    )
    r.emit(
        "board_state",
        "root",
        1,
        moduleId="board-0",
        epics=[{"id": "AUTH", "title": f"epic: {text}", "description": "d"}],
        issues=[
            {
                "id": "AUTH-1",
                "title": f"issue: {text}",
                "status": "in_progress",
                "blockedBy": [],
                "agentId": "impl",
            },
            {
                "id": "AUTH-2",
                "title": "second issue",
                "status": "open",
                "blockedBy": ["AUTH-1"],
                "agentId": "impl",
            },
        ],
    )
    r.breakdown("root", 1, System=1200, TaskList=120, Skill=0)


def _implementers(r: Recorder, text: str) -> None:
    for n, archive in ((1, "archive-0"), (2, "archive-1")):
        agent = f"impl.{n}"
        r.emit(
            "agent_spawned",
            agent,
            parentAgentId="root",
            profileId="impl",
            modelId="replay",
            depth=1,
            brief=f"brief: {text}",
        )
        r.roster(
            agent,
            history=row(f"history-{n}", "created"),
            memories=row("memories-1", "profile", scope="shared"),
            board=row("board-0", "run"),
            archive=row(archive, "created"),
        )
        r.emit("archive_state", agent, moduleId=archive, entries=[], count=0, totalLen=0)
        r.turn(agent, 1, text, system=f"You implement. {text}")
        r.breakdown(agent, 1, System=900, Memory=300 if n == 1 else 0)
    r.emit(
        "memory_revision",
        "impl.1",
        1,
        name="api-notes",
        revision=1,
        change="written",
        description=f"memory: {text}",
        body=f"body: {text}",
        len=12,
        lines=1,
    )
    r.emit(
        "memory_state",
        "impl.1",
        1,
        moduleId="memories-1",
        strategy="markdown",
        memories=[{"name": "api-notes", "description": f"memory: {text}", "len": 12, "lines": 1}],
        count=1,
        totalLen=12,
        totalLines=1,
        peak={"count": 1, "totalLen": 12, "totalLines": 1},
        caps=MEMORY_CAPS,
        scope="shared",
        writable=True,
    )
    r.emit(
        "memory_state",
        "impl.2",
        1,
        moduleId="memories-1",
        strategy="markdown",
        memories=[{"name": "api-notes", "description": f"memory: {text}", "len": 12, "lines": 1}],
        count=1,
        totalLen=12,
        totalLines=1,
        peak={"count": 1, "totalLen": 12, "totalLines": 1},
        caps=MEMORY_CAPS,
        scope="shared",
        writable=True,
    )
    r.emit("agent_finished", "impl.1", 1, status="completed", summary="impl 1 done")
    r.emit("agent_finished", "impl.2", 1, status="completed", summary="impl 2 done")


def _fork(r: Recorder) -> None:
    r.emit(
        "agent_transition",
        "root",
        2,
        kind="fork",
        toAgentId="root.f1",
        profileId="planner",
        modules=[
            {"kind": "history", "disposition": "copied", "from": "history-0", "to": "history-3"},
            {"kind": "memories", "disposition": "copied", "from": "memories-0", "to": "memories-2"},
            {"kind": "tasks", "disposition": "copied", "from": "tasks-0", "to": "tasks-1"},
            {"kind": "board", "disposition": "linked", "from": "board-0", "to": "board-0"},
            {"kind": "skills", "disposition": "copied", "from": "skills-0", "to": "skills-1"},
            {"kind": "archive", "disposition": "absent"},
        ],
    )
    r.emit(
        "agent_spawned",
        "root.f1",
        2,
        parentAgentId="root",
        profileId="planner",
        modelId="replay",
        depth=1,
        brief="chase the flaky test",
    )
    r.roster(
        "root.f1",
        history=row("history-3", "forked"),
        memories=row("memories-2", "forked", scope="isolated"),
        tasks=row("tasks-1", "forked"),
        board=row("board-0", "run"),
        skills=row("skills-1", "forked"),
    )
    r.emit("agent_finished", "root.f1", 2, status="completed", summary="fork done")


def _exec(r: Recorder, text: str) -> None:
    r.turn("root", 2, text, ok=False)
    r.breakdown("root", 2, System=1200, TaskList=150, Skill=0)
    r.emit(
        "agent_transition",
        "root",
        2,
        kind="exec",
        toAgentId="root.1",
        profileId="reviewer",
        modules=[
            {"kind": "history", "disposition": "carried", "from": "history-0", "to": "history-0"},
            {"kind": "memories", "disposition": "initialized", "from": "memories-0", "to": "memories-3"},
            {"kind": "tasks", "disposition": "carried", "from": "tasks-0", "to": "tasks-0"},
            {"kind": "board", "disposition": "carried", "from": "board-0", "to": "board-0"},
            {"kind": "skills", "disposition": "carried", "from": "skills-0", "to": "skills-0"},
            {"kind": "archive", "disposition": "absent"},
        ],
    )
    r.emit(
        "agent_spawned", "root.1", 2, parentAgentId="root", profileId="reviewer", modelId="replay", depth=0
    )
    r.roster(
        "root.1",
        history=row("history-0", "transferred"),
        memories=row("memories-3", "created", scope="isolated"),
        tasks=row("tasks-0", "transferred"),
        board=row("board-0", "run"),
        skills=row("skills-0", "transferred"),
    )
    r.turn("root.1", 3, text, system=f"You review. {text}")
    r.breakdown("root.1", 3, System=800, Memory=0, TaskList=150, Skill=40)
