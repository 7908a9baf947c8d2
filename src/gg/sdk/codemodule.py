"""A code module loaded for an agent: the value its surface keeps (`gg.sdk.surface`), its
documentation reads (`gg.sdk.docs.codemodules`) and an arm is handed with each program."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CodeModule:
    """A code module loaded for the agent, reached by a program as `lib:<key>`; `extension` is
    the language its author wrote it in (`js`, `ts`), which decides how the guest reads it."""

    key: str
    source: str
    extension: str = "js"
