"""Running a run's hooks (`gg.config.hooks` declares and judges them): which run for an event, in
what order, what each answered, and what the agent reads of it.

Rules:
- an event runs its hooks in order: the capability set's (session events) or the agent's
  profile's, then the Python hooks handed to the run (`gg.hook`); the first block stops the
  operation and the rest of the event's hooks; a message said before it still reaches the model;
- a command hook runs in the run's hook jail (`gg.sandbox.hook_jail`) with the payload on its
  stdin: the event, `agentId`, `agent` (the profile's slug) and the event's own fields; it exits 0
  and answers on its output's last non-empty line within its timeout, or it has failed;
- a hook that fails, times out, raises or answers what its event cannot take raises
  `HookFailed`; the run ends `hook_error` (`session-end`'s caller only logs it); a Python hook
  that calls `sys.exit` has failed the same way, while a `KeyboardInterrupt` in one is the
  operator's and interrupts the run as anywhere else;
- each message reaches the agent's next prompt once (`take_messages`); a message on
  `session-end` reaches none;
- every hook run is a `hook_run` event on the agent's stream: the event, the hook's label, its
  action (`failed` for one that judged nothing, with the reason) and how long it took.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gg.config.hooks import (
    SESSION_EVENTS,
    AnswerRefused,
    HookAction,
    HookAnswer,
    HookDeclaration,
    HookEvent,
    answer_of,
    built_in_answer,
    declared_hooks,
    may_insert,
    read_answer,
)
from gg.config.hooks.events import HOOK_FAILED
from gg.deadline import MonotonicClock
from gg.errors import HookFailed
from gg.loop.stream import AgentStream
from gg.prompts import render
from gg.sandbox.hook_jail import HookJail
from gg.sandbox.jail import Exited, JailFailure
from gg.sdk.hooks import Blocked
from gg.sdk.host.calling import exit_call
from gg.telemetry.events import HookRun

__all__ = ["AgentHooks", "HookRunner", "PythonHook"]

Payload = dict[str, Any]
OUTPUT_SHOWN_CHARS = 2000


@dataclass(frozen=True)
class PythonHook:
    """A hook written in Python (`gg.hook(event)(fn)`): `fn` is handed the payload and answers
    None (continue) or an answer object."""

    event: HookEvent
    fn: Callable[[Payload], object]
    name: str


@dataclass(frozen=True)
class _Hook:
    label: str
    judge: Callable[[HookEvent, Payload], HookAnswer]


class HookRunner:
    """A run's hooks: the capability set's, each profile's (by slug), the Python ones, and the jail
    command hooks run in (None when none is declared)."""

    def __init__(
        self,
        session: Sequence[HookDeclaration],
        profiles: Mapping[str, Sequence[HookDeclaration]],
        python: Sequence[PythonHook],
        jail: HookJail | None,
        clock: MonotonicClock,
    ) -> None:
        self._session = tuple(session)
        self._profiles = {slug: tuple(hooks) for slug, hooks in profiles.items()}
        self._python = tuple(python)
        self._jail = jail
        self.clock = clock

    def hooks_of(self, event: HookEvent, profile: str) -> list[_Hook]:
        declared = self._session if event in SESSION_EVENTS else self._profiles.get(profile, ())
        hooks = [self._declared(entry) for entry in declared_hooks(declared, event)]
        return hooks + [_python(hook) for hook in self._python if hook.event is event]

    def for_agent(self, stream: AgentStream, profile: str) -> AgentHooks:
        return AgentHooks(self, stream, profile)

    def close(self) -> None:
        if self._jail is not None:
            self._jail.close()

    def _declared(self, entry: HookDeclaration) -> _Hook:
        if entry.built_in is not None:
            script = entry.built_in
            return _Hook(entry.label, lambda event, payload: built_in_answer(script, event, payload))
        return _Hook(entry.label, lambda event, payload: self._command(entry, event, payload))

    def _command(self, entry: HookDeclaration, event: HookEvent, payload: Payload) -> HookAnswer:
        if self._jail is None or entry.command is None:  # the launch opens a jail for every command
            raise HookFailed(event, entry.label, "has no jail to run in")
        try:
            end = self._jail.run(entry.command, json.dumps(payload, ensure_ascii=False), entry.timeout_secs)
        except JailFailure as failure:
            raise HookFailed(event, entry.label, f"could not be started: {failure.reason}") from None
        said = end.output.text[-OUTPUT_SHOWN_CHARS:]
        if not isinstance(end, Exited):
            raise HookFailed(
                event, entry.label, f"did not answer within its {entry.timeout_secs:g} s timeout"
            )
        if end.exit_code != 0:
            raise HookFailed(event, entry.label, f"exited {end.exit_code}: {said.strip() or '(no output)'}")
        try:
            return read_answer(event, end.output.text)
        except AnswerRefused as refused:
            raise HookFailed(event, entry.label, refused.reason) from None


def _python(hook: PythonHook) -> _Hook:
    def judge(event: HookEvent, payload: Payload) -> HookAnswer:
        try:
            said = hook.fn(dict(payload))
        except Exception as error:
            raise HookFailed(event, hook.name, f"raised {error!r}") from None
        except SystemExit as raised:
            raise HookFailed(event, hook.name, f"called {exit_call(raised)}") from None
        try:
            return answer_of(event, said)
        except AnswerRefused as refused:
            raise HookFailed(event, hook.name, refused.reason) from None

    return _Hook(hook.name, judge)


class AgentHooks:
    """The run's hooks as they fire for one agent (the `gg.sdk.hooks.HookPort` of its programs),
    and the messages they said that its next prompt carries."""

    def __init__(self, runner: HookRunner, stream: AgentStream, profile: str) -> None:
        self._runner = runner
        self._stream = stream
        self._profile = profile
        self._messages: list[str] = []

    def fire(self, event: HookEvent, fields: Mapping[str, object]) -> Blocked | None:
        payload: Payload = {"event": event.value, "agentId": self._stream.agent_id, "agent": self._profile}
        payload.update(fields)
        for hook in self._runner.hooks_of(event, self._profile):
            answer = self._run(hook, event, payload)
            if answer.message is not None and answer.action is HookAction.MESSAGE and may_insert(event):
                self._messages.append(_said(event, hook.label, answer.message))
            if answer.action is HookAction.BLOCK:
                return Blocked(hook.label, answer.message)
        return None

    def take_messages(self) -> list[str]:
        """What the hooks said since the last call, once."""
        taken, self._messages = self._messages, []
        return taken

    def _run(self, hook: _Hook, event: HookEvent, payload: Payload) -> HookAnswer:
        started = self._runner.clock()
        try:
            answer = hook.judge(event, payload)
        except HookFailed as failed:
            self._record(event, hook.label, HOOK_FAILED, started, error=failed.reason)
            raise
        self._record(event, hook.label, answer.action.value, started, message=answer.message)
        return answer

    def _record(
        self,
        event: HookEvent,
        hook: str,
        action: str,
        started: float,
        *,
        message: str | None = None,
        error: str | None = None,
    ) -> None:
        duration = round((self._runner.clock() - started) * 1000, 3)
        self._stream.emit(
            HookRun(
                event=event.value,
                hook=hook,
                action=action,
                duration_ms=duration,
                message=message,
                error=error,
            )
        )


def _said(event: HookEvent, hook: str, message: str) -> str:
    return render("hook-message", event=event.value, hook=hook, message=message)
