"""The language arms, one module each; `build_arm` picks the agent's.

An arm serves the guest the SDK of one registry; a checked arm (`CHECKED_LANGUAGES`) checks each
program against the declarations of another, the SDK its agent is offered (`gg.sdk.ablation`),
so a withheld operation is no name a checked program may write, while a call to it from an
unchecked one still reaches the membrane and is refused there."""

from __future__ import annotations

from gg.sandbox.execution import Arm
from gg.sdk.registry import Registry

__all__ = ["build_arm"]

CHECKED_LANGUAGES = frozenset({"typescript", "python-typed"})  # checked against the declarations


def build_arm(language: str, registry: Registry, declared: Registry | None = None) -> Arm:
    """A fresh arm for `language` (a `LanguageSpec.id`), serving the SDK of `registry`; a checked
    one checks programs against the declarations of `declared` (`registry` when None).

    Raises `LookupError` for a language this build has no arm for.
    """
    match language:
        case "javascript":
            from gg.sandbox.arms.javascript import JavaScriptArm

            return JavaScriptArm(registry)
        case "typescript":
            from gg.sandbox.arms.typescript import TypeScriptArm

            return TypeScriptArm(registry, declared=declared)
        case "python" | "python-typed":
            from gg.sandbox.arms.python import PythonArm

            return PythonArm(registry, checked=language == "python-typed", declared=declared)
        case _:
            raise LookupError(f"no arm for the language `{language}` in this build")
