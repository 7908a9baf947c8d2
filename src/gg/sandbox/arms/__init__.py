"""The language arms, one module each; `build_arm` picks the agent's."""

from __future__ import annotations

from gg.sandbox.execution import Arm
from gg.sdk.registry import Registry

__all__ = ["build_arm"]


def build_arm(language: str, registry: Registry) -> Arm:
    """A fresh arm for `language` (a `LanguageSpec.id`), serving the SDK of `registry`.

    Raises `LookupError` for a language this build has no arm for.
    """
    match language:
        case "javascript":
            from gg.sandbox.arms.javascript import JavaScriptArm

            return JavaScriptArm(registry)
        case "typescript":
            from gg.sandbox.arms.typescript import TypeScriptArm

            return TypeScriptArm(registry)
        case "python" | "python-typed":
            from gg.sandbox.arms.python import PythonArm

            return PythonArm(registry, checked=language == "python-typed")
        case _:
            raise LookupError(f"no arm for the language `{language}` in this build")
