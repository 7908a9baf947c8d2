"""The `context` family: the agent's own window.

- `compact(summary, files?)` is a deferred declaration (seed 001, "Four declarations ... applied
  once the turn closes"): the call validates and returns, and the loop rewrites the window after
  the turn, from the last compaction declared in it. A summary is read like a view body and
  bounded like one: at most `MAX_SUMMARY_BYTES` (65,536) UTF-8 bytes, a longer or a blank one
  refused whole as `invalid-argument`, never cut.
- Under `agent-managed-context` (seed 003, "archive"; `gg.state.archive`), at once:
  `archiveThread(ranges)` moves whole turns out of the window into the thread archive,
  `searchArchive(query)` finds them again, and `evictFileView(path?)` closes the file views of
  one path (of every path, without one). Each reclaim answers with a `ReclaimReport`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.registry import Always, Capability, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import Compaction, ProgramScope
from gg.sdk.summary import check_summary
from gg.state.archive import MAX_HITS, MAX_SPANS, ArchiveModule
from gg.state.refusal import Refusal
from gg.state.window import MAX_SUMMARY_BYTES, Window

MANAGED_CONTEXT = "agent-managed-context"


def _compact(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    """A blank summary, or one over the cap, is refused whole: a summary is never cut."""
    summary: str = args["summary"]
    if not summary.strip():
        raise OperationError("compact", ErrorCode.INVALID_ARGUMENT, "`summary` must not be blank")
    check_summary("compact", "summary", summary)
    files: list[str] = args.get("files", [])
    scope.deferred.compact(Compaction(summary, tuple(files)))


def _managed(scope: ProgramScope, operation: str) -> tuple[ArchiveModule, Window]:
    if scope.archive is None or scope.window is None:  # the gate admits only agents holding both
        raise GgDefect(FatalFault.HOST_FAULT, f"context.{operation} reached an agent without an archive")
    return scope.archive, scope.window


def _archive_thread(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    archive, window = _managed(scope, "archive_thread")
    spans = [(span["from"], span["to"]) for span in args["ranges"]]
    try:
        return archive.archive_thread(window, spans)
    except Refusal as refusal:
        raise refusal.at("archive_thread", scope.spelling("archive_thread")) from None


def _search_archive(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    archive, _ = _managed(scope, "search_archive")
    try:
        return archive.search(args["query"])
    except Refusal as refusal:
        raise refusal.at("search_archive", scope.spelling("search_archive")) from None


def _evict_file_view(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    archive, window = _managed(scope, "evict_file_view")
    path: str | None = args.get("path")
    if path is not None:
        if not path.strip():
            raise OperationError(
                "evict_file_view",
                ErrorCode.INVALID_ARGUMENT,
                "`path` must not be blank; omit it for every file",
            )
        try:
            path = scope.workspace.relative(path)
        except Refusal as refusal:
            raise refusal.at("evict_file_view", scope.spelling("evict_file_view")) from None
    return archive.evict_file_views(window, scope.views, path)


_MANAGED = Capability(MANAGED_CONTEXT)

CONTEXT_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="context",
        key="compact",
        params=(
            Param("summary", ParamType.STRING, doc="what the new window starts from"),
            Param("files", ParamType.STRING_LIST, required=False, positional=True, doc="files to re-open"),
        ),
        returns="void",
        summary="Restart your window from a summary once this turn ends, re-opening the listed files.",
        gate=Always(),
        handler=_compact,
        dispatches_tool=False,
        errors=(
            ErrorDoc(
                ErrorCode.INVALID_ARGUMENT, f"the summary is blank, or over {MAX_SUMMARY_BYTES} UTF-8 bytes"
            ),
        ),
    ),
    Operation(
        family="context",
        key="archive_thread",
        params=(
            Param(
                "ranges",
                ParamType.TURN_SPANS,
                doc="inclusive spans of turn numbers, each with `from` and `to`",
            ),
        ),
        returns="ReclaimReport",
        summary="Move whole turns out of your window now; their results stay in the archive, to be searched.",
        gate=_MANAGED,
        handler=_archive_thread,
        errors=(
            ErrorDoc(
                ErrorCode.INVALID_ARGUMENT,
                f"no span, more than {MAX_SPANS} spans, or a span that ends before it starts",
            ),
        ),
    ),
    Operation(
        family="context",
        key="search_archive",
        params=(Param("query", ParamType.STRING, doc="the text to look for, in any case"),),
        returns="ArchiveSearch",
        summary=f"Find archived messages holding a text, newest first, at most {MAX_HITS}.",
        gate=_MANAGED,
        handler=_search_archive,
        errors=(ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the query is blank"),),
    ),
    Operation(
        family="context",
        key="evict_file_view",
        params=(
            Param(
                "path", ParamType.STRING, required=False, positional=True, doc="omit it for every file view"
            ),
        ),
        returns="ReclaimReport",
        summary="Close the file views of a path (of every path, without one), in your window and this turn.",
        gate=_MANAGED,
        handler=_evict_file_view,
        errors=(ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the path is blank, or outside the workspace"),),
    ),
)
