"""A failure message too long to show whole is cut, and says how many characters it left out, in
one wording on both engines (JavaScript counts past 4096 code units, Python past 4000
characters)."""

from __future__ import annotations

import pytest

from gg.config.ceilings import Ceilings
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

CEILINGS = Ceilings(timeout_secs=10.0, max_memory_bytes=256 * 1024 * 1024)


def _unused(operation: str, args: object) -> None:
    return None


def test_a_cut_error_message_says_how_much_was_left_out(arm: Arm) -> None:
    if arm.language == "javascript":
        source = 'throw new Error("x".repeat(10000) + "\\u{1F600}".repeat(10));'
        execution = arm.run(source, _unused, CEILINGS)
        expected = "Error: " + "x" * (4096 - len("Error: ")) + "… (5921 more characters left out)"
    else:
        execution = arm.run('raise ValueError("x" * 10000 + "\\U0001F600" * 10)', _unused, CEILINGS)
        expected = "ValueError: " + "x" * 4000 + "… (6010 more characters left out)"
    assert execution.failure is not None
    assert expected in execution.failure.text.splitlines()


@pytest.mark.arms("javascript")
def test_a_long_thrown_value_is_cut_the_same_way(arm: Arm) -> None:
    execution = arm.run('throw "y".repeat(5000);', _unused, CEILINGS)
    assert execution.failure is not None
    assert execution.failure.text == "Uncaught " + "y" * 4096 + "… (904 more characters left out)"


@pytest.mark.arms("javascript")
def test_a_long_frame_is_cut_on_characters_and_keeps_its_location(arm: Arm) -> None:
    """The frame `    at Object.f😀😀… (program.js:2:9)` is 15 + 500 + 18 characters (1,033
    code units): cut to 400 characters as the engine wrote it (`sandbox:/program.js`, nine more than
    the model reads), its location whole, no surrogate pair split."""
    name = '"f" + "\\u{1F600}".repeat(500)'
    source = f"const o = {{ [{name}]() {{\n  throw new Error('deep');\n}} }};\no[{name}]();\n"
    execution = arm.run(source, _unused, CEILINGS)
    assert execution.failure is not None
    frame = execution.failure.text.splitlines()[1]
    assert frame.endswith("\u2026 (program.js:2:9)") and frame.startswith("    at Object.f\U0001f600")
    assert len(frame) == 400 - len("sandbox:/") and "\ufffd" not in frame
