"""A turn costs the host the same late in a long session as early in it (issue 27, item 1): the
window's size by band, the receipts a replayed model learns, the program library and the task
list's pinned block are kept up to date as they change, never measured again from the whole
session. Measured as work, not time: the lines of gg's own host code a turn executes, counted on
every thread, outside the sandbox (whose wait on a guest loops as long as the guest takes)."""

from __future__ import annotations

import json
import statistics
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import gg
from gg.telemetry.events import Event, TurnOutcomeEvent

TURNS = 120
READ = (
    "from gg import files, views\n"
    'read = files.read_file("notes.md")\n'
    'views.open_text("note", read.contents[:40])\n'
    'views.open_file("notes.md", offset=1, limit=2)\n'
)
FINISH = 'from gg import session\nsession.finish("read them all")\n'
HOST_CODE = Path(gg.__file__).parent
SANDBOX = HOST_CODE / "sandbox"


class LineCount:
    """Counts the lines of gg's host code run (outside the sandbox), and the count at each turn's end."""

    def __init__(self) -> None:
        self.lines = 0
        self.at_turn_end: dict[int, int] = {}

    def trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        path = frame.f_code.co_filename
        if path.startswith(str(HOST_CODE)) and not path.startswith(str(SANDBOX)):
            return self._line
        return None

    def _line(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
        return self._line

    def on_event(self, event: Event) -> None:
        if isinstance(event.payload, TurnOutcomeEvent):
            self.at_turn_end[event.turn] = self.lines

    def per_turn(self, turns: range) -> list[int]:
        return [self.at_turn_end[turn] - self.at_turn_end[turn - 1] for turn in turns]


def _document(tmp_path: Path) -> dict[str, Any]:
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "notes.md").write_text("first\nsecond\nthird\n", encoding="utf-8")
    (tmp_path / "store").mkdir()
    replies = [READ] * (TURNS - 1) + [FINISH]
    lines = [{"calls": [{"name": "submit_program", "arguments": {"program": p}}]} for p in replies]
    (tmp_path / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return {
        "name": "long-session",
        "workspace": str(tmp_path / "workspace"),
        "agents": [
            {
                "slug": "root",
                "task": "Read the notes, a view a turn.",
                "model": {"provider": "replay", "journal": str(tmp_path / "journal.jsonl")},
                "capabilities": [
                    {"id": "responses-as-code", "params": {"language": "python"}},
                    {"id": "program-library", "params": {"keep": 0, "idLength": 12}},
                    {"id": "tasks", "params": {"maxTasks": 10, "mode": "simple"}},
                ],
            }
        ],
    }


def test_a_turn_runs_as_much_host_code_at_turn_120_as_at_turn_10(tmp_path: Path) -> None:
    document = _document(tmp_path)
    count = LineCount()
    before = sys.gettrace()
    threading.settrace(count.trace)
    sys.settrace(count.trace)
    try:
        result = gg.run(
            document, journal=tmp_path / "journal.jsonl", store=tmp_path / "store", on_event=count.on_event
        )
    finally:
        sys.settrace(before)
        threading.settrace(before)  # type: ignore[arg-type]
    assert (result.status, result.turns) == ("completed", 120)
    early, late = count.per_turn(range(5, 15)), count.per_turn(range(110, 120))
    assert statistics.median(late) == statistics.median(early), (early, late)
