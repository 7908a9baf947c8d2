"""The agent's workspace: the one home of path confinement.

Rules every path a program passes obeys:
- Bounds come first, before anything is folded or touched: 4096 UTF-8 bytes, 64 components, 255
  bytes a component, no character a heading may not hold (`first_heading_unsafe`: NUL, controls).
- `.` and `..` fold as text: a relative path starts at the root and may not fold above it; an
  absolute one must fold to under the root. `~`, `$HOME`, `file:`, `%2e`, `\\` are plain characters.
- The walk opens one component at a time under the directory it holds, with O_NOFOLLOW; a link's
  target is spliced into the walk and must stay inside (at most 40 links, so loops end). Nothing
  outside is opened or stat-ed, so a refusal reads the same whether an outside path exists or not.
- Reads and edits take regular files only (no FIFO, device, socket); writes create missing parents
  inside; listings never follow links. Refusals are `PathRefusal`, quoting the path as written
  (escaped, at most 200 characters), never a host path or a link's target.
Races: a component swapped for a link mid-call makes the open fail. Not covered: a held directory
moved out of the workspace by another process during the call.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Callable, Generator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from gg.errors import ErrorCode
from gg.wire import first_heading_unsafe, well_formed

MAX_PATH_BYTES = 4096
MAX_PATH_DEPTH = 64
MAX_NAME_BYTES = 255
MAX_LINK_HOPS = 40
MAX_LISTED_ENTRIES = 10_000
MAX_QUOTED_CHARS = 200
_MAX_PENDING = 4 * MAX_PATH_DEPTH  # components still to walk after links are spliced in

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_UPDATE_FLAGS = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class PathRefusal(Exception):
    """A path the call may not use; the SDK turns it into an `ApiError` for its operation."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class EntryKind(StrEnum):
    FILE = "file"
    DIRECTORY = "directory"
    OTHER = "other"  # links (never followed by a listing), FIFOs, sockets, devices


@dataclass(frozen=True)
class DirEntry:
    name: str
    kind: EntryKind


def quote_path(text: str) -> str:
    """The path as the program wrote it, for a message: characters a heading may not hold are
    escaped (`\\u000a`), and past 200 characters it is cut with a count of what was dropped."""
    shown = text[:MAX_QUOTED_CHARS]
    escaped = "".join(f"\\u{ord(c):04x}" if first_heading_unsafe(c) is not None else c for c in shown)
    dropped = len(text) - len(shown)
    return f"`{escaped}`" + (f" (and {dropped} more characters)" if dropped else "")


