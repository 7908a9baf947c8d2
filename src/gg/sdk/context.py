"""`context.compact`: a deferred declaration (seed 001, "Four declarations ... applied once the
turn closes"). The call validates and returns; the loop rewrites the window after the turn, from
the last compaction declared in it.

A summary is read like a view body and bounded like one: at most `MAX_SUMMARY_BYTES` (65,536)
UTF-8 bytes, a longer or a blank one refused whole as `invalid-argument`, never cut."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ApiError, ErrorCode
from gg.sdk.registry import Always, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import Compaction, ProgramScope
from gg.state.views import MAX_SUMMARY_BYTES, wire_size


def _compact(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    """A blank summary, or one over the cap, is refused whole: a summary is never cut."""
    summary: str = args["summary"]
    if not summary.strip():
        raise ApiError("compact", ErrorCode.INVALID_ARGUMENT, "`summary` must not be blank")
    size = wire_size(summary, MAX_SUMMARY_BYTES)
    if size > MAX_SUMMARY_BYTES:
        raise ApiError(
            "compact",
            ErrorCode.INVALID_ARGUMENT,
            f"`summary` is {size} bytes, over the {MAX_SUMMARY_BYTES}-byte cap; write a shorter one",
        )
    files: list[str] = args.get("files", [])
    scope.deferred.compact(Compaction(summary, tuple(files)))


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
)
