"""Recording a session as a replay journal (the format of `journal.py`), while it runs.

- `JournalRecorder.wrap(client, agent_id)` is a `ModelClient` that answers with `client` and
  records, in call order, each reply (text, calls exactly as received, usage, cost) and each
  failed call (its `ModelError`'s type, message, usage and cost), each line naming the agent it
  answered (`"agent": "root.1"`), so a run of many agents replays as a whole. A `ReplayError` is
  not a model's answer and is not recorded.
- The recorder is also a telemetry sink: each `receipt` event gives the receipt one call of the
  latest reply its agent received, matched by call id in call order (providers may repeat ids),
  so the journal keeps every reply's receipts and a replay can reproduce the ids they named. A
  call with no receipt event keeps `null`.
- Host lines (`record_host`: a host function's declaration, or one of its answers) are kept in
  the order they came; an answer stands after the latest reply of the agent it was given to
  (whose program made the call), a declaration after the run's latest reply, so a replay can
  answer each agent's calls of host functions, in order, with the functions absent
  (`gg.sdk.host.recording`).
- The file's first line says how many model calls it holds (`calls_said` reads it back), so a
  recording cut at a line's end is told from a whole one.
- The file is rewritten whole (to a temporary file, then renamed over it) after every model call,
  every host line and at `close`, so a run that dies still leaves a journal of every call it made.
  A copy kept with `keep_copy` (the run's start, `gg.telemetry.start`) is rewritten with it.
- A rewrite that fails (a full disk) leaves the file as the last one that succeeded, and no
  temporary file; the failure is the run's record lost: the recorder, as a telemetry sink,
  raises it at the next event, so the run stops (`internal_error`) naming the file and why.
- A launch refused before anything was recorded leaves no file (`discard_unused`): the same
  command, once fixed, may record to the same path.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from gg.providers.base import ModelClient, ModelError, Reply, Request, Usage
from gg.providers.journal import JournalCall, JournalFailure, JournalReply
from gg.providers.replay import ReplayError
from gg.providers.tool_choice import ToolChoice, tool_choice_of
from gg.telemetry.events import Event, Receipt, UsageKey

HEADER = "// gg recording: "
_HEADER_COUNT = re.compile(re.escape(HEADER) + r"(\d+) model call\(s\)")


def calls_said(text: str) -> int | None:
    """How many model calls a recording's first line says it holds (None: no such line, as in a
    journal written by hand)."""
    said = _HEADER_COUNT.match(text)
    return None if said is None else int(said[1])


class JournalRecorder:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._model_id = ""
        self._entries: list[JournalReply] = []
        self._receipts: list[list[str | None]] = []
        self._awaiting: dict[str, list[tuple[str, int, int]]] = {}  # per agent: its latest reply's calls
        self._latest: dict[str, int] = {}  # per agent: the entry of its latest reply
        self._host: list[tuple[int, str]] = []  # each host line, after how many entries it stands
        self._copies: list[Path] = []
        self._unwritten: OSError | None = None  # a rewrite that failed, told at the next event
        self._lock = threading.Lock()

    @classmethod
    def create(cls, path: Path) -> JournalRecorder:
        """A recorder whose file is written at once (a journal of no calls yet), so a path that
        cannot be written fails here, before the run, with its `OSError`. A recording never
        replaces a file that exists (a journal being replayed, a config, a workspace file) and never
        creates folders: `FileExistsError` / `FileNotFoundError` say so."""
        if os.path.lexists(path):  # a dangling link counts: writing through it would create its target
            raise FileExistsError(f"{path} already exists; record to a new file")
        if not path.parent.is_dir():
            raise FileNotFoundError(f"{path.parent} is not a folder")
        recorder = cls(path)
        recorder.close()
        return recorder

    @classmethod
    def create_outside(cls, path: Path, workspace: Path) -> JournalRecorder:
        """`create`, for a file outside `workspace` (where programs could rewrite it): one inside
        raises `FileExistsError` saying so."""
        if path.resolve().is_relative_to(workspace.resolve()):
            raise FileExistsError("it lies inside the workspace, where programs could rewrite it")
        return cls.create(path)

    def wrap(self, client: ModelClient, agent_id: str) -> ModelClient:
        self._model_id = self._model_id or client.model_id
        return _RecordingClient(client, self, agent_id)

    @property
    def replies(self) -> tuple[JournalReply, ...]:
        """What is recorded so far, receipts included."""
        with self._lock:
            return self._snapshot()

    def record_reply(self, reply: Reply, agent_id: str) -> None:
        calls = tuple(JournalCall(c.name, c.arguments) for c in reply.calls)
        entry = JournalReply(0, reply.text, calls, reply.usage, None, cost_usd=reply.cost_usd, agent=agent_id)
        with self._lock:
            index = len(self._entries)
            self._awaiting[agent_id] = [(call.id, index, number) for number, call in enumerate(reply.calls)]
            self._append(entry, [None] * len(calls))

    def record_error(self, error: ModelError, agent_id: str) -> None:
        usage = error.usage or Usage(0, 0)
        failure = JournalFailure(error.type, error.message)
        entry = JournalReply(0, "", (), usage, None, cost_usd=error.cost_usd, error=failure, agent=agent_id)
        with self._lock:
            self._awaiting[agent_id] = []
            self._append(entry, [])

    def record_host(self, line: dict[str, Any], agent_id: str | None = None) -> None:
        """Keep a host line (`{"hostFamily": ...}` or `{"hostAnswer": ...}`) after the latest reply
        of `agent_id` (of the run, when None or when that agent has none yet)."""
        text = json.dumps(line, ensure_ascii=False, allow_nan=False)
        with self._lock:
            latest = None if agent_id is None else self._latest.get(agent_id)
            self._host.append((len(self._entries) if latest is None else latest + 1, text))
            self._save()

    def write(self, event: Event) -> None:
        """The sink side: a receipt event fills its call's receipt; a rewrite that failed since
        the last event is raised here, where telemetry tells the run its record is lost."""
        self._raise_unwritten()
        payload = event.payload
        if not isinstance(payload, Receipt):
            return
        with self._lock:
            awaiting = self._awaiting.get(event.agent_id, [])
            slot = next((s for s in awaiting if s[0] == payload.call_id), None)
            if slot is not None:
                awaiting.remove(slot)
                self._receipts[slot[1]][slot[2]] = payload.body

    def keep_copy(self, path: Path) -> None:
        """Write the journal to `path` too, now and at every later save. Raises `OSError` when
        it cannot be written now."""
        with self._lock:
            self._copies.append(path)
            failed = self._save()
        if path in failed:
            raise failed[path]

    def _raise_unwritten(self) -> None:
        with self._lock:
            unwritten, self._unwritten = self._unwritten, None
        if unwritten is not None:
            raise unwritten

    def close(self) -> None:
        """The last rewrite; one that failed, now or since the last event, is raised."""
        with self._lock:
            self._save()
        self._raise_unwritten()

    def discard_unused(self) -> bool:
        """Remove the file when nothing was recorded in it; whether it was removed."""
        with self._lock:
            if self._entries or self._host:
                return False
            self.path.unlink(missing_ok=True)
            return True

    def _append(self, entry: JournalReply, receipts: list[str | None]) -> None:
        if entry.agent is not None:
            self._latest[entry.agent] = len(self._entries)
        self._entries.append(entry)
        self._receipts.append(receipts)
        self._save()

    def _snapshot(self) -> tuple[JournalReply, ...]:
        return tuple(
            entry if entry.error is not None else _with_receipts(entry, receipts)
            for entry, receipts in zip(self._entries, self._receipts, strict=True)
        )

    def _save(self) -> dict[Path, OSError]:
        """Rewrite the journal and its copies; each that failed, and why (the first failure is
        also kept, to be raised at the next event)."""
        source = f" answered by {self._model_id}" if self._model_id else ""
        lines = [f"{HEADER}{len(self._entries)} model call(s){source}"]
        host: dict[int, list[str]] = {}
        for position, text in self._host:
            host.setdefault(position, []).append(text)
        for index, entry in enumerate(self._snapshot()):
            lines.extend(host.get(index, ()))
            lines.append(format_reply(entry))
        lines.extend(host.get(len(self._entries), ()))
        failed: dict[Path, OSError] = {}
        for path in (self.path, *self._copies):
            temporary = path.with_name(f".{path.name}.tmp")
            try:
                temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
                os.replace(temporary, path)
            except OSError as failure:
                with contextlib.suppress(OSError):
                    temporary.unlink(missing_ok=True)
                failed[path] = failure
                self._unwritten = self._unwritten or failure
        return failed


class _RecordingClient:
    def __init__(self, client: ModelClient, recorder: JournalRecorder, agent_id: str) -> None:
        self._client = client
        self._recorder = recorder
        self._agent_id = agent_id

    @property
    def model_id(self) -> str:
        return self._client.model_id

    def next_tool_choice(self) -> ToolChoice | None:
        return tool_choice_of(self._client)

    def complete(self, request: Request) -> Reply:
        try:
            reply = self._client.complete(request)
        except ReplayError:
            raise
        except ModelError as error:
            self._recorder.record_error(error, self._agent_id)
            raise
        self._recorder.record_reply(reply, self._agent_id)
        return reply


def _with_receipts(entry: JournalReply, receipts: list[str | None]) -> JournalReply:
    if not entry.calls or all(r is None for r in receipts):
        return entry
    return replace(entry, receipts=tuple(receipts))


def format_reply(reply: JournalReply) -> str:
    """One journal line for `reply` (the inverse of reading it); zero counts and absent fields
    are left out, but a reported zero of cache reads is written (left out, they read unknown)."""
    entry: dict[str, Any] = {}
    if reply.agent is not None:
        entry["agent"] = reply.agent
    elif reply.profile is not None:
        entry["profile"] = reply.profile
    if reply.error is not None:
        entry["error"] = {"type": reply.error.type.value, "message": reply.error.message}
    if reply.text:
        entry["text"] = reply.text
    if reply.calls:
        entry["calls"] = [{"name": c.name, "arguments": c.arguments} for c in reply.calls]
    kept = (UsageKey.INPUT, UsageKey.OUTPUT)
    entry["usage"] = {
        k: v
        for k, v in reply.usage.to_wire().items()
        if v or k in kept or (k == UsageKey.CACHE_READ and v == 0)
    }
    if reply.cost_usd is not None:
        entry["costUsd"] = reply.cost_usd
    if reply.receipts is not None:
        entry["receipts"] = list(reply.receipts)
    return json.dumps(entry, ensure_ascii=False)
