"""The agent's workspace: the one home of path confinement.

Rules every path a program passes obeys (the bounds and the refusals' wording: `gg.state.workspace.paths`):
- Bounds come first, before anything is folded or touched: 4096 UTF-8 bytes, 64 components, 255
  bytes a component, no character a heading may not hold (`first_heading_unsafe`: NUL, controls).
- `.` and `..` fold as text: a relative path starts at the root and may not fold above it; an
  absolute one must fold to under the root. `~`, `$HOME`, `file:`, `%2e`, `\\` are plain characters.
- The walk opens one component at a time under the directory it holds, with O_NOFOLLOW; a link's
  target is spliced into the walk and must stay inside (at most 40 links, so loops end). Nothing
  outside is opened or stat-ed, so a refusal reads the same whether an outside path exists or not.
- Reads and edits take regular files only (no FIFO, device, socket); writes create missing parents
  inside; listings never follow links, and a directory of more than 100,000 entries is not read.
  Refusals are `PathRefusal`, quoting the path as written (escaped, at most 200 characters),
  never a host path or a link's target.
Races: a component swapped for a link mid-call makes the open fail. Not covered: a held directory
moved out of the workspace by another process during the call.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Generator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from gg.state.workspace import paths
from gg.state.workspace.paths import MAX_LINK_HOPS, MAX_PATH_DEPTH, PathRefusal, quote_path
from gg.wire import well_formed

__all__ = ["MAX_SCANNED_ENTRIES", "DirEntry", "EntryKind", "PathRefusal", "Workspace", "quote_path"]

MAX_SCANNED_ENTRIES = 100_000  # entries one listing may read, in one directory or over a whole walk
_MAX_PENDING = 4 * MAX_PATH_DEPTH  # components still to walk after links are spliced in

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_UPDATE_FLAGS = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class EntryKind(StrEnum):
    FILE = "file"
    DIRECTORY = "directory"
    OTHER = "other"  # links (never followed by a listing), FIFOs, sockets, devices


@dataclass(frozen=True)
class DirEntry:
    name: str
    kind: EntryKind


@dataclass
class _Walk:
    """A walk in progress: directory descriptors held from the root down, components still to take."""

    written: str
    held: list[int]
    pending: list[str]  # reversed: the next component is last
    hops: int = 0

    def climb(self) -> None:
        if len(self.held) == 1:
            raise paths.outside(self.written)
        os.close(self.held.pop())

    def enter(self, fd: int) -> None:
        self.held.append(fd)
        if len(self.held) > MAX_PATH_DEPTH + 1:
            raise paths.too_deep(self.written)

    def close(self) -> None:
        for fd in self.held:
            os.close(fd)
        self.held.clear()


class Workspace:
    """The directory an agent's programs may read and write, and nothing outside it."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise ValueError(f"workspace root {root} is not a directory")
        self.root = Path(os.path.realpath(root))
        forms = {tuple(paths.components(os.path.abspath(root))), tuple(paths.components(str(self.root)))}
        self._root_forms = sorted(forms, key=len, reverse=True)

    def relative(self, path: str) -> str:
        """The workspace-relative spelling of `path` after folding (`.` for the root). Raises
        `PathRefusal` for a path outside or over the bounds; touches nothing on disk."""
        return "/".join(self._fold(path)) or "."

    def open_for_read(self, path: str) -> io.FileIO:
        """An existing regular file, opened for reading."""
        with self._walked(path, create_parents=False, file=True) as (walk, name):
            return _open_regular(walk, name, _READ_FLAGS, "r")

    def open_for_update(self, path: str) -> io.FileIO:
        """An existing regular file, opened for reading and writing in place."""
        with self._walked(path, create_parents=False, file=True) as (walk, name):
            return _open_regular(walk, name, _UPDATE_FLAGS, "r+")

    def open_for_write(self, path: str) -> io.FileIO:
        """A regular file opened for writing and emptied, created with its missing parent
        directories if absent."""
        with self._walked(path, create_parents=True, file=True) as (walk, name):
            file = _open_regular(walk, name, _WRITE_FLAGS, "w")
            file.truncate(0)
            return file

    def list_dir(self, path: str | None = None) -> list[DirEntry]:
        """Entries of a directory (the root when `path` is None), sorted by name. Links are listed
        as `other` and never followed. More than 100,000 entries is `limit-exceeded`."""
        written = "." if path is None else path
        with self.directory(written) as fd:
            entries = [DirEntry(well_formed(e.name), entry_kind(e)) for e in scan(fd, written)]
        return sorted(entries, key=lambda entry: entry.name)

    @contextmanager
    def directory(self, path: str, *, quoted: str | None = None) -> Generator[int]:
        """A descriptor of the directory `path` names, held for the block (links on the way are
        followed as every walk follows them: never out). A refusal quotes `quoted` when given
        (the pattern a program wrote, say), else `path`."""
        with self._walked(path, create_parents=False, quoted=quoted) as (walk, name):
            if name is not None:
                walk.enter(_open_at(walk, name, DIR_FLAGS))
            yield walk.held[-1]

    @contextmanager
    def _walked(
        self, path: str, *, create_parents: bool, quoted: str | None = None, file: bool = False
    ) -> Generator[tuple[_Walk, str | None]]:
        """Walk `path` to its last component; yields the walk (its parent directory held last)
        and that component's name, or None when the path ends at a held directory. For a `file`
        the path may not be written as a directory's (`sub/y/`), checked before anything is made."""
        parts = self._fold(path)
        if file:
            paths.check_file_form(path)
        written = path if quoted is None else quoted
        walk = _Walk(written, [self._open_root(written)], list(reversed(parts)))
        try:
            yield walk, self._descend(walk, create_parents)
        finally:
            walk.close()

    def _open_root(self, written: str) -> int:
        """The root, resolved once at construction; a link put in its place is not followed."""
        with _os_failures(written):
            return os.open(self.root, DIR_FLAGS)

    def _descend(self, walk: _Walk, create_parents: bool) -> str | None:
        while walk.pending:
            name = walk.pending.pop()
            if name == "..":
                walk.climb()
                continue
            mode = _lstat_mode(walk, name)
            if mode is not None and stat.S_ISLNK(mode):
                self._splice(walk, _read_link(walk, name))
                continue
            if not walk.pending:
                return name
            if mode is None and create_parents:
                _make_dir(walk, name)
            elif mode is None or not stat.S_ISDIR(mode):
                raise (
                    paths.parent_not_directory(walk.written)
                    if create_parents
                    else paths.missing(walk.written)
                )
            walk.enter(_open_at(walk, name, DIR_FLAGS))
        return None

    def _splice(self, walk: _Walk, target: str) -> None:
        """Continue the walk through a link's target, which must not lead outside."""
        walk.hops += 1
        if walk.hops > MAX_LINK_HOPS:
            raise paths.too_many_links(walk.written)
        if target.startswith("/"):
            parts = self._under_root(target)
            if parts is None:
                raise paths.outside(walk.written)
            while len(walk.held) > 1:
                os.close(walk.held.pop())
        else:
            parts = [part for part in target.split("/") if part not in ("", ".")]
        walk.pending.extend(reversed(parts))
        if len(walk.pending) > _MAX_PENDING:
            raise paths.too_deep(walk.written)

    def _fold(self, path: str) -> list[str]:
        """Check the bounds, then fold `path` into workspace-relative components."""
        paths.check_bounds(path)
        if path.startswith("/"):
            inside = self._under_root(path)
            if inside is None:
                raise paths.outside(path)
            return inside
        parts: list[str] = []
        for part in paths.components(path):
            if part != "..":
                parts.append(part)
            elif parts:
                parts.pop()
            else:
                raise paths.outside(path)
        return parts

    def _under_root(self, absolute: str) -> list[str] | None:
        """Components of an absolute path below the root after folding, or None if not under it."""
        parts: list[str] = []
        for part in paths.components(absolute):
            if part != "..":
                parts.append(part)
            elif parts:
                parts.pop()
        for root in self._root_forms:
            if tuple(parts[: len(root)]) == root:
                return parts[len(root) :]
        return None


