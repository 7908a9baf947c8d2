"""The memories family (capability `memories`): the calls on the store the program's holder holds.

Rules kept here (the store's own rules are `gg.state.memories`'):
- every call is gated on the capability, then on the holder: a call its strategy lacks is
  `unavailable` (naming the calls it has), and a write by a holder that may only read is `refused`;
- `writeMemory`, `updateMemory` and `createMemory` take `{name, description, body, code?, onUse?}`
  (an update replaces the whole memory: a code half it leaves out is cleared); `editMemory` takes
  `{name, search, replace}`; `readMemory(name)` answers the body; `deleteMemory(name)`;
  `searchMemories(keywords)` answers the hits, best first, each with `read()`, which reads the
  memory it names (`readMemory(hit.name)`). Every mutation answers `MemoryUsage`;
- `code` and `onUse` are kept with the memory (each at most 32,768 characters); nothing loads or
  runs them yet;
- the store's refusals keep their codes: `invalid-argument`, `not-found`, `conflict` (a taken name,
  an ambiguous edit), `limit-exceeded` (a cap; nothing is ever truncated);
- every call a message names is spelt as the program's arm spells it (`ProgramScope.spell`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from gg import prompts
from gg.config.memories import Call
from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.registry import Alias, Capability, ErrorDoc, Handler, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.memories import CallNames, Draft, MemoryHolder, MemoryRefusal, call_names, named_calls

CAPABILITY = "memories"
FAMILY = "memories"
_T = TypeVar("_T")


def _names(scope: ProgramScope, call: Call) -> CallNames:
    return call_names(scope.spelling(f"{FAMILY}.{call.value}"))


def _holder(scope: ProgramScope, call: Call) -> MemoryHolder:
    holder = scope.memories
    if holder is None:  # the gate admits only agents whose profile enables memories
        raise GgDefect(FatalFault.HOST_FAULT, f"memories.{call.value} reached an agent holding no memories")
    if call not in holder.strategy.calls:
        names = _names(scope, call)
        not_offered = prompts.render(
            "memories-not-offered",
            call=names[call],
            strategy=holder.strategy.value,
            calls=[names[c] for c in holder.strategy.calls if c in names],
        )
        raise OperationError(call.value, ErrorCode.UNAVAILABLE, not_offered)
    if not holder.offers(call):
        names = _names(scope, call)
        reads = prompts.render("memories-read-only", calls=[names[c] for c in named_calls(holder, names)])
        raise OperationError(call.value, ErrorCode.REFUSED, reads)
    return holder


def _answer(scope: ProgramScope, call: Call, act: Callable[[], _T]) -> _T:
    try:
        return act()
    except MemoryRefusal as refusal:
        raise refusal.at(call.value, scope.spelling(call.key)) from None


def _draft(args: Mapping[str, Any]) -> Draft:
    return Draft(
        args.get("name"), args.get("description"), args.get("body"), args.get("code"), args.get("onUse")
    )


def _write(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    holder = _holder(scope, Call.WRITE)
    return _answer(scope, Call.WRITE, lambda: holder.store.write(holder.agent_id, _draft(args)))


def _update(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    holder = _holder(scope, Call.UPDATE)
    return _answer(scope, Call.UPDATE, lambda: holder.store.update(holder.agent_id, _draft(args)))


def _create(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    holder = _holder(scope, Call.CREATE)
    return _answer(scope, Call.CREATE, lambda: holder.store.create(holder.agent_id, _draft(args)))


def _edit(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    holder = _holder(scope, Call.EDIT)
    search: str = args.get("search", "")
    replace: str | None = args.get("replace")
    if replace is None:
        raise OperationError(Call.EDIT.value, ErrorCode.INVALID_ARGUMENT, "`replace` is required")
    return _answer(
        scope, Call.EDIT, lambda: holder.store.edit(holder.agent_id, args.get("name"), search, replace)
    )


def _read(scope: ProgramScope, args: Mapping[str, Any]) -> str:
    holder = _holder(scope, Call.READ)
    return _answer(scope, Call.READ, lambda: holder.store.read(args["name"]).body)


def _delete(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    holder = _holder(scope, Call.DELETE)
    return _answer(scope, Call.DELETE, lambda: holder.store.delete(holder.agent_id, args["name"]))


def _search(scope: ProgramScope, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    holder = _holder(scope, Call.SEARCH)
    return _answer(
        scope, Call.SEARCH, lambda: [hit.to_wire() for hit in holder.store.search(args["keywords"])]
    )


def _option(name: str, doc: str) -> Param:
    return Param(name, ParamType.STRING, required=False, doc=doc)


_NAME = _option("name", "its name: up to 64 letters, digits, `-`, `_` or `.` (required)")
_BODY = _option("body", "what it says (required)")
_CODE = (
    _option("code", "a code module kept with it, at most 32,768 characters; left out: none"),
    _option("on_use", "a script kept with it, at most 32,768 characters; left out: none"),
)
_USAGE = "MemoryUsage"
_TAKEN = ErrorDoc(ErrorCode.CONFLICT, "a memory of that name exists")
_MISSING = ErrorDoc(ErrorCode.NOT_FOUND, "no memory has that name")
_BAD = ErrorDoc(ErrorCode.INVALID_ARGUMENT, "a name that is no slug, or a required field left blank")
_OVER = ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "it would go over one of your memory caps; nothing is cut")
_NOT_OFFERED = ErrorDoc(ErrorCode.UNAVAILABLE, "your memories' strategy has no such call")
_READ_ONLY = ErrorDoc(ErrorCode.REFUSED, "you may read these memories, not change them")


def _operation(
    key: Call, params: tuple[Param, ...], returns: str, summary: str, handler: Handler, *errors: ErrorDoc
) -> Operation:
    return Operation(
        family=FAMILY,
        key=key.value,
        params=params,
        returns=returns,
        summary=summary,
        gate=Capability(CAPABILITY),
        handler=handler,
        errors=(*errors, _NOT_OFFERED, *(() if key.reads else (_READ_ONLY,))),
        aliases=_HIT_READ if key is Call.SEARCH else (),
    )


_HIT_READ = (Alias("read", Call.READ.key, "name"),)  # `hit.read()` reads the memory a search found


_DESCRIBED = _option("description", "one line saying what it is for (required)")
_POSITIONAL_NAME = Param("name", ParamType.STRING, doc="the memory's name")

MEMORIES_OPERATIONS: tuple[Operation, ...] = (
    _operation(
        Call.WRITE,
        (_NAME, _DESCRIBED, _BODY, *_CODE),
        _USAGE,
        "Write a new memory (scratchpad).",
        _write,
        _BAD,
        _TAKEN,
        _OVER,
    ),
    _operation(
        Call.UPDATE,
        (_NAME, _DESCRIBED, _BODY, *_CODE),
        _USAGE,
        "Replace a memory whole: its description, body and code (scratchpad).",
        _update,
        _BAD,
        _MISSING,
        _OVER,
    ),
    _operation(
        Call.CREATE,
        (
            _NAME,
            _option("description", "one line for the index (required under markdown)"),
            _BODY,
            *_CODE,
        ),
        _USAGE,
        "Create a new memory (markdown, keyword-search).",
        _create,
        _BAD,
        _TAKEN,
        _OVER,
    ),
    _operation(
        Call.READ,
        (_POSITIONAL_NAME,),
        "string",
        "Read a memory's body (markdown, keyword-search).",
        _read,
        _MISSING,
    ),
    _operation(
        Call.EDIT,
        (
            _NAME,
            _option("search", "text that occurs exactly once in the body (required)"),
            _option("replace", "what replaces it (required)"),
        ),
        _USAGE,
        "Replace the one occurrence of a text in a memory's body (markdown, keyword-search).",
        _edit,
        ErrorDoc(ErrorCode.NOT_FOUND, "no memory has that name, or the text does not occur in it"),
        ErrorDoc(ErrorCode.CONFLICT, "the text occurs more than once"),
        ErrorDoc(ErrorCode.INVALID_ARGUMENT, "the edit would leave the memory empty: delete it instead"),
        _OVER,
    ),
    _operation(
        Call.DELETE,
        (_POSITIONAL_NAME,),
        _USAGE,
        "Delete a memory.",
        _delete,
        _MISSING,
    ),
    _operation(
        Call.SEARCH,
        (Param("keywords", ParamType.STRING_LIST, doc="words to look for, in any case"),),
        "MemoryHit[]",
        "Find memories by keywords, best first (keyword-search).",
        _search,
        ErrorDoc(ErrorCode.INVALID_ARGUMENT, "no keyword is left once blanks are dropped"),
    ),
)
