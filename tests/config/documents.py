"""Capability-set documents for the config tests, and small helpers to load them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from gg.config import CapabilitySet, parse_capability_set
from gg.errors import ConfigDefect, ConfigError

EXAMPLE: dict[str, Any] = {
    "name": "spec-audit",
    "workspace": "workspace",
    "limits": {"maxTurns": 12},
    "agents": [
        {
            "slug": "root",
            "role": "standard",
            "model": {"provider": "replay", "journal": "journal.jsonl"},
            "capabilities": [
                {
                    "id": "responses-as-code",
                    "enabled": True,
                    "params": {"language": "javascript", "timeoutSecs": 30, "maxMemoryBytes": 268435456},
                },
                {"id": "program-library", "enabled": True, "params": {"keep": 20, "idLength": 4}},
            ],
        }
    ],
}

EXAMPLE_TOML = """
name = "spec-audit"
workspace = "workspace"

[limits]
maxTurns = 12

[[agents]]
slug = "root"
role = "standard"
model = { provider = "replay", journal = "journal.jsonl" }

[[agents.capabilities]]
id = "responses-as-code"
enabled = true
params = { language = "javascript", timeoutSecs = 30, maxMemoryBytes = 268435456 }

[[agents.capabilities]]
id = "program-library"
enabled = true
params = { keep = 20, idLength = 4 }
"""


def example() -> dict[str, Any]:
    """A fresh copy of the brief's example, safe to edit."""
    return copy.deepcopy(EXAMPLE)


def prepare(folder: Path) -> Path:
    """`folder` with what the example names: a `workspace/` folder and `journal.jsonl`."""
    (folder / "workspace").mkdir(exist_ok=True)
    (folder / "journal.jsonl").write_text("", encoding="utf-8")
    return folder


def write(folder: Path, document: object, name: str = "gg.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def load(document: dict[str, Any], folder: Path) -> CapabilitySet:
    return parse_capability_set(document, base=folder)


def refusal(document: dict[str, Any], folder: Path) -> list[ConfigDefect]:
    """The defects `document` is refused with (it must be refused)."""
    with pytest.raises(ConfigError) as caught:
        parse_capability_set(document, base=folder)
    return list(caught.value.defects)


def paths(defects: list[ConfigDefect]) -> list[str]:
    return [defect.path for defect in defects]


def at(defects: list[ConfigDefect], path: str) -> ConfigDefect:
    """The one defect at `path`."""
    found = [defect for defect in defects if defect.path == path]
    assert len(found) == 1, f"expected one defect at {path}, got {defects}"
    return found[0]


def root(document: dict[str, Any]) -> dict[str, Any]:
    return document["agents"][0]


def library(document: dict[str, Any]) -> dict[str, Any]:
    return root(document)["capabilities"][1]


def code_mode(document: dict[str, Any]) -> dict[str, Any]:
    return root(document)["capabilities"][0]
