"""The run's hooks, opened at launch, and the session's two ends.

Rules:
- a run opens its hooks when the capability set or the caller (`gg.hook`) declares any: the
  declarations, and one jail for every command hook (`gg.sandbox.hook_jail`); a host that cannot
  jail a hook refuses the launch (`ConfigError`), naming why;
- `session-start` fires once, for the root, before its first turn (a message reaches that turn's
  request); a hook that could not judge ends the run `hook_error` before any turn;
- `session-end` fires once, after the root's end, with the run's status; a hook that could not
  judge is logged as a warning and changes nothing of the run's end.
"""

from __future__ import annotations

from collections.abc import Sequence

from gg.agents.shell import hidden_from_jails
from gg.config.hooks import HookEvent
from gg.config.model import CapabilitySet
from gg.deadline import MonotonicClock
from gg.errors import ConfigDefect, ConfigError, HookFailed
from gg.loop.agent import AgentEnd, Incarnation, hook_failed
from gg.loop.hooks import HookRunner, PythonHook
from gg.loop.run import Run
from gg.loop.status import RunStatus
from gg.loop.stream import AgentStream
from gg.sandbox.hook_jail import HookJail
from gg.sandbox.jail import JailUnavailable

__all__ = ["ended_by_hook", "open_hooks", "session_end", "session_start"]


def open_hooks(
    capability_set: CapabilitySet, python: Sequence[PythonHook], clock: MonotonicClock
) -> HookRunner | None:
    """The run's hooks, or None when nobody declares any. Raises `ConfigError`."""
    profiles = {profile.slug: profile.hooks for profile in capability_set.agents}
    declared = [*capability_set.hooks, *(hook for hooks in profiles.values() for hook in hooks)]
    if not declared and not python:
        return None
    commands = [hook.command for hook in declared if hook.command is not None]
    jail = None
    if commands:
        try:
            jail = HookJail(commands, hidden_from_jails())
        except JailUnavailable as refusal:
            reason = f"cannot run here, where a hook runs only in a jail: {refusal.reason}"
            raise ConfigError("hooks", [ConfigDefect("hooks", "command", reason)]) from None
    return HookRunner(capability_set.hooks, profiles, python, jail, clock)


def session_start(root: Incarnation, run: Run) -> AgentEnd | None:
    """Fire `session-start` for `root`; the run's end when a hook could not judge."""
    if root.hooks is None:
        return None
    try:
        root.hooks.fire(HookEvent.SESSION_START, {})
    except HookFailed as failed:
        return hook_failed(root.stream, run, failed)
    return None


def session_end(runner: HookRunner | None, stream: AgentStream, root: str, end: AgentEnd) -> None:
    """Fire `session-end` on the run's own stream, with the run's status; a failure is logged."""
    if runner is None:
        return
    try:
        runner.for_agent(stream, root).fire(HookEvent.SESSION_END, {"status": end.status.value})
    except HookFailed as failed:
        stream.warn(f"{failed}; the run's end stands", event=failed.event, hook=failed.hook)


def ended_by_hook(end: AgentEnd, failure: str | None) -> AgentEnd:
    """A run a hook stopped ends `hook_error` naming it, whatever its agents ended with; gg's own
    defect stands."""
    if failure is None or end.status in (RunStatus.HOOK_ERROR, RunStatus.INTERNAL_ERROR):
        return end
    return AgentEnd(RunStatus.HOOK_ERROR, message=failure)
