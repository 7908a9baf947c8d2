"""The operation registry: one declaration per SDK call, read by every part that needs it.

An `Operation` names its family and key (`files.read_file`), its parameters, what it returns, who
may call it (`Gate`) and the host function that performs it. The membrane gates, validates and
dispatches from it; each arm's guest SDK is generated from it; the prompt's module list and the
docs are read from it. Nothing about an operation is spelled twice.

Spelling rules, applied here and nowhere else:
- wire key: `<family>.<key>` in snake_case (`files.read_file`);
- JavaScript name: the key in camelCase (`readFile`); argument and result fields on the wire are
  camelCase (`maxLineChars`, `firstLine`);
- required parameters are positional, optional ones travel in a trailing options object (JS) or
  as keyword-only arguments (Python);
- a sentence a program reads names an operation or an argument as the program's arm writes it
  (`ArmSpelling`: `gg.files.editFile` and `oldString`, or `gg.files.edit_file` and `old_string`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from gg.config.catalogue import Role
from gg.errors import ErrorCode
from gg.sdk.shapes import Shape, named
from gg.sdk.types import TypeDecl, by_name, names_in
from gg.wire import camel, snake

if TYPE_CHECKING:
    from gg.sdk.scope import ProgramScope

U32_MAX = 4_294_967_295
PYTHON_ARMS = frozenset({"python", "python-typed"})  # the arms that spell names in snake_case


def spelled(name: str, language: str) -> str:
    """A snake_case name (`max_items`) as `language`'s arm writes it: as it is (Python) or in
    camelCase (`maxItems`, JavaScript and TypeScript)."""
    return name if language in PYTHON_ARMS else camel(name)


def written(wire: str, language: str) -> str:
    """A field as it crossed the wire (`maxItems`, or any key a call carried) as `language`'s arm
    wrote it: in snake_case (Python, whose guest spells it for the wire) or as it is."""
    return snake(wire) if language in PYTHON_ARMS else wire


class ParamType(StrEnum):
    """What a parameter accepts; the guest and the membrane check the same rule."""

    STRING = "string"
    U32 = "u32"  # a whole number in 0..4294967295
    COUNT = "count"  # a whole number in 1..4294967295 (a page's most lines, say)
    POSITIVE_NUMBER = "positiveNumber"  # a finite number above zero, fractions allowed
    STRING_LIST = "string[]"
    ANY = "any"  # checked by the operation itself, or by the parameter's shape
    DOC_TARGET = "docTarget"  # an SDK function or a documentation name; crosses as the name
    TURN_SPANS = "turnSpan[]"  # a list of `{from, to}` turn numbers, each a u32
    CLEARABLE_STRING = "string?"  # a string, or null to clear what it sets (Python clears with "")


# The one home of each whole-number type's range: the guests check it and every refusal states it.
WHOLE_RANGES = {ParamType.U32: (0, U32_MAX), ParamType.COUNT: (1, U32_MAX)}


@dataclass(frozen=True)
class Always:
    """Bound for every agent."""


@dataclass(frozen=True)
class Capability:
    """Bound when the agent's profile enables capability `id`."""

    id: str


@dataclass(frozen=True)
class Ending:
    """An ending call: bound for agents of `role` only."""

    role: Role


STANDS_IN_A_STATE = "machine-state"
"""Held by an agent standing in a machine's state with edges out; no profile can enable it."""


@dataclass(frozen=True)
class Machine:
    """Bound for an agent standing in a machine's state with edges out (`STANDS_IN_A_STATE`)."""


Gate = Always | Capability | Ending | Machine


def is_bound(gate: Gate, role: Role, capabilities: frozenset[str]) -> bool:
    """Whether an agent of `role` holding `capabilities` may make calls behind `gate`."""
    match gate:
        case Always():
            return True
        case Ending(role=own):
            return own is role
        case Capability(id=capability):
            return capability in capabilities
        case Machine():
            return STANDS_IN_A_STATE in capabilities


@dataclass(frozen=True)
class Param:
    """One argument. Required ones are written in place; an optional one goes in the options
    object (JS) or is keyword-only (Python), unless `positional` keeps it in place (`listDir(path?)`)."""

    name: str  # snake_case, as Python spells it; the wire spells it camelCase
    type: ParamType
    required: bool = True
    doc: str = ""
    positional: bool = False
    checked_by_sdk: bool = False  # a mistyped value is an `invalid-argument` ApiError, not a TypeError
    shape: Shape | None = None  # a host function's parameter (type `ANY`): what the membrane judges

    @property
    def in_place(self) -> bool:
        return self.required or self.positional

    @property
    def wire(self) -> str:
        return camel(self.name)

    def spelled(self, language: str) -> str:
        """The parameter's name as the agent's arm writes it: `max_items` (Python) or `maxItems`."""
        return spelled(self.name, language)


@dataclass(frozen=True)
class Alias:
    """A convenience method on each record of a result (`entry.source()` calls `programs.get`)."""

    method: str  # snake_case method name
    operation: str  # wire key of the operation it calls
    field: str  # the record field passed as that operation's first argument


@dataclass(frozen=True)
class ErrorDoc:
    """One way an operation fails, for its documentation: the code and when it happens."""

    code: ErrorCode
    when: str


Handler = Callable[["ProgramScope", Mapping[str, Any]], Any]


