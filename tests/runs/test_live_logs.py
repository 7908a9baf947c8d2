"""What a program logs reaches the operator while it runs (seed 001): on both engines the lines
stream into the record as `program_log` events, before the calls the program makes after
logging them; a flood streams in batches (the newest lines of each batch, the ones left out
counted), 200 lines of each program at most. Its `code_execution` keeps
the tail, and `gg show` notes the dropped lines before the kept ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from session import Profile, program, run_session

from gg.record.transcript import fold_transcript
from gg.sandbox.execution import Arm
from gg.terminal.show import render_transcript

pytestmark = pytest.mark.arms("javascript", "python")

LOG_THEN_CALL = {
    "javascript": (
        'import { files, session } from "gg";\nconsole.log("before the call");\n'
        'files.writeFile("x.txt", "x");\nconsole.log("after the call");\nsession.finish("done");\n'
    ),
    "python": (
        'from gg import files, session\nprint("before the call")\n'
        'files.write_file("x.txt", "x")\nprint("after the call")\nsession.finish("done")\n'
    ),
}
FLOOD = {
    "javascript": (
        'import { session } from "gg";\nfor (let i = 0; i < 1000; i++) console.log(`line ${i}`);\n'
        'session.finish("done");\n'
    ),
    "python": (
        'from gg import session\nfor i in range(1000):\n    print(f"line {i}")\nsession.finish("done")\n'
    ),
}


def test_a_line_logged_before_a_call_is_recorded_before_that_call(tmp_path: Path, arm: Arm) -> None:
    session = run_session(tmp_path, [program(LOG_THEN_CALL[arm.language])], Profile(arm.language), arm=arm)
    order = [
        event.get("lines", event.get("operation"))
        for event in session.events
        if event["type"] in {"program_log", "api_call"}
    ]
    assert order.index(["before the call"]) < order.index("files.write_file")
    assert [line for lines in order if isinstance(lines, list) for line in lines] == [
        "before the call",
        "after the call",
    ]
    (execution,) = session.executions(1)
    assert execution["logs"] == ["before the call", "after the call"]


def test_a_flood_streams_200_lines_at_most_and_show_notes_the_dropped_before_the_kept(
    tmp_path: Path, arm: Arm
) -> None:
    session = run_session(tmp_path, [program(FLOOD[arm.language])], Profile(arm.language), arm=arm)
    batches = session.of_type("program_log")
    streamed = [int(line.split()[1]) for event in batches for line in event["lines"]]
    assert len(streamed) == 200 and streamed == sorted(set(streamed))
    assert sum(len(event["lines"]) + event.get("dropped", 0) for event in batches) == streamed[-1] + 1
    (execution,) = session.executions(1)
    assert execution["logs"] == [f"line {i}" for i in range(800, 1000)] and execution["logsSuppressed"] == 800
    console = Console(record=True, width=120, color_system=None)
    console.print(render_transcript(fold_transcript(session.events), console))
    shown = console.export_text().splitlines()
    note = shown.index("  (800 log lines dropped)")
    assert shown[note + 1] == "  log line 800"
