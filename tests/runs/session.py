"""Whole scripted sessions through the real loop: a real arm, a real workspace, a replayed model.

`run_session` builds a capability set from a few settings, plays `replies` (journal lines: the
foundation's replay format, `{{receipt R.C}}` placeholders allowed) and returns what a reader of
the run can observe: every event, every request the model was sent, the result and the workspace.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gg.agents.run import RunEnding, RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.deadline import MonotonicClock
from gg.providers.base import Request
from gg.providers.journal import parse_journal
from gg.providers.replay import ReplayClient
from gg.providers.scripted import ScriptedClient
from gg.sandbox.execution import Arm
from gg.state.library import Minter, cuid2_minter
from gg.telemetry.emitter import CollectingSink, Sink, Telemetry
from runs.crew import Seen


@dataclass
class Session:
    events: list[dict[str, Any]]
    requests: list[Request]
    result: RunEnding
    workspace: Path

    def of_type(self, kind: str, turn: int | None = None) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind and (turn is None or e["turn"] == turn)]

    def outcome(self, turn: int) -> dict[str, Any]:
        (record,) = self.of_type("turn_outcome", turn)
        return record

    def receipts(self, turn: int) -> list[str]:
        return [e["body"] for e in self.of_type("receipt", turn)]

    def executions(self, turn: int) -> list[dict[str, Any]]:
        return self.of_type("code_execution", turn)

    def feedback(self, turn: int) -> list[str]:
        return list(self.outcome(turn).get("feedback") or [])

    def read_next(self, turn: int) -> list[str]:
        """The user messages the model read at the start of turn `turn + 1` (views, feedback)."""
        (request,) = self.of_type("model_request", turn + 1)
        return [m["content"] for m in request["messages"] if m["role"] == "user"]

    def logs(self, level: str | None = None, turn: int | None = None) -> list[dict[str, Any]]:
        return [e for e in self.of_type("log", turn) if level is None or e["level"] == level]

    @property
    def model_calls(self) -> int:
        return len(self.requests)

    @property
    def finished(self) -> dict[str, Any]:
        (record,) = self.of_type("run_finished")
        return record


@dataclass
class Profile:
    language: str = "javascript"
    role: str = "standard"
    library: Mapping[str, Any] | None = None
    shell: Mapping[str, Any] | None = None  # the shell capability's params, when it is enabled
    limits: Mapping[str, Any] = field(default_factory=dict[str, Any])
    timeout_secs: float = 5
    max_memory_bytes: int = 268_435_456
    task: str | None = "Do the work the script does."
    capabilities: Sequence[Mapping[str, Any]] = ()  # more capability entries, as written
    disabled_operations: Sequence[str] = ()

    def document(self, journal: Path) -> dict[str, Any]:
        capabilities: list[dict[str, Any]] = [
            {
                "id": "responses-as-code",
                "params": {
                    "language": self.language,
                    "timeoutSecs": self.timeout_secs,
                    "maxMemoryBytes": self.max_memory_bytes,
                },
            }
        ]
        if self.library is not None:
            capabilities.append({"id": "program-library", "params": dict(self.library)})
        if self.shell is not None:
            capabilities.append({"id": "shell", "params": dict(self.shell)})
        capabilities.extend(dict(entry) for entry in self.capabilities)
        agent: dict[str, Any] = {
            "slug": "root",
            "role": self.role,
            "model": {"provider": "replay", "journal": str(journal)},
            "capabilities": capabilities,
        }
        if self.task:
            agent["task"] = self.task
        if self.disabled_operations:
            agent["disabledOperations"] = list(self.disabled_operations)
        return {"name": "scripted", "limits": dict(self.limits), "agents": [agent]}


def run_session(
    tmp_path: Path,
    replies: Sequence[Mapping[str, Any]],
    profile: Profile | None = None,
    *,
    files: Mapping[str, str] | None = None,
    arm: Arm | None = None,
    minter: Minter = cuid2_minter,
    client: ScriptedClient | None = None,
    clock: MonotonicClock = time.monotonic,
    record: Sequence[Sink] = (),
    watchers: Sequence[Sink] = (),
) -> Session:
    """`record` are sinks of the run's record beside the session's own (first), `watchers` its
    watchers."""
    profile = profile or Profile()
    workspace = tmp_path / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    for name, contents in (files or {}).items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(contents, encoding="utf-8")
    journal = tmp_path / "journal.jsonl"
    journal.write_text("".join(json.dumps(reply) + "\n" for reply in replies), encoding="utf-8")
    capability_set = parse_capability_set(profile.document(journal), tmp_path)
    sent: list[Request] = []
    model = client or Seen(
        ReplayClient(parse_journal(journal.read_text(encoding="utf-8"), str(journal))), sent
    )
    sink = CollectingSink()
    telemetry = Telemetry("run-test", [sink, *record], watchers=watchers)
    world = World(client=model, arm=arm, minter=minter, clock=clock)
    result = execute_run(capability_set, telemetry, RunOptions(), world)
    telemetry.close()
    return Session(sink.wire(), list(client.requests if client else sent), result, workspace)


def program(*sources: str, text: str = "") -> dict[str, Any]:
    """A journal reply carrying one `submit_program` call per source."""
    return {"text": text, "calls": [{"name": "submit_program", "arguments": {"program": s}} for s in sources]}


def ids(counter: Iterator[str]) -> Minter:
    """A minter handing out the given ids in order (ignores the length)."""
    return lambda length: next(counter)
