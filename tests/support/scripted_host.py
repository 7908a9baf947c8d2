"""A run of `gg.run` whose model is scripted in Python and whose root may call host families: the
model (`Scripted`, each request answered with the next program) and the capability set (`config`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gg


class Scripted:
    """A model scripted in Python: each request is answered with the next program."""

    model_id = "scripted:tests"

    def __init__(self, *programs: str) -> None:
        self.programs = list(programs)
        self.requests: list[gg.Request] = []

    def complete(self, request: gg.Request) -> gg.Reply:
        self.requests.append(request)
        program = self.programs[len(self.requests) - 1]
        call = gg.ToolCall(f"call_{len(self.requests)}", "submit_program", {"program": program})
        return gg.Reply(text="", calls=(call,), usage=gg.Usage(10, 5), model=self.model_id)


def config(tmp_path: Path, language: str, families: list[str]) -> dict[str, Any]:
    """One root on `language` that may call `families`, three turns at most, in `tmp_path`."""
    (tmp_path / "workspace").mkdir(exist_ok=True)
    (tmp_path / "unused.jsonl").write_text("{}\n")
    return {
        "name": f"host-functions-{language}",
        "workspace": str(tmp_path / "workspace"),
        "limits": {"maxTurns": 3},
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay", "journal": str(tmp_path / "unused.jsonl")},
                "capabilities": [
                    {"id": "responses-as-code", "params": {"language": language}},
                    {"id": "host-functions", "params": {"families": families}},
                ],
            }
        ],
    }
