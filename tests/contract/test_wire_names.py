"""The wire names of the agent tree, pinned: event types and their fields, transition kinds, module
kinds, origins, dispositions, agent statuses and roster scopes. Each is declared once
(`gg.telemetry.events`, `gg.config.kinds`, `gg.loop.status`, `gg.config.catalogue`); the console
reads the same declarations."""

from __future__ import annotations

from gg.config.catalogue import RosterScope
from gg.config.hooks import BuiltInHook, HookAction, HookEvent, HookKind
from gg.config.hooks.events import HOOK_FAILED
from gg.config.kinds import Disposition, ModuleKind, Origin
from gg.console import vocabulary
from gg.loop.status import AgentStatus, RunStatus
from gg.providers.tool_choice import ToolChoice
from gg.sdk.catalogue import default_registry
from gg.sdk.types import Choice
from gg.state.dispositions import LibraryRow
from gg.telemetry.agent_events import (
    AgentFinished,
    AgentModules,
    AgentSpawned,
    AgentTransition,
    FsmStateEntered,
    TransitionKind,
)
from gg.telemetry.breakdown import ContextBand, ContextBreakdown, ContextUnit
from gg.telemetry.events import EventType, HookRun, ModelReply, ModelRequest, ReplyCall
from gg.telemetry.module_events import (
    ArchiveState,
    BoardState,
    ContextAction,
    ContextManaged,
    SkillsState,
    TasksState,
)


def test_the_event_types_are_spelled_once_in_snake_case() -> None:
    assert [t.value for t in EventType] == [
        "run_started",
        "model_request",
        "model_reply",
        "receipt",
        "api_call",
        "api_result",
        "code_execution",
        "turn_outcome",
        "limit_exceeded",
        "log",
        "program_kept",
        "program_dropped",
        "program_log",
        "compaction",
        "run_finished",
        "agent_spawned",
        "agent_modules",
        "agent_transition",
        "agent_finished",
        "fsm_state",
        "skills_state",
        "memory_state",
        "memory_revision",
        "tasks_state",
        "board_state",
        "archive_state",
        "context_managed",
        "context_breakdown",
        "hook_run",
    ]


def test_the_agent_events_carry_their_fields_in_camel_case() -> None:
    spawned = AgentSpawned(
        profile_id="worker",
        model_id="replay",
        depth=1,
        brief="go",
        language="python",
        offered=["files.read_file"],
        withheld=["files.write_file"],
    )
    library = {"disposition": "carried", "held": 3, "dropped": 1}
    moved = AgentTransition(
        kind="fsm", to_agent_id="root@2", profile_id="builder", modules=[], library=library, state="build"
    )
    entered = FsmStateEntered(fsm_id="process", state="build", profile_id="builder", from_state="explore")
    assert spawned.to_wire() == {
        "profileId": "worker",
        "modelId": "replay",
        "depth": 1,
        "brief": "go",
        "language": "python",
        "offered": ["files.read_file"],
        "withheld": ["files.write_file"],
    }
    assert moved.to_wire() == {
        "kind": "fsm",
        "toAgentId": "root@2",
        "profileId": "builder",
        "modules": [],
        "library": {"disposition": "carried", "held": 3, "dropped": 1},
        "state": "build",
    }
    assert LibraryRow(Disposition.CARRIED, held=3, dropped=1).to_wire() == library
    assert entered.to_wire() == {
        "fsmId": "process",
        "state": "build",
        "profileId": "builder",
        "from": "explore",
    }
    assert AgentFinished(status="completed", summary="done").to_wire() == {
        "status": "completed",
        "summary": "done",
    }
    assert AgentModules(modules=[]).to_wire() == {"modules": []}
    assert SkillsState(module_id="skills-0", skills=[]).to_wire() == {"moduleId": "skills-0", "skills": []}


def test_a_models_request_and_reply_carry_their_fields_in_camel_case() -> None:
    request = ModelRequest(messages=[], request_index=2, tool_choice="pinned")
    assert request.to_wire() == {"messages": [], "requestIndex": 2, "toolChoice": "pinned"}
    assert [c.value for c in ToolChoice] == ["pinned", "auto"]
    reply = ModelReply(
        text="", calls=[], usage={}, duration_ms=1.0, cost_usd=0.5, response_model="gemma-3-270m"
    )
    assert list(reply.to_wire()) == ["text", "calls", "usage", "durationMs", "costUsd", "responseModel"]
    call = ReplyCall(id="call_1", name="submit_program", arguments=None, raw_arguments='{"program": "x(')
    assert call.to_wire() == {
        "id": "call_1",
        "name": "submit_program",
        "arguments": None,
        "rawArguments": '{"program": "x(',
    }


