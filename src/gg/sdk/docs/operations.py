"""Reading the SDK's documentation: `docs.search` and `views.openDocsView`, both always bound.

Rules kept here (ranking and name lookup live in `gg.sdk.docs.index`):
- `search({query?, modules?, kind?, offset?, limit?})` needs a query or a filter (a non-empty
  `modules` or a `kind`), else `invalid-argument`; `kind` is `module`, `function` or `type`; every
  module named must be one the agent's documentation holds; `limit` defaults to 20 and is 1..100.
  It hands back `{total, offset, hits}` and opens (or replaces) the `search results` view; a
  refused search opens nothing;
- `openDocsView(target)` takes a documentation name (the guest turns an SDK function into its
  key before the call crosses) and opens that entry's docs view under its key; a name that finds
  nothing is `not-found`, with up to three close keys on an indented line; a key already opened
  opens nothing again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.prompts import render
from gg.sdk.docs.index import DocIndex, DocKind
from gg.sdk.registry import Always, ErrorDoc, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.window import ViewRefusal

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_SHOWN_CHARS = 80
MAX_SUGGESTED_CHARS = 200  # of a name that finds nothing, what close names are looked for by


def _index(scope: ProgramScope) -> DocIndex:
    if scope.surface is None:
        raise GgDefect(FatalFault.HOST_FAULT, "a documentation call reached a program without a surface")
    return scope.surface.docs


def _search(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    index = _index(scope)
    query: str = args.get("query") or ""
    modules = [_module(index, name) for name in args.get("modules") or []]
    kind = _kind(args.get("kind"))
    offset, limit = args.get("offset", 0), _limit(args.get("limit"))
    if not query.strip() and not modules and kind is None:
        raise OperationError(
            "search", ErrorCode.INVALID_ARGUMENT, "give a `query`, `modules` or a `kind` to search by"
        )
    found = index.search(query, modules, kind)
    hits = [entry.hit() for entry in found[offset : offset + limit]]
    body = render(
        "docs-search",
        total=len(found),
        asked=_asked(query, modules, kind),
        hits=hits,
        offset=offset,
        first=offset + 1,
        last=offset + len(hits),
    )
    try:
        scope.views.open_search(body)
    except ViewRefusal as refusal:
        raise OperationError("search", refusal.code, refusal.message) from None
    return {"total": len(found), "offset": offset, "hits": hits}


def _module(index: DocIndex, name: Any) -> str:
    module = index.module_named(name)
    if module is None:
        known = ", ".join(f"`{m}`" for m in index.modules())
        raise OperationError(
            "search", ErrorCode.INVALID_ARGUMENT, f"no module `{_shown(name)}`; the modules are {known}"
        )
    return module


def _kind(value: str | None) -> DocKind | None:
    if value is None:
        return None
    try:
        return DocKind(value)
    except ValueError:
        kinds = ", ".join(f"`{kind.value}`" for kind in DocKind)
        raise OperationError(
            "search", ErrorCode.INVALID_ARGUMENT, f"`kind` must be {kinds}; got `{_shown(value)}`"
        ) from None


def _limit(value: int | None) -> int:
    if value is None:
        return DEFAULT_LIMIT
    if not 1 <= value <= MAX_LIMIT:
        raise OperationError(
            "search", ErrorCode.INVALID_ARGUMENT, f"`limit` must be 1 to {MAX_LIMIT}, got {value}"
        )
    return int(value)


def _asked(query: str, modules: list[str], kind: DocKind | None) -> str:
    parts = [f'"{_shown(query)}"'] if query.strip() else []
    if modules:
        parts.append("in " + ", ".join(f"`{m}`" for m in modules))
    if kind is not None:
        parts.append(f"of kind {kind.value}")
    return " ".join(parts)


def _shown(text: str) -> str:
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS] + "…"


def _open_docs_view(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    index = _index(scope)
    target: str = args["target"]
    entry = index.find(target)
    if entry is None:
        suggestions = index.suggestions(target[:MAX_SUGGESTED_CHARS])
        message = render("docs-not-found", target=_shown(target), suggestions=suggestions)
        raise OperationError("open_docs_view", ErrorCode.NOT_FOUND, message)
    try:
        scope.views.open_docs(entry.key, entry.text())
    except ViewRefusal as refusal:
        raise OperationError("open_docs_view", refusal.code, refusal.message) from None


DOCS_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="docs",
        key="search",
        params=(
            Param("query", ParamType.STRING, required=False, doc="words to look for"),
            Param(
                "modules",
                ParamType.STRING_LIST,
                required=False,
                doc="only these modules (`files`, `lib:csvTools`)",
            ),
            Param("kind", ParamType.STRING, required=False, doc="only this kind: module, function or type"),
            Param("offset", ParamType.U32, required=False, doc="matches to skip"),
            Param("limit", ParamType.U32, required=False, doc="most hits to return, 1 to 100 (default 20)"),
        ),
        returns="DocSearch",
        summary="Search the documentation of what you may call; the hits also open as a view.",
        gate=Always(),
        handler=_search,
        dispatches_tool=False,
        errors=(
            ErrorDoc(
                ErrorCode.INVALID_ARGUMENT,
                "no query and no filter, an unknown module or kind, or a limit out of range",
            ),
        ),
    ),
    Operation(
        family="views",
        key="open_docs_view",
        params=(
            Param(
                "target",
                ParamType.DOC_TARGET,
                doc="a function of the SDK, or a name such as `files.readFile`",
            ),
        ),
        returns="void",
        summary="Show the documentation of a function, type or module to the model on its next turn.",
        gate=Always(),
        handler=_open_docs_view,
        dispatches_tool=False,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "nothing is documented under that name; close names are suggested"),
            ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the target is neither an SDK function nor a name"),
        ),
    ),
)
