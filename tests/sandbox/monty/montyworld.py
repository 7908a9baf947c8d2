"""A world for the Monty engine's tests: the real Python arm over gg's own SDK, a host that answers
every call with nothing and keeps what it was asked, and the prompt's statement of the Python subset.

A program reports what it computed with `print(repr(...))`, so a test compares the lines it printed
with CPython's answer written out by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from gg.config.ceilings import Ceilings
from gg.prompts import render
from gg.sandbox.execution import Arm, Execution

CEILINGS = Ceilings(timeout_secs=30.0, max_memory_bytes=256 * 1024 * 1024)

# The shared Python arm over gg's own SDK, for a module's `pytestmark`.
PYTHON = pytest.mark.arms("python")


@dataclass
class Host:
    """Answers every SDK call with nothing, keeping each call in order."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list[tuple[str, dict[str, Any]]])

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        self.calls.append((operation, dict(args)))
        return None


def ran(arm: Arm, source: str, host: Host | None = None) -> Execution:
    return arm.run(source, host or Host(), CEILINGS)


def printed(arm: Arm, source: str, host: Host | None = None) -> list[str]:
    """The lines the program printed; it must end well."""
    execution = ran(arm, source, host)
    assert execution.ok, execution.failure
    return list(execution.logs)


def raised(arm: Arm, source: str) -> str:
    """The last line of the program's failure: the exception it ended with."""
    execution = ran(arm, source)
    assert execution.failure is not None, f"the program ended well: {execution.logs}"
    return execution.failure.text.splitlines()[-1]


def subset() -> str:
    """The prompt's statement of the Python subset, as every Python arm's system prompt holds it."""
    return render("arm-python")
