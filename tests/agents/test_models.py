"""Each agent's model client: a profile replays its own journal file, or the one journal the command
line gives for every agent; a recorder wraps every agent's client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gg.agents.models import ModelClients, Overrides
from gg.config import parse_capability_set
from gg.ids import AgentNode
from gg.loop.stream import AgentStream
from gg.providers.base import Request, submit_program_tool
from gg.providers.recording import JournalRecorder
from gg.providers.tool_choice import ToolChoiceMemory

REQUEST = Request(system="s", messages=(), tool=submit_program_tool("JavaScript"))


def _journal(path: Path, *texts: str | tuple[str, dict[str, str]]) -> Path:
    lines = [{"text": t} if isinstance(t, str) else {"text": t[0], **t[1]} for t in texts]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _set(tmp_path: Path, root_journal: str, worker_journal: str) -> Any:
    code = [{"id": "responses-as-code"}]
    document = {
        "name": "models",
        "workspace": ".",
        "agents": [
            {"slug": "root", "model": {"provider": "replay", "journal": root_journal}, "capabilities": code},
            {
                "slug": "worker",
                "model": {"provider": "replay", "journal": worker_journal},
                "capabilities": code,
            },
        ],
    }
    return parse_capability_set(document, tmp_path)


def _text(clients: ModelClients, capability_set: Any, agent: str, profile: str) -> str:
    node = AgentNode(agent, profile)
    stream = AgentStream(lambda *args: None, agent, "run")
    return clients.client(node, capability_set.agent(profile), stream).complete(REQUEST).text


def test_a_profile_naming_its_own_journal_replays_that_files_unnamed_lines(tmp_path: Path) -> None:
    _journal(tmp_path / "root.jsonl", "root speaks")
    _journal(tmp_path / "worker.jsonl", "the worker speaks")
    capability_set = _set(tmp_path, "root.jsonl", "worker.jsonl")
    clients = ModelClients(capability_set, Overrides(), ToolChoiceMemory())
    assert _text(clients, capability_set, "root", "root") == "root speaks"
    assert _text(clients, capability_set, "root.1", "worker") == "the worker speaks"
    assert _text(clients, capability_set, "root.2", "worker") == "the worker speaks"  # its own replay


def test_profiles_naming_one_journal_share_it_and_its_unnamed_lines_are_the_first_ones(
    tmp_path: Path,
) -> None:
    _journal(tmp_path / "all.jsonl", "root speaks", ("worker speaks", {"profile": "worker"}))
    capability_set = _set(tmp_path, "all.jsonl", "all.jsonl")
    clients = ModelClients(capability_set, Overrides(), ToolChoiceMemory())
    assert _text(clients, capability_set, "root", "root") == "root speaks"
    assert _text(clients, capability_set, "root.1", "worker") == "worker speaks"


def test_a_journal_given_to_replay_answers_every_agent_and_the_root_owns_it(tmp_path: Path) -> None:
    _journal(tmp_path / "root.jsonl", "unused")
    _journal(tmp_path / "worker.jsonl", "unused")
    given = _journal(tmp_path / "given.jsonl", "root from the recording", ("child", {"agent": "root.1"}))
    capability_set = _set(tmp_path, "root.jsonl", "worker.jsonl")
    clients = ModelClients(capability_set, Overrides(provider="replay", journal=given), ToolChoiceMemory())
    assert _text(clients, capability_set, "root", "root") == "root from the recording"
    assert _text(clients, capability_set, "root.1", "worker") == "child"
    assert clients.binding_of(capability_set.agent("worker")) == ("replay", None)


def test_a_recorder_wraps_every_agents_client_under_its_id(tmp_path: Path) -> None:
    _journal(tmp_path / "all.jsonl", "root speaks", ("worker speaks", {"profile": "worker"}))
    capability_set = _set(tmp_path, "all.jsonl", "all.jsonl")
    recorder = JournalRecorder.create(tmp_path / "recorded.jsonl")
    clients = ModelClients(capability_set, Overrides(recorder=recorder), ToolChoiceMemory())
    _text(clients, capability_set, "root", "root")
    _text(clients, capability_set, "root.1", "worker")
    assert [(r.agent, r.text) for r in recorder.replies] == [
        ("root", "root speaks"),
        ("root.1", "worker speaks"),
    ]
