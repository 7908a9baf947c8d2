"""The `views` family: what a program puts before the model for its next turn.

- `open_text(label, body)` opens a text view; its rules and caps live in `gg.state.views`.
- `open_file(path, {offset?, limit?})` reads like `files.read_file` (same record, same refusals)
  and opens a file view of that page; an image opens a view whose body says why it is not shown.
  A page over the view body cap is refused with `limit-exceeded`, never cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ApiError
from gg.sdk.files import LIMIT, OFFSET, PATH, read_region
from gg.sdk.registry import Always, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.views import FileView, Region, ViewRefusal


def _open_text(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    try:
        scope.views.open_text(args["label"], args["body"])
    except ViewRefusal as refusal:
        raise ApiError("open_text", refusal.code, refusal.message) from None


def _open_file(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    region = Region(offset=args.get("offset", 0), limit=args.get("limit"))
    record = read_region("open_file", scope.workspace, args["path"], region.offset, region.limit)
    try:
        scope.views.open_file(file_view(scope.workspace.relative(args["path"]), region, record))
    except ViewRefusal as refusal:
        raise ApiError("open_file", refusal.code, refusal.message) from None
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
)
