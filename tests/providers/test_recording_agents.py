"""Recording a run of many agents from the loopback server, and replaying the recording offline:
every agent's lines are recorded under its id, so `gg replay` reproduces the whole tree, each
agent the same programs, receipts, outcomes and end, however the threads interleave."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gg.agents.run import RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.providers.journal import load_journal
from gg.providers.recording import JournalRecorder
from gg.sandbox.execution import Arm
from gg.telemetry.emitter import CollectingSink, Telemetry

from .chat_server import Answer, ChatServer, Received, completion

pytestmark = pytest.mark.arms("javascript")

ROOT = """import { delegation, views } from "gg";
const a = delegation.spawnSubagent({ agent: "worker", prompt: "count the first half" });
const b = delegation.spawnSubagent({ agent: "worker", prompt: "count the second half" });
const results = delegation.waitForSubagents([a.id, b.id]);
views.openText("halves", results.map((r) => r.summary).join(" + "));
"""
FINISH = 'import { session } from "gg";\nsession.finish("counted both halves");\n'
WORKER = 'import { session } from "gg";\nsession.finish("{half}: 21");\n'


def _answer(received: Received) -> Answer:
    """The right reply for whichever agent asks: each is told by its task, and how far it got by
    the replies already in its window."""
    messages = received.json["messages"]
    task = next(m["content"] for m in messages if m["role"] == "user")
    turn = sum(1 for m in messages if m["role"] == "assistant") + 1
    if "first half" in task or "second half" in task:
        program = WORKER.replace("{half}", "first" if "first half" in task else "second")
    else:
        program = ROOT if turn == 1 else FINISH
    return completion(calls=[(f"call_{turn}", "submit_program", json.dumps({"program": program}))])


def _run(root: Path, binding: dict[str, Any], arm: Arm, options: RunOptions) -> list[dict[str, Any]]:
    (root / "workspace").mkdir(parents=True)
    code = {"id": "responses-as-code", "params": {"timeoutSecs": 20}}
    document = {
        "name": "recorded-tree",
        "agents": [
            {
                "slug": "root",
                "task": "Count the parts in two halves.",
                "model": binding,
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "worker", "scopes": ["subagent"]}],
            },
            {"slug": "worker", "model": binding, "capabilities": [code]},
        ],
    }
    capability_set = parse_capability_set(document, root)
    sink = CollectingSink()
    sinks = [sink] if options.recorder is None else [sink, options.recorder]
    telemetry = Telemetry(options.session_id or "run-replay", sinks)
    execute_run(capability_set, telemetry, options, World(arm=arm))
    telemetry.close()
    return sink.wire()


def _per_agent(events: list[dict[str, Any]]) -> dict[str, list[tuple[Any, ...]]]:
    """What each agent did, in its own order: receipts, programs, outcomes, its start and end."""
    seen: dict[str, list[tuple[Any, ...]]] = {}
    for event in events:
        kind, agent = event["type"], event["agentId"]
        facts: tuple[Any, ...] | None = None
        if kind == "receipt":
            facts = (kind, event["turn"], event["body"])
        elif kind == "code_execution":
            facts = (kind, event["turn"], event.get("source"), event["ok"], tuple(event["logs"]))
        elif kind in ("turn_outcome", "agent_finished"):
            facts = (kind, event["turn"], event.get("outcome"), event.get("status"), event.get("summary"))
        elif kind == "agent_spawned":
            facts = (kind, event.get("parentAgentId"), event["profileId"], event["depth"], event.get("brief"))
        elif kind == "run_finished":
            facts = (kind, event["status"], event["turns"], event.get("finalText"))
        if facts is not None:
            seen.setdefault(agent, []).append(facts)
    return seen


def test_a_recorded_tree_of_agents_replays_offline_to_the_same_tree(
    tmp_path: Path, chat_server: ChatServer, arm: Arm
) -> None:
    chat_server.script(*[_answer] * 4)
    journal = tmp_path / "recorded.jsonl"
    recorder = JournalRecorder.create(journal)
    binding = {"provider": "openai", "model": "gpt-4o", "baseUrl": chat_server.base_url}
    recorded = _run(tmp_path / "recorded", binding, arm, RunOptions(session_id="run-rec", recorder=recorder))
    recorder.close()
    assert len(chat_server.received) == 4
    lines = load_journal(journal)
    assert sorted(line.agent or "" for line in lines) == ["root", "root", "root.1", "root.2"]

    replay = {"provider": "openai", "model": "gpt-4o", "baseUrl": "http://127.0.0.1:9/v1"}  # never asked
    options = RunOptions(provider="replay", journal=journal)
    replayed = _run(tmp_path / "replayed", replay, arm, options)
    assert len(chat_server.received) == 4  # the replay asked no model
    assert _per_agent(replayed) == _per_agent(recorded)
    assert _per_agent(recorded)["root"][-1] == ("run_finished", "completed", 4, "counted both halves")