@dataclass
class _Walk:
    """A walk in progress: directory descriptors held from the root down, components still to take."""

    written: str
    held: list[int]
    pending: list[str]  # reversed: the next component is last
    hops: int = 0

    def climb(self) -> None:
        if len(self.held) == 1:
            raise _outside(self.written)
        os.close(self.held.pop())

    def enter(self, fd: int) -> None:
        self.held.append(fd)
        if len(self.held) > MAX_PATH_DEPTH + 1:
            raise _too_deep(self.written)

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
        forms = {tuple(_components(os.path.abspath(root))), tuple(_components(str(self.root)))}
        self._root_forms = sorted(forms, key=len, reverse=True)

    def relative(self, path: str) -> str:
        """The workspace-relative spelling of `path` after folding (`.` for the root). Raises
        `PathRefusal` for a path outside or over the bounds; touches nothing on disk."""
        return "/".join(self._fold(path)) or "."

    def open_for_read(self, path: str) -> io.FileIO:
        """An existing regular file, opened for reading."""
        with self._walked(path, create_parents=False) as (walk, name):
            return _open_regular(walk, name, _READ_FLAGS, "r")

    def open_for_update(self, path: str) -> io.FileIO:
        """An existing regular file, opened for reading and writing in place."""
        with self._walked(path, create_parents=False) as (walk, name):
            return _open_regular(walk, name, _UPDATE_FLAGS, "r+")

    def open_for_write(self, path: str) -> io.FileIO:
        """A regular file opened for writing and emptied, created with its missing parent
        directories if absent."""
        with self._walked(path, create_parents=True) as (walk, name):
            file = _open_regular(walk, name, _WRITE_FLAGS, "w")
            file.truncate(0)
            return file

    def list_dir(self, path: str | None = None) -> list[DirEntry]:
        """Entries of a directory (the root when `path` is None), sorted by name. Links are listed
        as `other` and never followed. More than 10,000 entries is `limit-exceeded`."""
        written = "." if path is None else path
        with self._walked(written, create_parents=False) as (walk, name):
            if name is not None:
                walk.enter(_open_at(walk, name, _DIR_FLAGS))
            entries = _scan(walk.held[-1], written)
        return sorted(entries, key=lambda entry: entry.name)

    @contextmanager
    def _walked(self, path: str, *, create_parents: bool) -> Generator[tuple[_Walk, str | None]]:
        """Walk `path` to its last component; yields the walk (its parent directory held last)
        and that component's name, or None when the path ends at a held directory."""
        parts = self._fold(path)
        walk = _Walk(path, [self._open_root(path)], list(reversed(parts)))
        try:
            yield walk, self._descend(walk, create_parents)
        finally:
            walk.close()

    def _open_root(self, written: str) -> int:
        """The root, resolved once at construction; a link put in its place is not followed."""
        with _os_failures(written):
            return os.open(self.root, _DIR_FLAGS)

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
                raise _parent_not_directory(walk.written) if create_parents else _missing(walk.written)
            walk.enter(_open_at(walk, name, _DIR_FLAGS))
        return None

    def _splice(self, walk: _Walk, target: str) -> None:
        """Continue the walk through a link's target, which must not lead outside."""
        walk.hops += 1
        if walk.hops > MAX_LINK_HOPS:
            raise _too_many_links(walk.written)
        if target.startswith("/"):
            parts = self._under_root(target)
            if parts is None:
                raise _outside(walk.written)
            while len(walk.held) > 1:
                os.close(walk.held.pop())
        else:
            parts = [part for part in target.split("/") if part not in ("", ".")]
        walk.pending.extend(reversed(parts))
        if len(walk.pending) > _MAX_PENDING:
            raise _too_deep(walk.written)

    def _fold(self, path: str) -> list[str]:
        """Check the bounds, then fold `path` into workspace-relative components."""
        _check_bounds(path)
        if path.startswith("/"):
            inside = self._under_root(path)
            if inside is None:
                raise _outside(path)
            return inside
        parts: list[str] = []
        for part in _components(path):
            if part != "..":
                parts.append(part)
            elif parts:
                parts.pop()
            else:
                raise _outside(path)
        return parts

    def _under_root(self, absolute: str) -> list[str] | None:
        """Components of an absolute path below the root after folding, or None if not under it."""
        parts: list[str] = []
        for part in _components(absolute):
            if part != "..":
                parts.append(part)
            elif parts:
                parts.pop()
        for root in self._root_forms:
            if tuple(parts[: len(root)]) == root:
                return parts[len(root) :]
        return None


def _components(path: str) -> list[str]:
    return [part for part in path.split("/") if part not in ("", ".")]


def _check_bounds(path: str) -> None:
    """Refuse an empty, over-long, over-deep or unsafe path before anything else looks at it."""
    if path == "":
        raise PathRefusal(ErrorCode.INVALID_ARGUMENT, "`path` is empty")
    if len(path) > MAX_PATH_BYTES:  # more characters than bytes allowed: no need to encode
        raise _too_long(path)
    unsafe = first_heading_unsafe(path)
    if unsafe is not None:
        raise _unsafe_character(path, unsafe)
    if len(path.encode("utf-8")) > MAX_PATH_BYTES:
        raise _too_long(path)
    names = [part for part in path.split("/") if part]
    if len(names) > MAX_PATH_DEPTH:
        raise _too_deep(path)
    if any(len(name.encode("utf-8")) > MAX_NAME_BYTES for name in names):
        raise _name_too_long(path)


@contextmanager
def _os_failures(written: str) -> Generator[None]:
    """Translate an OS failure inside the workspace into a `PathRefusal` about `written`."""
    try:
        yield
    except OSError as error:
        raise _from_os_error(written, error) from None


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
            raise _not_directory(walk.written) from None
        raise _from_os_error(walk.written, error) from None


