"""The bubblewrap command line of one jailed command, decided from the policy and the host layout.

The jail, in the order bubblewrap builds it:
- its own user, pid, ipc, uts and (unless the policy shares it) network namespaces, and a cgroup
  namespace where the kernel has one; no further user namespaces inside; every capability
  dropped; a new session (no controlling terminal); killed when its parent dies;
- an empty, read-only root holding the host layout read-only, the jail's own `/etc`, a fresh
  `/proc` whose `sys` is read-only (uid 0 of a root-opened jail could otherwise set the host's
  sysctls, `kernel.core_pattern` among them), a minimal `/dev`, private tmpfs `/tmp` and
  `/dev/shm`; then the workspace, writable, and each read-only place, at their own paths, parents
  first, so a place inside another keeps its own access (a workspace under a read-only place is
  still writable, a read-only place inside the workspace still read-only); the workspace is
  also the working directory;
- every hidden path that lies under a shown place covered by an empty read-only tmpfs, read-only
  places included: a hidden path wins over a read-only place that holds it;
- the command itself, `/bin/sh -c <command>`, started only once gg has said so (`command.py`
  sets its resource limits on the jail's pid 1 first); a jail whose gg died before that ends.
"""

from __future__ import annotations

from pathlib import Path

from gg.sandbox.jail.layout import SHELL, HostLayout
from gg.sandbox.jail.policy import HOSTNAME, JailPolicy

WAIT_FOR_GG = 'read -r go || exit 125; exec /bin/sh -c "$1" </dev/null'


def jail_arguments(policy: JailPolicy, layout: HostLayout) -> list[str]:
    """Everything before the command."""
    arguments = [*_namespaces(policy), "--hostname", HOSTNAME, "--clearenv"]
    for name, value in policy.environment().items():
        arguments += ["--setenv", name, value]
    for directory in layout.binds:
        arguments += ["--ro-bind", directory, directory]
    for target, path in layout.links:
        arguments += ["--symlink", target, path]
    memory = str(policy.max_memory_bytes)
    arguments += ["--ro-bind", str(layout.etc), "/etc"]
    for folder in layout.etc_binds:
        arguments += ["--ro-bind", folder, folder]
    arguments += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev", "/dev"]
    arguments += ["--size", memory, "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    arguments += ["--size", memory, "--tmpfs", "/tmp"]
    arguments += granted_binds(policy)
    for path in hidden_under_shown(policy, layout):
        arguments += ["--tmpfs", path, "--remount-ro", path]
    return [*arguments, "--remount-ro", "/", "--chdir", str(policy.workspace)]


def granted_binds(policy: JailPolicy) -> list[str]:
    """The binds of the workspace (writable) and the read-only places, parents first."""
    places = [(policy.workspace, "--bind"), *((place, "--ro-bind") for place in policy.read_only)]
    arguments: list[str] = []
    for place, option in sorted(places, key=lambda granted: len(granted[0].parts)):
        arguments += [option, str(place), str(place)]
    return arguments


def command_arguments(command: str) -> list[str]:
    """The command line run inside the jail: a shell that waits for gg's word on its stdin (and
    ends if gg is gone instead), then runs `command` in `/bin/sh -c` with stdin from /dev/null."""
    return ["--", SHELL, "-c", WAIT_FOR_GG, "sh", command]


def _namespaces(policy: JailPolicy) -> list[str]:
    shared = ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    network = [] if policy.network else ["--unshare-net"]
    return [*shared, *network, "--disable-userns", "--cap-drop", "ALL", "--new-session", "--die-with-parent"]


def hidden_under_shown(policy: JailPolicy, layout: HostLayout) -> list[str]:
    """The hidden paths a jail would otherwise show (each under a bound directory, the workspace
    or a read-only place, and not holding the workspace), as real paths."""
    shown = [Path(path) for path in (*layout.binds, *layout.etc_binds)]
    shown += [policy.workspace, *policy.read_only]
    covered: list[str] = []
    for hidden in policy.hidden:
        if not hidden.is_dir():
            continue
        real = hidden.resolve()
        if policy.workspace.is_relative_to(real):
            continue
        if any(real.is_relative_to(place.resolve()) for place in shown):
            covered.append(str(real))
    return covered
