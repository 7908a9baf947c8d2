"""The `views` family: what a program puts before the model for its next turn.

- `open_text(label, body)` opens a text view; its rules and caps live in `gg.state.window.views`.
- `open_file(path, {offset?, limit?})` reads like `files.read_file` (same record, same refusals)
  and opens a file view of that page; an image opens a view whose body says why it is not shown.
  A page over the view body cap is refused with `limit-exceeded`, never cut.
- Under `agent-managed-context`: `close(selector)` closes every view of that selector, in the
  window and among this turn's, and answers how many; a documentation view is never closed.
  `current()` lists the views open, in the window and then this turn's, each with what it
  costs the window in tokens, estimated at `CHARS_PER_TOKEN` characters a token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.files import LIMIT, OFFSET, PATH, read_region
from gg.sdk.registry import Alias, Always, Capability, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.archive import CHARS_PER_TOKEN
from gg.state.window import FileView, Region, ViewKind, ViewMark, ViewRefusal, Window

MANAGED_CONTEXT = "agent-managed-context"


def _open_text(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    try:
        scope.views.open_text(args["label"], args["body"])
    except ViewRefusal as refusal:
        raise OperationError("open_text", refusal.code, refusal.message) from None


def _open_file(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    region = Region(offset=args.get("offset", 0), limit=args.get("limit"))
    record = read_region("open_file", scope.workspace, args["path"], region.offset, region.limit)
    try:
        scope.views.open_file(file_view(scope.workspace.relative(args["path"]), region, record))
    except ViewRefusal as refusal:
        raise OperationError("open_file", refusal.code, refusal.message) from None
    return record


def file_view(path: str, region: Region, record: Mapping[str, Any]) -> FileView:
    """The view of a `FileRead` record: its lines, or for an image the reason it is not shown."""
    if record["kind"] == "image":
        return FileView(path, region, 0, 0, 0, body=record["notShownReason"])
    return FileView(
        path,
        region,
        first_line=record["firstLine"],
        last_line=record["lastLine"],
        total_lines=record["totalLines"],
        body=record["contents"],
    )


def _window(scope: ProgramScope, operation: str) -> Window:
    if scope.window is None:  # every agent holds a window; a scope without one is gg's own defect
        raise GgDefect(FatalFault.HOST_FAULT, f"views.{operation} reached a program without its window")
    return scope.window


def _close(scope: ProgramScope, args: Mapping[str, Any]) -> int:
    selector: str = args["selector"]
    if not selector.strip():
        raise OperationError("close", ErrorCode.INVALID_ARGUMENT, "`selector` must not be blank")
    window = _window(scope, "close")
    pending = scope.views.close(lambda view: view.selector == selector)
    return len(pending) + len(window.remove_views(lambda view: view.selector == selector))


def _current(scope: ProgramScope, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    window = _window(scope, "current")
    shown = [_open_view(mark.view, m.content) for mark, m in window.held() if mark.view is not None]
    for view in scope.views.current():
        region = view.region if isinstance(view, FileView) else None
        shown.append(_open_view(ViewMark(view.kind, view.selector, region), view.render()))
    return shown


def _open_view(mark: ViewMark, rendered: str) -> dict[str, Any]:
    """An `OpenView`; the search view is a text view on the wire."""
    kind = "text" if mark.kind is ViewKind.SEARCH else mark.kind.value
    view: dict[str, Any] = {
        "kind": kind,
        "selector": mark.selector,
        "tokens": -(-len(rendered) // CHARS_PER_TOKEN),
    }
    if mark.region is not None:
        region: dict[str, int] = {"offset": mark.region.offset}
        if mark.region.limit is not None:
            region["limit"] = mark.region.limit
        view["region"] = region
    return view


VIEWS_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="views",
        key="open_text",
        params=(
            Param("label", ParamType.STRING, doc="the view's heading and selector"),
            Param("body", ParamType.STRING, doc="the text shown, at most 65,536 UTF-8 bytes"),
        ),
        returns="void",
        summary="Show a text to the model on its next turn, under a label.",
        gate=Always(),
        handler=_open_text,
        dispatches_tool=False,
    ),
    Operation(
        family="views",
        key="open_file",
        params=(PATH, OFFSET, LIMIT),
        returns="FileRead",
        summary="Show a page of a workspace file to the model on its next turn; returns the read.",
        gate=Always(),
        handler=_open_file,
    ),
    Operation(
        family="views",
        key="close",
        params=(
            Param(
                "selector", ParamType.STRING, doc="a view's label, path or selector, as current() lists it"
            ),
        ),
        returns="number",
        summary="Close every view of a selector, in your window and this turn's; documentation stays open.",
        gate=Capability(MANAGED_CONTEXT),
        handler=_close,
        dispatches_tool=False,
        errors=(ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the selector is blank"),),
    ),
    Operation(
        family="views",
        key="current",
        params=(),
        returns="OpenView[]",
        summary="The views open in your window and opened this turn, each with its cost in tokens.",
        gate=Capability(MANAGED_CONTEXT),
        handler=_current,
        dispatches_tool=False,
        aliases=(Alias("close", "views.close", "selector"),),
    ),
)
