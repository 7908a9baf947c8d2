"""An ending in a machine's state (issue 21, item 14), on the JavaScript and the Python arm: in a
terminal state it is the machine's end; in a state with edges out it still ends the machine where
it stands (completed, with that final word, as the original's case 075 has it), and the record says
the run ended outside the machine's end: a warning naming the machine, the state and its terminal
states, and the run's message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from crew import line, profile, run_crew

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

STATES = [
    {"name": "explore", "agent": "explorer", "transitions": [{"to": "verify", "transfer": ["history"]}]},
    {"name": "verify", "agent": "verifier"},
]
OUTSIDE = (
    "the machine `process` ended in its state `explore`, outside its terminal states (`verify`): "
    "the ending of the agent standing there ended it"
)


def _finish(language: str, text: str) -> str:
    if language == "javascript":
        return f'import {{ session }} from "gg";\nsession.finish("{text}");\n'
    return f'from gg import session\nsession.finish("{text}")\n'


def _move(language: str) -> str:
    if language == "javascript":
        return 'import { delegation } from "gg";\ndelegation.transitionState("verify", "explored");\n'
    return 'from gg import delegation\ndelegation.transition_state("verify", "explored")\n'


def _profiles(language: str) -> list[dict[str, Any]]:
    machine = {"slug": "process", "capabilities": [{"id": "fsm", "params": {"states": STATES}}]}
    return [machine, profile("explorer", language=language), profile("verifier", language=language)]


def test_an_ending_outside_the_terminal_states_ends_the_machine_and_the_record_says_so(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path, _profiles(lang), [line(_finish(lang, "explored, and done"), profile="explorer")], arm=arm
    )
    assert crew.result.status.value == "completed" and crew.result.message == OUTSIDE
    assert (crew.finished["status"], crew.finished["finalText"]) == ("completed", "explored, and done")
    assert crew.finished["message"] == OUTSIDE
    (warned,) = [e for e in crew.of("log", "root") if e["level"] == "warn"]
    assert warned["message"] == OUTSIDE
    assert warned["fields"] == {"fsmId": "process", "state": "explore", "terminalStates": ["verify"]}
    assert crew.agents == ["root"] and crew.one("agent_finished", "root")["status"] == "completed"


def test_an_ending_in_a_terminal_state_is_the_machines_end_and_nothing_more(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        _profiles(lang),
        [line(_move(lang), profile="explorer"), line(_finish(lang, "verified"), profile="verifier")],
        arm=arm,
    )
    assert (crew.finished["status"], crew.finished["finalText"]) == ("completed", "verified")
    assert crew.finished.get("message") is None and crew.result.message is None
    assert not [e for e in crew.of("log") if e["level"] == "warn"]
