"""A host family's declaration as registry entries: one `Operation` per function and one plain
`Record` per record its functions name, so the guest SDKs, `gg.d.ts`, the Python stubs, the
signature catalogues, the documentation and `docs.search` carry them like gg's own.

Rules kept here:
- `<family>.<function>` is the wire key; parameters in place stay in place (one with a default is
  optional), keyword-only ones go in the options object; every parameter is judged by its shape on
  the host (`ParamType.ANY` to the guests, which hand plain data across);
- the result is spelled `void` when the function returns nothing;
- each call is gated on `host-functions:<family>`, counts as a tool call and waits externally
  (its time is off the program's clock);
- each function documents the errors it declares, then `invalid-argument` and `other`;
- a record belongs to the first family whose functions name it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gg.config.catalogue import HOST_FAMILY_GRANT
from gg.errors import ErrorCode
from gg.sdk.host.declaration import FamilyDeclaration, FunctionDeclaration
from gg.sdk.registry import Capability, ErrorDoc, Handler, Operation, Param, ParamType
from gg.sdk.shapes import RecordShape, ts
from gg.sdk.types import Field, Record

_ALWAYS = (
    ErrorDoc(ErrorCode.INVALID_ARGUMENT, "an argument does not match the type the function declares"),
    ErrorDoc(ErrorCode.OTHER, "the function itself failed; the message says how"),
)


HandlerOf = Callable[[FunctionDeclaration], Handler]


@dataclass(frozen=True)
class HostEntries:
    """What host families add to the registry: operations, records and briefs, in family order."""

    operations: tuple[Operation, ...] = ()
    types: tuple[Record, ...] = ()
    briefs: tuple[tuple[str, str], ...] = ()


def host_entries(families: Sequence[tuple[FamilyDeclaration, HandlerOf]]) -> HostEntries:
    """The registry entries of `families`, each function served by its family's `handler_of`."""
    operations: list[Operation] = []
    types: list[Record] = []
    for family, handler_of in families:
        operations.extend(family_operations(family, handler_of))
        types.extend(family_records(family, [t.name for t in types]))
    return HostEntries(tuple(operations), tuple(types), tuple((f.name, f.doc) for f, _ in families))


def family_operations(family: FamilyDeclaration, handler_of: HandlerOf) -> list[Operation]:
    """The operations of `family`, each served by `handler_of(its declaration)`."""
    gate = Capability(HOST_FAMILY_GRANT.format(family=family.name))
    return [_operation(family.name, function, gate, handler_of(function)) for function in family.functions]


def _operation(family: str, function: FunctionDeclaration, gate: Capability, handler: Handler) -> Operation:
    params = tuple(
        Param(
            p.name,
            ParamType.ANY,
            required=p.required,
            doc=p.doc,
            positional=not p.keyword and not p.required,
            shape=p.shape,
        )
        for p in function.params
    )
    declared = tuple(ErrorDoc(code, when) for code, when in function.errors)
    return Operation(
        family=family,
        key=function.name,
        params=params,
        returns="void" if function.returns_nothing else ts(function.result),
        summary=function.summary,
        gate=gate,
        handler=handler,
        errors=(*declared, *(e for e in _ALWAYS if e.code not in {d.code for d in declared})),
        waits_externally=True,
        result=function.result,
    )


def family_records(family: FamilyDeclaration, taken: Iterable[str]) -> list[Record]:
    """The records `family`'s functions name that no name in `taken` already declares."""
    skip = set(taken)
    found: list[Record] = []
    for shape in family.records():
        if shape.name not in skip:
            skip.add(shape.name)
            found.append(_record(family.name, shape))
    return found


def _record(family: str, shape: RecordShape) -> Record:
    fields = tuple(
        Field(f.name, ts(f.shape), f.doc, optional=not f.required, shape=f.shape) for f in shape.fields
    )
    return Record(shape.name, family, shape.doc, fields, plain=True)
