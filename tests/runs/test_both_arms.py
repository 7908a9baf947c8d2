"""The loop's rules hold the same on every arm: each session here runs once per language, with
the same program written in that language's idiom (issue 6: the programs-issue sessions run on
both arms)."""

from __future__ import annotations

from pathlib import Path

import pytest
from session import Profile, Session, program, run_session

from gg.record.transcript import fold_transcript
from gg.sandbox.execution import Arm
from gg.terminal.glyphs import UNICODE, program_line

LANGUAGES = ("javascript", "python")
LIBRARY = {"keep": 20, "idLength": 4}

PROGRAMS = {
    "javascript": {
        "finish": 'import { session } from "gg";\nsession.finish("done");\n',
        "finish_then_throw": """import { session } from "gg";
session.finish("early");
throw new Error("boom");
""",
        "write_then_throw": """import { files } from "gg";
files.writeFile("a.txt", "1");
throw new Error("boom");
""",
        "view": 'import { views } from "gg";\nviews.openText("total", String(1 + 2));\n',
        "handover": """import { programs } from "gg";
programs.rerun(programs.get("{{receipt 1.1}}").replace("throw", "//"));
""",
        "history": """import { programs } from "gg";
console.log(programs.history().map((p) => p.ok).join(","));
""",
        "nothing": "const quiet = 1;\n",
    },
    "python": {
        "finish": 'import gg\ngg.session.finish("done")\n',
        "finish_then_throw": 'import gg\ngg.session.finish("early")\nraise ValueError("boom")\n',
        "write_then_throw": 'import gg\ngg.files.write_file("a.txt", "1")\nraise ValueError("boom")\n',
        "view": 'from gg import views\nviews.open_text("total", str(1 + 2))\n',
        "handover": """import gg
gg.programs.rerun(gg.programs.get("{{receipt 1.1}}").replace("raise", "# "))
""",
        "history": 'import gg\nprint(",".join(str(p.ok).lower() for p in gg.programs.history()))\n',
        "nothing": "quiet = 1\n",
    },
}


pytestmark = pytest.mark.arms(*LANGUAGES)


def _run(tmp_path: Path, arm: Arm, *names: str | tuple[str, ...], library: bool = True) -> Session:
    language = arm.language
    replies = [
        program(*(PROGRAMS[language][n] for n in (name if isinstance(name, tuple) else (name,))))
        for name in names
    ]
    profile = Profile(language=language, library=LIBRARY if library else None)
    return run_session(tmp_path, replies, profile, arm=arm)


def test_a_failure_after_an_ending_revokes_it(tmp_path: Path, arm: Arm) -> None:
    session = _run(tmp_path, arm, "finish_then_throw", "finish")
    assert session.outcome(1)["errorType"] == "program_throw" and "boom" in session.feedback(1)[-1]
    assert "early" not in session.feedback(1)[-1] and session.finished["finalText"] == "done"
    assert session.model_calls == 2


def test_what_ran_before_a_failure_stands_and_the_receipt_is_an_id(tmp_path: Path, arm: Arm) -> None:
    session = _run(tmp_path, arm, "write_then_throw", "finish")
    (receipt,) = session.receipts(1)
    assert len(receipt) == 4 and receipt.isalnum()
    assert (session.workspace / "a.txt").read_text() == "1"


def test_several_submissions_all_run_with_one_notice_first(tmp_path: Path, arm: Arm) -> None:
    session = _run(tmp_path, arm, ("write_then_throw", "view"), "finish")
    assert [e["ok"] for e in session.executions(1)] == [False, True]
    headings = [m.split("\n", 1)[0] for m in session.feedback(1)]
    assert headings == ["Notice", "Runtime error"]
    assert any(m.startswith("View: total\n----\n3") for m in session.read_next(1))


def test_a_failed_program_is_fetched_patched_and_handed_over(tmp_path: Path, arm: Arm) -> None:
    session = _run(tmp_path, arm, "write_then_throw", "handover", "history", "finish")
    (chained,) = session.executions(2)
    assert chained["ok"] and chained["programs"] == 2 and session.feedback(2) == []
    assert session.executions(3)[0]["logs"] == ["false,true"]  # a program is kept once it has run
    assert session.model_calls == 4


def test_a_clean_program_that_shows_nothing_earns_the_notice(tmp_path: Path, arm: Arm) -> None:
    session = _run(tmp_path, arm, "nothing", "finish", library=False)
    (notice,) = session.feedback(1)
    assert notice.startswith("Notice\n----\n") and ("print" in notice or "console.log" in notice)
    assert session.receipts(1) == ["ok"]


def test_a_python_api_error_reads_back_as_operation_code_and_message(tmp_path: Path) -> None:
    """Python's `gg.ApiError` is the engine's OSError, so `gg.core.details` reads its parts back."""
    source = (
        "import gg\nfrom gg.core import details\n"
        "try:\n    gg.files.read_file('nope.md')\nexcept gg.ApiError as e:\n"
        "    d = details(e)\n    print(d.operation, d.code)\n"
        "try:\n    details(OSError('mine'))\nexcept ValueError:\n    print('refused')\n"
    )
    for language in ("python", "python-typed"):
        session = run_session(tmp_path / language, [program(source)], Profile(language=language))
        (execution,) = session.executions(1)
        assert execution["ok"] and execution["logs"] == ["read_file not-found", "refused"]


def test_the_terminal_locates_a_runtime_error_at_the_line_that_threw(tmp_path: Path, arm: Arm) -> None:
    session = _run(tmp_path, arm, "write_then_throw", "finish")
    (failed,) = fold_transcript(session.events).turns[0].programs
    extension = "js" if arm.language == "javascript" else "py"
    assert failed.location is not None and failed.location.startswith(f"program.{extension}:3:")
    assert f" at program.{extension}:3:" in program_line(failed, UNICODE).plain
