"""`context.compact`: a deferred declaration (seed 001, "Four declarations ... applied once the
turn closes"). The call validates and returns; the loop rewrites the window after the turn, from
the last compaction declared in it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ApiError, ErrorCode
from gg.sdk.registry import Always, Operation, Param, ParamType
from gg.sdk.scope import Compaction, ProgramScope


def _compact(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    summary: str = args["summary"]
    if not summary.strip():
        raise ApiError("compact", ErrorCode.INVALID_ARGUMENT, "`summary` must not be blank")
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
    ),
)
