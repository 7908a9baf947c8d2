"""A program that imports a code module before it is loaded is told which call loads it, spelled
for its arm: `skills.readSkill("<key>")` in JavaScript, `gg.skills.read_skill("<key>")` in Python,
and which modules are loaded when some are."""

from __future__ import annotations

import pytest

from gg.config.ceilings import Ceilings
from gg.sandbox.execution import Arm
from gg.sdk.codemodule import CodeModule

pytestmark = pytest.mark.arms("javascript", "typescript", "python")

CEILINGS = Ceilings(timeout_secs=10.0, max_memory_bytes=256 * 1024 * 1024)
IMPORTS = {
    "javascript": 'import * as m from "lib:csvTools";\nconsole.log(Object.keys(m));\n',
    "typescript": 'import * as m from "lib:csvTools";\nconsole.log(Object.keys(m));\n',
    "python": "from lib import csv_tools\nprint(csv_tools)\n",
}
LOAD_CALLS = {
    "javascript": 'skills.readSkill("csvTools")',
    "typescript": 'skills.readSkill("csvTools")',
    "python": 'gg.skills.read_skill("csv_tools")',
}
OTHER = {
    "javascript": CodeModule("other", "export const x = 1;\n"),
    "typescript": CodeModule("other", "export const x = 1;\n"),
    "python": CodeModule("other", "x = 1\n", "py"),
}


def _unused(operation: str, args: object) -> None:
    return None


def test_an_import_before_the_skill_was_read_names_the_call_that_loads_it(arm: Arm) -> None:
    execution = arm.run(IMPORTS[arm.language], _unused, CEILINGS)
    assert execution.failure is not None
    text = execution.failure.text
    assert "no code modules are loaded for this program" in text
    assert f"`{LOAD_CALLS[arm.language]}`" in text and "from the next program on" in text


def test_an_import_of_a_key_not_loaded_names_the_loaded_ones_and_the_call(arm: Arm) -> None:
    execution = arm.run(IMPORTS[arm.language], _unused, CEILINGS, (OTHER[arm.language],))
    assert execution.failure is not None
    text = execution.failure.text
    assert ("`lib.other`" if arm.language == "python" else "the loaded keys are other") in text
    assert f"`{LOAD_CALLS[arm.language]}`" in text