def test_the_module_snapshots_and_the_reclaim_event_carry_their_fields_in_camel_case() -> None:
    assert TasksState(module_id="tasks-0", tasks=[]).to_wire() == {"moduleId": "tasks-0", "tasks": []}
    board = BoardState(module_id="board-0", epics=[], issues=[])
    assert board.to_wire() == {"moduleId": "board-0", "epics": [], "issues": []}
    archive = ArchiveState(module_id="archive-0", entries=[], count=0, total_len=0)
    assert archive.to_wire() == {"moduleId": "archive-0", "entries": [], "count": 0, "totalLen": 0}
    managed = ContextManaged(
        action="archive_thread", reclaimed_tokens=3, items=2, detail="d", earliest_removed=1
    )
    assert managed.to_wire() == {
        "action": "archive_thread",
        "reclaimedTokens": 3,
        "items": 2,
        "detail": "d",
        "earliestRemoved": 1,
    }
    assert [a.value for a in ContextAction] == ["archive_thread", "evict_file_view"]


def test_a_context_breakdown_states_its_unit_and_each_bands_size() -> None:
    rows = [{"band": "System", "tokens": 30, "chars": 120}]
    measured = ContextBreakdown(unit="tokens", bands=rows, input_tokens=30)
    assert measured.to_wire() == {"unit": "tokens", "bands": rows, "inputTokens": 30}
    assert EventType.CONTEXT_BREAKDOWN.value == "context_breakdown"
    assert [u.value for u in ContextUnit] == ["tokens", "chars"]
    assert [b.value for b in ContextBand] == [
        "System",
        "Tools",
        "Task",
        "Thread",
        "Views",
        "Docs",
        "Memory",
        "TaskList",
        "Board",
        "Skill",
    ]


def test_the_vocabularies_of_the_tree_and_its_modules() -> None:
    assert [k.value for k in TransitionKind] == ["exec", "fork", "fsm"]
    assert [k.value for k in ModuleKind] == ["history", "memories", "tasks", "board", "skills", "archive"]
    assert [o.value for o in Origin] == ["created", "inherited", "profile", "run", "transferred", "forked"]
    assert [d.value for d in Disposition] == [
        "carried",
        "copied",
        "linked",
        "dropped",
        "initialized",
        "absent",
    ]
    assert [s.value for s in AgentStatus] == [
        "completed",
        "exhausted",
        "timed_out",
        "model_error",
        "limit_exceeded",
        "internal_error",
        "stopped",
    ]
    assert [s.value for s in RosterScope] == ["subagent", "implementer", "reviewer"]


def test_a_subagent_results_statuses_are_the_agent_statuses_a_parent_can_read() -> None:
    status = default_registry().types["SubagentStatus"]
    readable = [s.value for s in AgentStatus if s not in (AgentStatus.INTERNAL_ERROR, AgentStatus.STOPPED)]
    assert isinstance(status, Choice) and list(status.values) == readable


def test_the_console_reads_the_one_declaration_of_every_name_gg_emits() -> None:
    assert vocabulary.ModuleKind is ModuleKind and vocabulary.Origin is Origin
    assert vocabulary.Disposition is Disposition and vocabulary.TransitionKind is TransitionKind
    emitted = {t.value for t in EventType}
    for name in (
        "AGENT_SPAWNED",
        "AGENT_TRANSITION",
        "AGENT_FINISHED",
        "AGENT_MODULES",
        "FSM_STATE",
        "CONTEXT_BREAKDOWN",
    ):
        assert vocabulary.AgentEvent[name].value in emitted
    bands = {band.value for band in ContextBand}
    assert {band for band in vocabulary.KIND_BAND.values() if band is not None} <= bands
    for name in ("SKILLS_STATE", "TASKS_STATE", "BOARD_STATE", "ARCHIVE_STATE"):
        assert vocabulary.ModuleEvent[name].value == EventType[name].value


def test_the_hooks_names_are_spelled_once_in_kebab_case() -> None:
    assert [e.value for e in HookEvent] == [
        "session-start",
        "session-end",
        "agent-start",
        "agent-stop",
        "pre-write",
        "post-write",
        "pre-shell",
        "post-shell",
        "pre-compact",
        "post-compact",
    ]
    assert [a.value for a in HookAction] == ["continue", "block", "message"]
    assert [k.value for k in HookKind] == ["command", "built-in"]
    assert [b.value for b in BuiltInHook] == ["trace", "refuse-empty-write", "guard-destructive-shell"]
    assert HOOK_FAILED == "failed"
    assert RunStatus.HOOK_ERROR.value == "hook_error" and RunStatus.HOOK_ERROR.exit_code == 1


def test_a_hook_run_carries_its_fields_in_camel_case() -> None:
    run = HookRun(event="pre-write", hook="guard", action="failed", duration_ms=1.5, error="exited 2")
    assert run.to_wire() == {
        "event": "pre-write",
        "hook": "guard",
        "action": "failed",
        "durationMs": 1.5,
        "error": "exited 2",
    }
