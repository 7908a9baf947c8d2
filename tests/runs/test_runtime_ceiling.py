"""The run's time holds whatever is running: a program is stopped at the earlier of its own
`timeoutSecs` and what is left of `maxRuntimeSecs`, on every arm; the turn it ran in stops there,
unjudged, and the run ends at the runtime ceiling (`timed_out`, exit 3), nothing charged to the
model.

Issue 21, item 18: under a 3 s run ceiling a program with `timeoutSecs` 30 ran 30.35 s."""

from __future__ import annotations

from pathlib import Path

import pytest
from session import Profile, program, run_session

from gg.config.ceilings import Ceilings
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "typescript", "python", "python-typed")

SPIN = {
    "javascript": "while (true) {}\n",
    "typescript": "while (true) {}\n",
    "python": "while True:\n    pass\n",
    "python-typed": "while True:\n    pass\n",
}
WELL_BEFORE_ITS_OWN_TIMEOUT_MS = 20_000  # the program's own timeout is 30 s


def warmed(arm: Arm) -> Arm:
    """`arm`, having run a program: its engine started and its checker warm, so a program of the
    run's reaches its engine within the run's time."""
    execution = arm.run("", lambda operation, args: None, Ceilings(30.0, 256 * 1024 * 1024))
    assert execution.failure is None
    return arm


def test_a_program_is_stopped_at_the_runs_deadline_not_its_own_timeout(tmp_path: Path, arm: Arm) -> None:
    arm = warmed(arm)
    profile = Profile(language=arm.language, timeout_secs=30, limits={"maxRuntimeSecs": 3})
    session = run_session(tmp_path, [program(SPIN[arm.language])], profile, arm=arm)
    finished = session.finished
    assert (finished["status"], finished["exitCode"]) == ("timed_out", 3)
    assert finished["durationMs"] < WELL_BEFORE_ITS_OWN_TIMEOUT_MS
    (breach,) = session.of_type("limit_exceeded")
    assert (breach["limit"], breach["threshold"], breach["turn"], breach["turns"]) == ("runtime", 3, 1, 1)
    assert breach["observed"] >= 3
    (execution,) = session.executions(1)
    assert execution["errorType"] == "sandbox_timeout"
    assert execution["error"] == "The program was stopped: the run's time is spent."
    assert session.of_type("turn_outcome") == []  # the turn is not judged: nothing charged
    assert finished["summary"]["errors"]["errors"] == 0 and session.model_calls == 1
    assert finished["turns"] == 1  # the turn the run's time cut short was taken
