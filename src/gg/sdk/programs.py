"""The program library's three calls (seed 000, "The three calls").

All three are gated on the `program-library` capability on the host, whatever the agent's SDK
declares. `history` describes what is held and never carries source; `get` returns the exact
source as it ran; `rerun` registers a hand-over that the loop runs once this program ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.registry import Alias, Capability, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.library import ProgramLibrary

CAPABILITY = "program-library"


def _library(scope: ProgramScope) -> ProgramLibrary:
    if scope.library is None:  # the gate admits only agents that keep a library
        raise GgDefect(FatalFault.HOST_FAULT, "programs operation reached an agent without a library")
    return scope.library


def _history(scope: ProgramScope, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for entry in _library(scope).entries:
        record: dict[str, Any] = {
            "id": entry.id,
            "turn": entry.turn,
            "lines": entry.lines,
            "chars": entry.chars,
            "ok": entry.ok,
        }
        if entry.error is not None:
            record["error"] = entry.error
        records.append(record)
    return records


def _get(scope: ProgramScope, args: Mapping[str, Any]) -> str:
    library = _library(scope)
    if not args["id"].strip():
        blank = "`id` is blank; it must be an id a receipt handed you"
        raise OperationError("get", ErrorCode.INVALID_ARGUMENT, blank)
    entry = library.get(args["id"])
    if entry is None:
        raise OperationError("get", ErrorCode.NOT_FOUND, _not_held(args["id"], library))
    return entry.source


def _not_held(program_id: str, library: ProgramLibrary) -> str:
    shown = program_id if len(program_id) <= 40 else program_id[:40] + "…"
    if not library.entries:
        return f"no program `{shown}` is held; the library holds no program yet"
    held = ", ".join(f"`{entry.id}` (turn {entry.turn})" for entry in library.entries)
    return f"no program `{shown}` is held; held: {held}"


def _rerun(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    _library(scope)
    source: str = args["source"]
    if not source.strip():
        raise OperationError("rerun", ErrorCode.INVALID_ARGUMENT, "`source` must not be blank")
    scope.declarations.hand_over(source)


PROGRAMS_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="programs",
        key="history",
        params=(),
        returns="ProgramSummary[]",
        summary="Every program still held, oldest first: id, turn, size and verdict, never the source.",
        gate=Capability(CAPABILITY),
        handler=_history,
        dispatches_tool=False,
        aliases=(Alias("source", "programs.get", "id"),),
    ),
    Operation(
        family="programs",
        key="get",
        params=(Param("id", ParamType.STRING, doc="the id a receipt handed you"),),
        returns="string",
        summary="The exact source of one held program, as it ran.",
        gate=Capability(CAPABILITY),
        handler=_get,
        dispatches_tool=False,
    ),
    Operation(
        family="programs",
        key="rerun",
        params=(Param("source", ParamType.STRING, doc="the whole program to run next, in this one's place"),),
        returns="void",
        summary="Hand over a program to run in this one's place once this one ends.",
        gate=Capability(CAPABILITY),
        handler=_rerun,
        dispatches_tool=False,
    ),
)
