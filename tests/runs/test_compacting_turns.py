"""A compacting turn hides nothing it produced, on both arms: the model next reads the compacted
window (the task, the summary, the files re-opened), then the turn's own views in opening order,
then its feedback (a Runtime error included)."""

from __future__ import annotations

from pathlib import Path

import pytest
from session import Profile, program, run_session

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

COMPACT_THEN_THROW = {
    "javascript": """import { context, files, views } from "gg";
files.writeFile("plan.md", "step one");
views.openText("before", "opened before the compaction");
context.compact("kept the plan", ["plan.md"]);
views.openText("after", "opened after the compaction");
throw new Error("boom after compacting");
""",
    "python": """import gg
gg.files.write_file("plan.md", "step one")
gg.views.open_text("before", "opened before the compaction")
gg.context.compact("kept the plan", files=["plan.md"])
gg.views.open_text("after", "opened after the compaction")
raise ValueError("boom after compacting")
""",
}
FINISH = {
    "javascript": 'import { session } from "gg";\nsession.finish("done");\n',
    "python": 'import gg\ngg.session.finish("done")\n',
}


def test_a_compacting_turn_that_throws_shows_its_views_and_its_error_after_the_compacted_window(
    tmp_path: Path, arm: Arm
) -> None:
    language = arm.language
    replies = [program(COMPACT_THEN_THROW[language]), program(FINISH[language])]
    session = run_session(tmp_path, replies, Profile(language=language), arm=arm)
    assert session.outcome(1)["errorType"] == "program_throw"
    assert len(session.of_type("compaction", 1)) == 1
    contents = [m.content for m in session.requests[1].messages]
    assert [c.split("\n", 1)[0] for c in contents] == [
        "Task",
        "Summary",
        "File: plan.md:1-1 of 1 lines",
        "View: before",
        "View: after",
        "Runtime error",
    ]
    assert contents[1] == "Summary\n----\nkept the plan"
    assert contents[3:5] == [
        "View: before\n----\nopened before the compaction",
        "View: after\n----\nopened after the compaction",
    ]
    assert "boom after compacting" in contents[5]
    assert session.read_next(1) == contents  # the record holds exactly what the model read
    assert session.finished["finalText"] == "done"
