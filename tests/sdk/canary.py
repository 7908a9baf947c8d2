"""The attack cases' canary fixture (shared/cases/attacks/README.md), built under a test's tmp_path,
and a way to call `files` and `views` operations as a program would."""

from __future__ import annotations

import glob
import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gg.config.catalogue import Role
from gg.errors import OperationError
from gg.sdk.catalogue import default_registry
from gg.sdk.files import FILES_OPERATIONS
from gg.sdk.listing import LISTING_OPERATIONS
from gg.sdk.scope import ProgramScope
from gg.sdk.views import VIEWS_OPERATIONS
from gg.sdk.writing import WRITING_OPERATIONS
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.attack_fixture import build_canary, substitute

FAMILIES = (*FILES_OPERATIONS, *WRITING_OPERATIONS, *LISTING_OPERATIONS, *VIEWS_OPERATIONS)
OPERATIONS = {op.wire: op for op in FAMILIES}
CANARY_MARKS = ("CANARY-", "root:x:0:0", "canary-outside-listing-7c1e")


@dataclass
class Canary:
    root: Path
    scope: ProgramScope = field(init=False)

    def __post_init__(self) -> None:
        build_canary(self.root)
        spell = default_registry().spelling("javascript")  # the wire's own spelling: camelCase
        self.scope = ProgramScope(
            "root", Role.STANDARD, frozenset(), Workspace(self.ws), ViewSet(), turn=1, spell=spell
        )

    @property
    def ws(self) -> Path:
        return self.root / "ws"

    def sub(self, text: str) -> str:
        """Replace the cases' tokens in `text`."""
        return substitute(text, self.root)

    def link(self, path: str, target: str) -> None:
        (self.root / path).symlink_to(self.sub(target))

    def call(self, wire: str, **args: Any) -> Any:
        """Call an operation with wire (camelCase) arguments, tokens replaced in strings."""
        values = {key: self.sub(value) if isinstance(value, str) else value for key, value in args.items()}
        return OPERATIONS[wire].handler(self.scope, values)

    def attempt(self, wire: str, **args: Any) -> Outcome:
        try:
            return Outcome(value=self.call(wire, **args))
        except OperationError as error:
            return Outcome(error=error)

    def outside_state(self) -> dict[str, str]:
        """Every entry under the case root except `ws/`, with its content hash or link target."""
        state: dict[str, str] = {}
        for base, dirs, names in os.walk(self.root):
            if Path(base) == self.root:
                dirs.remove("ws")
            for name in dirs + names:
                path = Path(base) / name
                key = str(path.relative_to(self.root))
                if path.is_symlink():
                    state[key] = "link:" + os.readlink(path)
                elif path.is_file():
                    state[key] = hashlib.sha256(path.read_bytes()).hexdigest()
                else:
                    state[key] = "dir"
        return state


@dataclass
class Outcome:
    value: Any = None
    error: OperationError | None = None

    @property
    def code(self) -> str | None:
        return None if self.error is None else self.error.code.value

    def shape(self, path: str) -> str:
        """The refusal with the path blanked, as the existence-oracle cases compare them."""
        assert self.error is not None, f"expected a refusal, got {self.value!r}"
        return f"{self.error.operation}/{self.code}/{self.error.message.replace(path, '<P>')}"


def leaks(value: object, root: Path, written: str = "") -> list[str]:
    """The canary marks, or the host path of the case root, found in `value`'s text once the path
    the program wrote (`written`, tokens replaced) is taken out of it."""
    text = repr(value.to_wire() if isinstance(value, OperationError) else value)
    if written:
        text = text.replace(written, "")
    found = [mark for mark in CANARY_MARKS if mark in text]
    return [*found, "host path"] if str(root) in text else found


REFUSED = {"invalid-argument", "not-found", "refused"}


def assert_refused_without_leaks(case: Canary, wire: str, paths: Iterable[str], **extra: Any) -> None:
    """Each call is refused, and its refusal holds no canary and no host path it was not given."""
    for path in paths:
        outcome = case.attempt(wire, path=path, **extra)
        assert outcome.code in REFUSED, f"{wire}({path!r}) gave {outcome.value!r}"
        assert outcome.error is not None
        assert leaks(outcome.error, case.root, case.sub(path)) == [], (path, outcome.error.message)


def assert_outside_unchanged(case: Canary, before: dict[str, str]) -> None:
    assert case.outside_state() == before
    assert glob.glob("/tmp/gg-pwned*") == []
