"""Recursive listings by a glob pattern (`files.glob`), confined like every workspace path.

Rules:
- The pattern is a workspace path (its bounds, folding and confinement are `Workspace.relative`'s)
  whose components may hold wildcards: `*` any run of characters within one name, `?` one
  character, `[abc]` / `[!abc]` one character of a set or outside it, and a whole component `**`
  any number of folders, none included. Matching is case-sensitive; `*` matches a leading `.` too.
- The components before the first wildcard name the folder the walk starts in (with no wildcard
  at all, the pattern's last component is matched in its parent folder); it must be a folder
  (`not-found`, `invalid-argument`). A pattern naming the workspace itself is `invalid-argument`.
- From there each folder is opened with O_NOFOLLOW under the one held: a link is matched by its own
  name (kind `other`) and never entered, so nothing outside the workspace is ever reached; a
  folder 64 levels deep is not entered, as no path of more than 64 components can be used.
- Matches are workspace-relative paths with their kind, in walk order: each folder's entries by
  name, a folder before what is inside it. The walk reads at most 100,000 entries in all; one more
  is `limit-exceeded`, naming the pattern.
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from gg.errors import ErrorCode
from gg.state.workspace import paths
from gg.state.workspace.confinement import DIR_FLAGS, MAX_SCANNED_ENTRIES, EntryKind, Workspace, entry_kind
from gg.state.workspace.paths import MAX_PATH_DEPTH, PathRefusal
from gg.wire import well_formed

ANY_DEPTH = "**"
_WILDCARD = re.compile(r"[*?\[]")
_GONE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP})  # vanished, or swapped for a link


@dataclass(frozen=True)
class GlobMatch:
    path: str
    kind: EntryKind


@dataclass
class _Walk:
    pattern: str  # as written, for messages
    steps: tuple[str, ...]
    budget: int  # entries the walk may read
    read: int = 0
    found: list[GlobMatch] = field(default_factory=list[GlobMatch])


def glob(workspace: Workspace, pattern: str, budget: int = MAX_SCANNED_ENTRIES) -> list[GlobMatch]:
    """Every path under the workspace that `pattern` matches, in walk order, reading at most
    `budget` entries."""
    folded = workspace.relative(pattern)
    parts = [] if folded == "." else folded.split("/")
    if not parts:
        raise _names_the_workspace(pattern)
    first = next((i for i, part in enumerate(parts) if _WILDCARD.search(part)), len(parts) - 1)
    base, steps = parts[:first], tuple(parts[first:])
    walk = _Walk(pattern, steps, budget)
    with workspace.directory("/".join(base) or ".", quoted=pattern) as fd:
        _visit(walk, fd, "/".join(base), len(base), _closure(steps, {0}))
    return walk.found


def _visit(walk: _Walk, fd: int, prefix: str, depth: int, states: frozenset[int]) -> None:
    """Match the entries of the held folder `fd` (at `prefix`) and enter the folders that may
    still hold matches."""
    for entry in _entries(walk, fd, prefix):
        after = _advance(walk.steps, states, entry.name)
        if not after:
            continue
        name = well_formed(entry.name)
        path = f"{prefix}/{name}" if prefix else name
        kind = entry_kind(entry)
        if len(walk.steps) in after:
            walk.found.append(GlobMatch(path, kind))
        deeper = any(state < len(walk.steps) for state in after)
        if kind is EntryKind.DIRECTORY and deeper and depth + 1 < MAX_PATH_DEPTH:
            child = _open_folder(fd, entry.name, path)
            if child is None:
                continue
            try:
                _visit(walk, child, path, depth + 1, after)
            finally:
                os.close(child)


def _entries(walk: _Walk, fd: int, prefix: str) -> list[os.DirEntry[str]]:
    """The held folder's entries by name, counted against the walk's budget."""
    found: list[os.DirEntry[str]] = []
    try:
        with os.scandir(fd) as scanned:
            for entry in scanned:
                walk.read += 1
                if walk.read > walk.budget:
                    raise _read_too_many(walk.pattern, walk.budget)
                found.append(entry)
    except OSError as error:
        raise paths.from_os_error(prefix or ".", error) from None
    return sorted(found, key=lambda entry: entry.name)


def _open_folder(fd: int, name: str, path: str) -> int | None:
    """The folder `name` under `fd`, never through a link; None if it went away meanwhile."""
    try:
        return os.open(name, DIR_FLAGS, dir_fd=fd)
    except OSError as error:
        if error.errno in _GONE:
            return None
        raise paths.from_os_error(path, error) from None


def _advance(steps: tuple[str, ...], states: frozenset[int], name: str) -> frozenset[int]:
    """The steps still to match once `name` is taken: a `**` takes any name and stays, any other
    step takes a name it matches and moves on."""
    after: set[int] = set()
    for state in states:
        if state == len(steps):
            continue
        if steps[state] == ANY_DEPTH:
            after.add(state)
        elif fnmatchcase(name, steps[state]):
            after.add(state + 1)
    return _closure(steps, after)


def _closure(steps: tuple[str, ...], states: set[int]) -> frozenset[int]:
    """`states` with every step a `**` could skip by matching no folder."""
    closed = set(states)
    pending = list(states)
    while pending:
        state = pending.pop()
        if state < len(steps) and steps[state] == ANY_DEPTH and state + 1 not in closed:
            closed.add(state + 1)
            pending.append(state + 1)
    return frozenset(closed)


def _names_the_workspace(pattern: str) -> PathRefusal:
    predicate = "names the workspace itself; match what it holds with `*` or `**`"
    return paths.refuse(ErrorCode.INVALID_ARGUMENT, pattern, predicate)


def _read_too_many(pattern: str, budget: int) -> PathRefusal:
    predicate = f"reads more than {budget} entries; narrow the pattern"
    return paths.refuse(ErrorCode.LIMIT_EXCEEDED, pattern, predicate)
