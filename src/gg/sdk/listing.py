"""The `files` family's listings: one folder (`files.list_dir`) and a recursive glob (`files.glob`).

Paths and patterns are confined by `gg.state.workspace` and its `glob`. The rules added here:
- Both page their entries: `offset` entries are skipped (0-based; at or past the end the page is
  empty), then at most `limit` are returned (1 to 10,000).
- `list_dir` hands back its page as a list sorted by name; without `limit`, a page that would hold
  more than 10,000 entries is `limit-exceeded`, the message saying how many there are and how to
  page them.
- `glob` hands back a `GlobPage`: its matches in walk order (1,000 unless `limit` says otherwise),
  how many matched in all (`total`) and whether more remain past this page (`more`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from gg.errors import ErrorCode, OperationError
from gg.sdk.files import refusals_for
from gg.sdk.registry import Always, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.workspace import quote_path
from gg.state.workspace.glob import glob

MAX_PAGE = 10_000
DEFAULT_GLOB_PAGE = 1_000
T = TypeVar("T")


def page_of(operation: str, items: Sequence[T], offset: int, limit: int | None) -> list[T]:
    """Items [offset, offset + limit) of `items`; a `limit` of 0 or over 10,000 is refused."""
    if limit is not None and not 1 <= limit <= MAX_PAGE:
        raise OperationError(operation, ErrorCode.INVALID_ARGUMENT, _limit_out_of_range(limit))
    return list(items[offset : None if limit is None else offset + limit])


def _limit_out_of_range(limit: int) -> str:
    return f"`limit` is {limit}; a page holds 1 to {MAX_PAGE} entries"


def _list_dir(scope: ProgramScope, args: Mapping[str, Any]) -> list[dict[str, str]]:
    path: str | None = args.get("path")
    written = "." if path is None else path
    offset, limit = args.get("offset", 0), args.get("limit")
    with refusals_for("list_dir", written):
        entries = scope.workspace.list_dir(path)
    if limit is None and len(entries) - offset > MAX_PAGE:
        raise OperationError("list_dir", ErrorCode.LIMIT_EXCEEDED, _page_it(written, len(entries)))
    return [{"name": e.name, "kind": e.kind.value} for e in page_of("list_dir", entries, offset, limit)]


def _page_it(written: str, total: int) -> str:
    return (
        f"{quote_path(written)} holds {total} entries, more than the {MAX_PAGE} one listing returns: "
        "page it with `offset` and `limit`, or match what you need with files.glob"
    )


def _glob(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    pattern: str = args["pattern"]
    if pattern == "":
        raise OperationError("glob", ErrorCode.INVALID_ARGUMENT, "`pattern` is empty")
    offset, limit = args.get("offset", 0), args.get("limit")
    with refusals_for("glob", pattern):
        matches = glob(scope.workspace, pattern)
    shown = page_of("glob", matches, offset, DEFAULT_GLOB_PAGE if limit is None else limit)
    return {
        "matches": [{"path": m.path, "kind": m.kind.value} for m in shown],
        "total": len(matches),
        "more": offset + len(shown) < len(matches),
    }


OUTSIDE = ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the path leads outside the workspace, or is not a folder")

LISTING_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="files",
        key="list_dir",
        params=(
            Param(
                "path", ParamType.STRING, required=False, positional=True, doc="omit for the workspace root"
            ),
            Param("offset", ParamType.U32, required=False, doc="entries to skip (0-based)"),
            Param("limit", ParamType.U32, required=False, doc=f"most entries to return (1 to {MAX_PAGE})"),
        ),
        returns="DirEntry[]",
        summary="List a workspace directory's entries, sorted by name, a page at a time.",
        gate=Always(),
        handler=_list_dir,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "the folder does not exist"),
            OUTSIDE,
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, f"over {MAX_PAGE} entries and no `limit`: page them"),
        ),
    ),
    Operation(
        family="files",
        key="glob",
        params=(
            Param("pattern", ParamType.STRING, doc="a workspace path with wildcards: `src/**/*.py`"),
            Param("offset", ParamType.U32, required=False, doc="matches to skip (0-based)"),
            Param(
                "limit",
                ParamType.U32,
                required=False,
                doc=f"most matches to return (1 to {MAX_PAGE}; {DEFAULT_GLOB_PAGE} if omitted)",
            ),
        ),
        returns="GlobPage",
        summary="Find the workspace's files and folders whose paths match a glob, a page at a time.",
        gate=Always(),
        handler=_glob,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "the folder before the first wildcard does not exist"),
            OUTSIDE,
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "the walk read over 100000 entries: narrow the pattern"),
        ),
    ),
)
