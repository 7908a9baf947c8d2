"""Whole sessions of many agents through the real loop: real arms, a real workspace, one replayed
journal shared by every agent (`gg.providers.book`'s rule: a line naming an agent is that
instance's, a line naming a profile is that profile's script, an unnamed line the root's).

`run_crew` builds a capability set from profile documents (`profile(...)`), writes the journal,
runs it, and returns what a reader of the run can observe: every event, every request each agent
was sent, the result and the workspace.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gg.agents.run import RunEnding, RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.deadline import MonotonicClock
from gg.providers.base import ModelClient, Reply, Request
from gg.providers.book import JournalBook
from gg.providers.replay import ReplayClient
from gg.sandbox.execution import Arm
from gg.telemetry.emitter import CollectingSink, Sink, Telemetry


def profile(
    slug: str,
    *capabilities: dict[str, Any],
    language: str = "javascript",
    role: str = "standard",
    roster: Sequence[str | dict[str, Any]] = (),
    timeout_secs: float = 20,
    **extra: Any,
) -> dict[str, Any]:
    """A profile that takes turns, answered by the shared journal; a roster entry given as a slug
    is scoped `subagent`."""
    entries = [{"agent": e, "scopes": ["subagent"]} if isinstance(e, str) else e for e in roster]
    code = {"id": "responses-as-code", "params": {"language": language, "timeoutSecs": timeout_secs}}
    document: dict[str, Any] = {
        "slug": slug,
        "role": role,
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [code, *capabilities],
        **extra,
    }
    if entries:
        document["subagents"] = entries
    return document


def subagents(depth: int = 2) -> dict[str, Any]:
    return {"id": "subagents", "params": {"maxDepth": depth}}


EXEC: dict[str, Any] = {"id": "exec"}
FORK: dict[str, Any] = {"id": "fork"}


def line(*sources: str, agent: str | None = None, profile: str | None = None) -> dict[str, Any]:
    """A journal line carrying one `submit_program` call per source, naming whose it is."""
    entry: dict[str, Any] = {
        "calls": [{"name": "submit_program", "arguments": {"program": s}} for s in sources]
    }
    if agent is not None:
        entry["agent"] = agent
    if profile is not None:
        entry["profile"] = profile
    return entry


@dataclass
class Crew:
    events: list[dict[str, Any]]
    requests: dict[str, list[Request]]
    result: RunEnding
    workspace: Path
    document: dict[str, Any] = field(default_factory=dict[str, Any])

    def of(self, kind: str, agent: str | None = None) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind and (agent is None or e["agentId"] == agent)]

    def one(self, kind: str, agent: str | None = None) -> dict[str, Any]:
        (event,) = self.of(kind, agent)
        return event

    def logs(self, agent: str, submission: int = 0) -> list[str]:
        """The logs of `agent`'s `submission`-th program (in the order they ran)."""
        return list(self.of("code_execution", agent)[submission]["logs"])

    def logged_json(self, agent: str, submission: int = 0) -> list[Any]:
        return [json.loads(text) for text in self.logs(agent, submission)]

    def prompt(self, agent: str, request: int = 0) -> str:
        """The whole `request`-th request `agent` sent: its system prompt and every message."""
        sent = self.requests[agent][request]
        parts = [sent.system]
        for message in sent.messages:
            parts.append(message.content)
            parts.extend(
                str(call.arguments.get("program", ""))
                for call in message.tool_calls
                if isinstance(call.arguments, dict)
            )
        return "\n".join(parts)

    def index(self, kind: str, agent: str, nth: int = 0) -> int:
        """Where the `nth` event of `kind` on `agent`'s stream stands among all the run's events."""
        positions = [i for i, e in enumerate(self.events) if e["type"] == kind and e["agentId"] == agent]
        return positions[nth]

    @property
    def finished(self) -> dict[str, Any]:
        return self.one("run_finished")

    @property
    def agents(self) -> list[str]:
        return [e["agentId"] for e in self.of("agent_spawned")]


def run_crew(
    tmp_path: Path,
    profiles: Sequence[dict[str, Any]],
    lines: Sequence[Mapping[str, Any]],
    *,
    arm: Arm | None = None,
    task: str | None = "Do the work the script does.",
    limits: Mapping[str, Any] | None = None,
    files: Mapping[str, str] | None = None,
    clock: MonotonicClock = time.monotonic,
    sinks: Sequence[Sink] = (),
    wrap: Callable[[str, ModelClient], ModelClient] | None = None,
) -> Crew:
    """`wrap(agent_id, client)`, when given, is the client each agent asks instead of its replay."""
    workspace = tmp_path / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    for name, contents in (files or {}).items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(contents, encoding="utf-8")
    journal = tmp_path / "journal.jsonl"
    journal.write_text("".join(json.dumps(entry) + "\n" for entry in lines), encoding="utf-8")
    agents = [dict(p) for p in profiles]
    if task is not None:
        agents[0] = {**agents[0], "task": task}
    document = {"name": "crew", "limits": dict(limits or {}), "agents": agents}
    capability_set = parse_capability_set(document, tmp_path)
    book = JournalBook.open(journal, capability_set.root.slug, [p.slug for p in capability_set.agents])
    requests: dict[str, list[Request]] = {}

    def client_for(agent_id: str, slug: str) -> ModelClient:
        client = Seen(ReplayClient(book.script(agent_id, slug)), requests.setdefault(agent_id, []))
        return client if wrap is None else wrap(agent_id, client)

    sink = CollectingSink()
    telemetry = Telemetry("run-crew", [sink, *sinks])
    result = execute_run(
        capability_set, telemetry, RunOptions(), World(arm=arm, clock=clock, clients=client_for)
    )
    telemetry.close()
    return Crew(sink.wire(), requests, result, workspace, document)


class Seen:
    """A client that keeps every request its agent sent."""

    def __init__(self, client: ModelClient, seen: list[Request]) -> None:
        self._client = client
        self._seen = seen

    @property
    def model_id(self) -> str:
        return self._client.model_id

    def complete(self, request: Request) -> Reply:
        self._seen.append(request)
        return self._client.complete(request)
