"""Sessions with hooks: a profile that declares hooks (and the capability set's session hooks),
and the executables command hooks run, written into the test's folder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from session import Profile


@dataclass
class HookedProfile(Profile):
    hooks: Sequence[Mapping[str, Any]] = ()
    session_hooks: Sequence[Mapping[str, Any]] = field(default_factory=list[Mapping[str, Any]])

    def document(self, journal: Path) -> dict[str, Any]:
        document = super().document(journal)
        document["agents"][0]["hooks"] = [dict(hook) for hook in self.hooks]
        if self.session_hooks:
            document["hooks"] = [dict(hook) for hook in self.session_hooks]
        return document


def executable(folder: Path, name: str, text: str) -> str:
    """An executable `name` in `folder` holding `text`; its absolute path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def hook_runs(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(event) for event in events if event["type"] == "hook_run"]