@contextmanager
def _os_failures(written: str) -> Generator[None]:
    """Translate an OS failure inside the workspace into a `PathRefusal` about `written`."""
    try:
        yield
    except OSError as error:
        raise paths.from_os_error(written, error) from None


def _lstat_mode(walk: _Walk, name: str) -> int | None:
    """The mode of `name` in the held directory, not following a link; None if it is absent."""
    with _os_failures(walk.written):
        try:
            return os.stat(name, dir_fd=walk.held[-1], follow_symlinks=False).st_mode
        except FileNotFoundError:
            return None


def _read_link(walk: _Walk, name: str) -> str:
    with _os_failures(walk.written):
        return os.readlink(name, dir_fd=walk.held[-1])


def _open_at(walk: _Walk, name: str, flags: int) -> int:
    try:
        return os.open(name, flags, 0o666, dir_fd=walk.held[-1])
    except OSError as error:
        if error.errno == errno.ENOTDIR and flags & os.O_DIRECTORY:
            raise paths.not_directory(walk.written) from None
        raise paths.from_os_error(walk.written, error) from None


def _make_dir(walk: _Walk, name: str) -> None:
    """Create `name`; if it appeared meanwhile, the O_NOFOLLOW open that follows decides."""
    with _os_failures(walk.written), suppress(FileExistsError):
        os.mkdir(name, dir_fd=walk.held[-1])


def _open_regular(walk: _Walk, name: str | None, flags: int, mode: str) -> io.FileIO:
    """Open the walk's last component and insist on a regular file."""
    if name is None:
        raise paths.is_directory(walk.written)
    fd = _open_at(walk, name, flags)
    found = os.fstat(fd).st_mode
    if not stat.S_ISREG(found):
        os.close(fd)
        raise paths.is_directory(walk.written) if stat.S_ISDIR(found) else paths.not_regular(walk.written)
    return io.FileIO(fd, mode, closefd=True)


def scan(fd: int, written: str, budget: int = MAX_SCANNED_ENTRIES) -> list[os.DirEntry[str]]:
    """The entries of the held directory `fd` (not sorted); more than `budget` is `limit-exceeded`."""
    entries: list[os.DirEntry[str]] = []
    with _os_failures(written), os.scandir(fd) as found:
        for entry in found:
            if len(entries) == budget:
                raise paths.too_many_entries(written, MAX_SCANNED_ENTRIES)
            entries.append(entry)
    return entries


def entry_kind(entry: os.DirEntry[str]) -> EntryKind:
    """What an entry is, never following a link."""
    if entry.is_dir(follow_symlinks=False):
        return EntryKind.DIRECTORY
    if entry.is_file(follow_symlinks=False):
        return EntryKind.FILE
    return EntryKind.OTHER
