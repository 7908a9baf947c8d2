"""Toolset ablation on the checked arms (TypeScript, python-typed): a withheld operation is no
name in the declarations (`gg.d.ts`) or the stubs a program is checked against, so a program
that names one is rejected before it runs, while the SDK the profile keeps checks as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from session import Profile, program, run_session

from gg.sandbox.execution import Arm

WRITES = {
    "typescript": 'import { files } from "gg";\nfiles.writeFile("a.txt", "1");\n',
    "python-typed": 'import gg\ngg.files.write_file("a.txt", "1")\n',
}
READS = {
    "typescript": 'import { files } from "gg";\nconsole.log(files.listDir().length >= 0);\n',
    "python-typed": "import gg\nprint(len(gg.files.list_dir()) >= 0)\n",
}
NAMED = {"typescript": "writeFile", "python-typed": "write_file"}

pytestmark = pytest.mark.arms("typescript", "python-typed")


def test_a_checked_program_naming_a_withheld_operation_is_rejected_before_it_runs(tmp_path: Path, arm: Arm):
    language = arm.language
    profile = Profile(language=language, disabled_operations=["files.write_file"])
    replies = [program(WRITES[language]), program(READS[language])]
    session = run_session(tmp_path, replies, profile, arm=arm)
    (rejected,) = session.executions(1)
    assert rejected["errorType"] == "transpile_compile" and NAMED[language] in rejected["error"]
    assert not (session.workspace / "a.txt").exists()
    (kept,) = session.executions(2)
    assert kept["ok"] and kept["logs"] == [{"typescript": "true", "python-typed": "True"}[language]]
