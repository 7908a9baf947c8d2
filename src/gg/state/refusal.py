"""A state rule's refusal: what a store will not do, and why, as a program will read it.

- A store's rules know neither which SDK call reached them nor the arm of the program that made
  it, so they raise `Refusal(code, wording)`; the operation that called them turns it into the
  program's `ApiError` under its own key, worded for the program's arm (`at(operation, spell)`).
- A sentence that names an operation or an argument is a `Wording`: its template, with each
  operation kept as its key (`memories.write_memory`) and each argument as its snake_case name
  (`in_scope`) until the sentence is read; `spell` (a `gg.state.module.ArmNames`) then spells
  them as the arm writes them (`gg.memories.writeMemory` and `inScope`, or as they are). An
  operation the holder's profile withholds (its ablation) is never named.
- `str(refusal)` is its sentence with each operation as its key and each argument as its
  snake_case name: for gg's own logs, never for a program.
- A `PlainRefusal` (a path, a view) names nothing an arm spells its own way: its `message` is what
  every arm reads.
- A refused mutation has changed nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gg import prompts
from gg.errors import ErrorCode, OperationError
from gg.state.module import withholds

if TYPE_CHECKING:
    from gg.state.module import ArmNames


@dataclass(frozen=True)
class Wording:
    """A refusal's sentence (`prompts/templates/<template>.j2`): its `values`, and the operations
    (`calls`, by key) and the arguments (`arguments`, snake_case) it names, each under the value
    it fills."""

    template: str
    values: Mapping[str, object] = field(default_factory=dict[str, object])
    calls: Mapping[str, str] = field(default_factory=dict[str, str])
    arguments: Mapping[str, str] = field(default_factory=dict[str, str])

    def spelt(self, spell: ArmNames) -> str:
        """The sentence for the arm `spell` spells for; an operation its profile withholds is
        handed as "" (the template leaves out what would name it)."""
        calls = {value: "" if withholds(spell, key) else spell(key) for value, key in self.calls.items()}
        arguments = {value: spell.argument(name) for value, name in self.arguments.items()}
        return prompts.render(self.template, **self.values, **calls, **arguments)


def worded(template: str, /, arguments: Mapping[str, str] | None = None, **values: object) -> Wording:
    """A `Wording` of `template` filled with `values`, naming `arguments` (value -> snake_case)."""
    return Wording(template, values, arguments=arguments or {})


class _Unspelt:
    """Names as gg itself holds them: an operation by its key, an argument in snake_case."""

    def __call__(self, key: str, /) -> str:
        return key

    def argument(self, name: str) -> str:
        return name


class Refusal(Exception):
    def __init__(self, code: ErrorCode, wording: str | Wording) -> None:
        super().__init__(wording if isinstance(wording, str) else wording.spelt(_Unspelt()))
        self.code = code
        self.wording = wording

    def said(self, spell: ArmNames) -> str:
        """What the program reads, each operation and argument named as `spell` spells it."""
        wording = self.wording
        return wording if isinstance(wording, str) else wording.spelt(spell)

    def at(self, operation: str, spell: ArmNames) -> OperationError:
        """The refusal as the program sees it, from the operation `operation` (`add_task`), worded
        for the program's arm (`spell`)."""
        return OperationError(operation, self.code, self.said(spell))


class PlainRefusal(Refusal):
    """A refusal whose sentence every arm reads alike (`message`)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(code, message)
        self.message = message
