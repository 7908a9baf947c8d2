"""The host places a jail shows, read-only, and the `/etc` it is given.

Rules:
- the system directories (`/usr`, `/bin`, `/sbin`, `/lib*`) are shown as they are on the host: a
  directory is bound read-only at its own path, a symlink (a merged `/usr`) is recreated as one;
- `/etc` is made when the jail opens and holds only what a toolchain reads: the dynamic loader's
  cache and configuration, `alternatives`, the TLS certificates (never `ssl/private`), time zone,
  name-service and MIME tables, the release files and the JVMs' settings; a shared network adds
  the resolver's configuration. Those files are copied (a link into a shown directory stays a
  link); those folders are the host's own, bound read-only. Nothing else of the host's `/etc`
  (no `shadow`, no `passwd`) is in it;
- its `passwd`, `group` and `hosts` are made up: one user, `gg`, with the host's uid and gid,
  whose home is the workspace, and `localhost` plus the jail's host name;
- a host without `/bin/sh` cannot jail commands.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gg.sandbox.jail.policy import HOSTNAME, USER_NAME, JailPolicy

SYSTEM_DIRECTORIES = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_SHOWN = (
    "alternatives",
    "ca-certificates",
    "ca-certificates.conf",
    "debian_version",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "mime.types",
    "nsswitch.conf",
    "os-release",
    "protocols",
    "services",
    "ssl/certs",
    "ssl/openssl.cnf",
    "timezone",
)
ETC_SHOWN_PATTERNS = ("java-*",)
ETC_SHOWN_WITH_NETWORK = ("resolv.conf", "gai.conf", "host.conf")
SHELL = "/bin/sh"
ETC_PREFIX = "gg-jail-etc-"  # then the pid of the gg that made the copy


class HostUnfit(Exception):
    """The host lacks something every jailed command needs; `reason` names it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class HostLayout:
    """What of the host a jail shows: directories bound read-only at their own paths, symlinks
    recreated (`(target, path)`), the folder that becomes its `/etc`, and the folders of the
    host's `/etc` bound over it, read-only, at their own paths."""

    binds: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    etc: Path
    etc_binds: tuple[str, ...] = ()


def discover_layout(policy: JailPolicy, etc: Path = Path("/etc")) -> HostLayout:
    """The layout of this host for `policy`, its `/etc` files copied into a new temporary folder
    (the caller removes it). Raises `HostUnfit` when `/bin/sh` is missing."""
    if not os.access(SHELL, os.X_OK):
        raise HostUnfit(f"`{SHELL}` is missing; every jailed command runs in it")
    binds: list[str] = []
    links: list[tuple[str, str]] = []
    for directory in SYSTEM_DIRECTORIES:
        if os.path.islink(directory):
            links.append((os.readlink(directory), directory))
        elif os.path.isdir(directory):
            binds.append(directory)
    copy = Path(tempfile.mkdtemp(prefix=f"{ETC_PREFIX}{os.getpid()}-"))
    try:
        folders = _copy_etc(policy, etc, copy, tuple(Path(b) for b in binds))
    except OSError as error:
        shutil.rmtree(copy, ignore_errors=True)
        raise HostUnfit(f"the jail's /etc cannot be made: {error}") from None
    return HostLayout(tuple(binds), tuple(links), copy, tuple(str(folder) for folder in folders))


def _copy_etc(policy: JailPolicy, etc: Path, copy: Path, shown: tuple[Path, ...]) -> list[Path]:
    """Copy the shown files of `etc` into `copy`, with an empty folder where each shown folder
    will be bound; returns those folders."""
    names = [*ETC_SHOWN, *(ETC_SHOWN_WITH_NETWORK if policy.network else ())]
    entries = [etc / name for name in names if (etc / name).exists()]
    entries += [path for pattern in ETC_SHOWN_PATTERNS for path in sorted(etc.glob(pattern))]
    folders: list[Path] = []
    for entry in entries:
        target = copy / entry.relative_to(etc)
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.is_symlink() and any(entry.resolve().is_relative_to(place) for place in shown):
            target.symlink_to(os.readlink(entry))
        elif entry.is_dir():
            target.mkdir()
            folders.append(Path("/etc") / entry.relative_to(etc))
        else:
            shutil.copyfile(entry, target)
    for path, text in made_up_files(policy).items():
        (copy / path).write_text(text)
    return folders


def made_up_files(policy: JailPolicy) -> dict[str, str]:
    """The files a jail's `/etc` makes up, by their name in it."""
    uid, gid = os.getuid(), os.getgid()
    return {
        "passwd": f"{USER_NAME}:x:{uid}:{gid}:{USER_NAME}:{policy.workspace}:/bin/sh\n",
        "group": f"{USER_NAME}:x:{gid}:\n",
        "hosts": f"127.0.0.1\tlocalhost {HOSTNAME}\n::1\tlocalhost {HOSTNAME}\n",
    }