def _make_dir(walk: _Walk, name: str) -> None:
    """Create `name`; if it appeared meanwhile, the O_NOFOLLOW open that follows decides."""
    with _os_failures(walk.written), suppress(FileExistsError):
        os.mkdir(name, dir_fd=walk.held[-1])


def _open_regular(walk: _Walk, name: str | None, flags: int, mode: str) -> io.FileIO:
    """Open the walk's last component and insist on a regular file."""
    if name is None:
        raise _is_directory(walk.written)
    fd = _open_at(walk, name, flags)
    found = os.fstat(fd).st_mode
    if not stat.S_ISREG(found):
        os.close(fd)
        raise _is_directory(walk.written) if stat.S_ISDIR(found) else _not_regular(walk.written)
    return io.FileIO(fd, mode, closefd=True)


def _scan(fd: int, written: str) -> list[DirEntry]:
    entries: list[DirEntry] = []
    with os.scandir(fd) as found:
        for entry in found:
            if len(entries) == MAX_LISTED_ENTRIES:
                raise _too_many_entries(written)
            entries.append(DirEntry(well_formed(entry.name), _entry_kind(entry)))
    return entries


def _entry_kind(entry: os.DirEntry[str]) -> EntryKind:
    if entry.is_dir(follow_symlinks=False):
        return EntryKind.DIRECTORY
    if entry.is_file(follow_symlinks=False):
        return EntryKind.FILE
    return EntryKind.OTHER


def _from_os_error(written: str, error: OSError) -> PathRefusal:
    """Translate an OS failure on a path inside the workspace; the message never carries the OS's
    own text about file names."""
    refuse = _REFUSAL_BY_ERRNO.get(error.errno or 0)
    if refuse is not None:
        return refuse(written)
    return _unusable(written, os.strerror(error.errno) if error.errno else "unknown error")


def _refuse(code: ErrorCode, written: str, predicate: str) -> PathRefusal:
    return PathRefusal(code, f"{quote_path(written)} {predicate}")


def _outside(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, "is outside the workspace")


def _too_long(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, f"is longer than {MAX_PATH_BYTES} bytes")


def _too_deep(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, f"is more than {MAX_PATH_DEPTH} levels deep")


def _name_too_long(written: str) -> PathRefusal:
    predicate = f"has a component longer than {MAX_NAME_BYTES} bytes"
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, predicate)


def _unsafe_character(written: str, index: int) -> PathRefusal:
    char = ord(written[index])
    what = "unpaired surrogates" if 0xD800 <= char <= 0xDFFF else "control or bidi characters"
    predicate = f"holds U+{char:04X} at index {index}; a path may not hold {what}"
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, predicate)


def _too_many_links(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, f"passes through more than {MAX_LINK_HOPS} links")


def _missing(written: str) -> PathRefusal:
    return _refuse(ErrorCode.NOT_FOUND, written, "does not exist")


def _is_directory(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, "is a directory")


def _not_directory(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, "is not a directory")


def _parent_not_directory(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, "runs through a file that is not a directory")


def _not_regular(written: str) -> PathRefusal:
    return _refuse(ErrorCode.INVALID_ARGUMENT, written, "is not a regular file")


def _too_many_entries(written: str) -> PathRefusal:
    return _refuse(ErrorCode.LIMIT_EXCEEDED, written, f"holds more than {MAX_LISTED_ENTRIES} entries")


def _unusable(written: str, reason: str) -> PathRefusal:
    return _refuse(ErrorCode.IO_ERROR, written, f"could not be used: {reason}")


_REFUSAL_BY_ERRNO: dict[int, Callable[[str], PathRefusal]] = {
    errno.ENOENT: _missing,
    errno.ENOTDIR: _missing,
    errno.EISDIR: _is_directory,
    errno.ELOOP: _too_many_links,
    errno.ENXIO: _not_regular,
    errno.ENODEV: _not_regular,
    errno.ENAMETOOLONG: _too_long,
}
