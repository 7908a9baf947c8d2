"""A family of host functions, as a person declares one (`gg.family`):

    inventory = gg.family("inventory", doc="The shop's stock.")

    @inventory.operation
    def count(sku: str, *, warehouse: str | None = None) -> int:
        "How many of `sku` are in stock."

Each decorated function is declared from its annotations and docstring
(`gg.sdk.host.declaration`) the moment it is decorated, so a mistake in its types is raised where
it was written, and the decorator hands the function back unchanged. A family is handed to a run
(`gg.run(config, families=[inventory])`) or named by a profile (`"families": ["inventory"]`, or
`"package.module:attribute"` for one the command line imports).

Rules kept here:
- a family's name is snake_case, no reserved word, and none of gg's own modules (`files`,
  `views`, ... `core`, `lib`); its doc is its one-line brief in the system prompt;
- a function's name is unique in its family; an `async def` is awaited on the run's own loop;
- each call of a family's function may take its `timeout_secs` (`DEFAULT_TIMEOUT_SECS` unless the
  family says otherwise; above 0, at most a day), and never more than is left of the run's time
  (`gg.sdk.host.calling`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from gg.sdk.host.declaration import FamilyDeclaration, FunctionDeclaration, check_name, declare_function

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_TIMEOUT_SECS = 60.0  # how long one call of a host function may take, unless its family says
MAX_TIMEOUT_SECS = 86_400.0  # a day

RESERVED_FAMILIES = frozenset(
    {
        "files",
        "shell",
        "views",
        "docs",
        "skills",
        "context",
        "board",
        "delegation",
        "programs",
        "session",
        "tasks",
        "memories",
        "core",
        "lib",
        "gg",
    }
)
"""gg's own modules, present and planned, and the names its SDKs keep: no host family takes one."""


@dataclass(frozen=True)
class HostFunction:
    declaration: FunctionDeclaration
    function: Callable[..., Any]
    timeout_secs: float = DEFAULT_TIMEOUT_SECS  # its family's: the longest one call may take


class HostFamily:
    """Host functions a program reaches as `gg.<name>` (see the module docstring)."""

    def __init__(self, name: str, *, doc: str, timeout_secs: float = DEFAULT_TIMEOUT_SECS) -> None:
        where = f"host family `{name}`"
        check_name(name, where)
        if name in RESERVED_FAMILIES:
            raise ValueError(f"{where}: `{name}` is one of gg's own modules; choose another name")
        if not doc.strip():
            raise ValueError(f"{where} needs a `doc`: the one line the model reads about it")
        self.name = name
        self.doc = " ".join(doc.split())
        self.timeout_secs = _checked_timeout(timeout_secs, where)
        self._functions: dict[str, HostFunction] = {}

    @overload
    def operation(self, function: F, /) -> F: ...

    @overload
    def operation(
        self,
        /,
        *,
        name: str | None = None,
        summary: str | None = None,
        errors: Mapping[str, str] | None = None,
    ) -> Callable[[F], F]: ...

    def operation(
        self,
        function: F | None = None,
        /,
        *,
        name: str | None = None,
        summary: str | None = None,
        errors: Mapping[str, str] | None = None,
    ) -> F | Callable[[F], F]:
        """Declare `function` as a host function of this family; used bare (`@inventory.operation`)
        or with options (`@inventory.operation(errors={"not-found": "no item has this SKU"})`).
        `name` replaces the function's own name, `summary` its docstring's first paragraph."""

        def declare(target: F) -> F:
            declaration = declare_function(target, self.name, name=name, summary=summary, errors=errors)
            if declaration.name in self._functions:
                raise ValueError(f"host family `{self.name}` already declares `{declaration.name}`")
            self._functions[declaration.name] = HostFunction(declaration, target, self.timeout_secs)
            return target

        return declare if function is None else declare(function)

    @property
    def functions(self) -> tuple[HostFunction, ...]:
        return tuple(self._functions.values())

    def function(self, name: str) -> HostFunction | None:
        return self._functions.get(name)

    @property
    def declaration(self) -> FamilyDeclaration:
        return FamilyDeclaration(self.name, self.doc, tuple(f.declaration for f in self._functions.values()))

    def __repr__(self) -> str:
        names = ", ".join(self._functions) or "no functions"
        return f"<gg host family {self.name!r}: {names}>"


def _checked_timeout(secs: float, where: str) -> float:
    number = isinstance(secs, int | float) and not isinstance(secs, bool)  # pyright: ignore[reportUnnecessaryIsInstance]
    if not number or not math.isfinite(secs) or not 0 < secs <= MAX_TIMEOUT_SECS:
        raise ValueError(f"{where}: `timeout_secs` must be a number of seconds above 0, at most a day")
    return float(secs)


def family(name: str, *, doc: str, timeout_secs: float = DEFAULT_TIMEOUT_SECS) -> HostFamily:
    """A new family of host functions named `name` (what programs import), briefed by `doc`; one
    call of any of its functions may take `timeout_secs` (60 unless given), and never more than
    is left of the run's time."""
    return HostFamily(name, doc=doc, timeout_secs=timeout_secs)
