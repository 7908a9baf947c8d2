"""What a provider tells the operator, and how long it chose to sleep: recorded for assertions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Operator:
    lines: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    sleeps: list[float] = field(default_factory=list)

    def log(self, level: str, message: str, fields: dict[str, Any]) -> None:
        self.lines.append((level, message, fields))

    def sleep(self, secs: float) -> None:
        self.sleeps.append(secs)

    def at(self, level: str) -> list[tuple[str, dict[str, Any]]]:
        return [(m, f) for lv, m, f in self.lines if lv == level]