class LastSeen(Protocol):
    """Where the run keeps the last result it saw of each operation whose result is unknown
    (`gg.sdk.sighting.Sightings`): `(value,)`, or None before the first."""

    def last(self, operation: str) -> tuple[Any] | None: ...


@dataclass(frozen=True)
class Operation:
    family: str
    key: str
    params: tuple[Param, ...]
    returns: str  # TypeScript spelling of the result, for docs
    summary: str
    gate: Gate
    handler: Handler = field(compare=False, repr=False)
    dispatches_tool: bool = True  # counted in `toolCalls` (views, session, programs are not)
    aliases: tuple[Alias, ...] = ()
    errors: tuple[ErrorDoc, ...] = ()
    waits_externally: bool = False  # time in the call is off the program's clock (a shell, a sub-agent)
    result: Shape | None = None  # a host function's result; `returns` is then its TypeScript spelling
    sightings: LastSeen | None = field(default=None, compare=False, repr=False)  # a result declared
    # unknown: where the run keeps the last one it saw, which the operation's docs page shows

    @property
    def wire(self) -> str:
        return f"{self.family}.{self.key}"

    def returned_names(self) -> list[str]:
        """The declared-type names the result refers to."""
        return named(self.result) if self.result is not None else names_in(self.returns)

    @property
    def js_name(self) -> str:
        return camel(self.key)

    def sdk_name(self, language: str) -> str:
        """The function's name in the agent's arm: `readFile` (JavaScript, TypeScript) or
        `read_file` (Python, checked or not)."""
        return self.key if language in PYTHON_ARMS else self.js_name

    def qualified(self, language: str) -> str:
        """The fully qualified name gg prints, spelled for the agent's arm: `gg.files.readFile`
        or `gg.files.read_file`."""
        return f"gg.{self.family}.{self.sdk_name(language)}"


class Registry:
    """Every operation gg offers, by wire key, in declaration order, the result types they
    hand back (`gg.sdk.types`), by name, and each family's one-line brief; and the operations a
    profile's ablation withholds (`gg.sdk.ablation`), which it neither offers nor lists but still
    names when a program calls one (`held_back`)."""

    def __init__(
        self,
        operations: Iterable[Operation],
        types: Iterable[TypeDecl] = (),
        briefs: Mapping[str, str] | None = None,
        withheld: Iterable[Operation] = (),
    ) -> None:
        self._by_wire: dict[str, Operation] = {}
        for op in operations:
            if op.wire in self._by_wire:
                raise ValueError(f"operation {op.wire} declared twice")
            self._by_wire[op.wire] = op
        self.types: dict[str, TypeDecl] = by_name(types)
        self.briefs: dict[str, str] = dict(briefs or {})
        self._withheld = {op.wire: op for op in withheld}

    def held_back(self, wire: str) -> Operation | None:
        """The operation of key `wire` when this registry withholds it."""
        return self._withheld.get(wire)

    @property
    def withheld(self) -> tuple[str, ...]:
        """The wire keys this registry withholds, in declaration order."""
        return tuple(self._withheld)

    def brief(self, family: str) -> str:
        """The family's one line for the module list and its documentation ("" when none)."""
        return self.briefs.get(family, "")

    def get(self, wire: str) -> Operation | None:
        return self._by_wire.get(wire)

    def spelling(self, language: str) -> ArmSpelling:
        """How `language`'s arm spells the operations and arguments a sentence names."""
        return ArmSpelling(self, language)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._by_wire.values())

    def families(self) -> list[str]:
        return list(dict.fromkeys(op.family for op in self._by_wire.values()))

    def aliases(self) -> list[tuple[Operation, Alias]]:
        """Each alias method with the first operation declaring it: operations returning the same
        records with the same alias (`spawn_subagent` and `fork`: `SubagentHandle.send`) give
        those records the method once."""
        kept: dict[tuple[Alias, tuple[str, ...]], Operation] = {}
        for op in self._by_wire.values():
            for alias in op.aliases:
                kept.setdefault((alias, tuple(op.returned_names())), op)
        return [(op, alias) for (alias, _), op in kept.items()]

    def in_family(self, family: str) -> list[Operation]:
        return [op for op in self._by_wire.values() if op.family == family]

    def bound(self, role: Role, capabilities: frozenset[str]) -> list[Operation]:
        """What an agent of `role` holding `capabilities` may call, in declaration order."""
        return [op for op in self._by_wire.values() if is_bound(op.gate, role, capabilities)]


@dataclass(frozen=True)
class ArmSpelling:
    """How one arm spells what a sentence a program reads names. Called with an operation's wire
    key it gives the operation's name (`memories.read_memory` -> `gg.memories.readMemory`; a key
    the registry does not hold is only prefixed, `gg.<key>`), so it is a `gg.state.module.Spelling`;
    `argument` gives an argument's (`old_string` -> `oldString` or `old_string`); `withholds` says
    whether the profile's ablation withholds an operation, which no sentence then names."""

    registry: Registry = field(repr=False)
    language: str

    def __call__(self, wire: str) -> str:
        op = self.registry.get(wire)
        return op.qualified(self.language) if op is not None else f"gg.{wire}"

    def argument(self, name: str) -> str:
        """The snake_case argument `name` as this arm writes it."""
        return spelled(name, self.language)

    def withholds(self, wire: str) -> bool:
        """Whether the profile this registry serves withholds the operation of key `wire`."""
        return self.registry.held_back(wire) is not None
