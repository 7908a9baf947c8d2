"""Whole sessions with a board, on the JavaScript and the Python arm (seed 003, "board"): an issue
filed with an `agent` is dispatched to an implementer subagent briefed with the issue, reviewed by
the reviewers it names, reworked when a reviewer asks for changes, retried when its implementer
ends unfinished, dispatched only once the issues it is blocked by are done, and the filer waiting
on it (`waitForIssue`) resumes between turns with what became of it. Every agent of the run holds
the one board, `board-0`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from crew import Crew, line, profile, run_crew, subagents

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

BOARD = {"id": "project-management", "params": {"maxEpics": 5, "maxIssues": 10, "maxRetries": 1}}
ROSTER = [{"agent": "impl", "scopes": ["implementer"]}, {"agent": "rev", "scopes": ["reviewer"]}]

FILE = {
    "javascript": """import { board } from "gg";
const issue = board.createIssue({ title: "count the bolts", inScope: "the bolt bin",
  outOfScope: "the nuts", completionCriteria: "a count in bolts.txt", agent: "impl", reviewers: REVIEWERS });
issue.wait();
console.log(issue.id);
""",
    "python": """from gg import board
issue = board.create_issue(title="count the bolts", in_scope="the bolt bin",
    out_of_scope="the nuts", completion_criteria="a count in bolts.txt", agent="impl", reviewers=REVIEWERS)
issue.wait()
print(issue.id)
""",
}
COUNT = {
    "javascript": 'import { files, session } from "gg";\n'
    'files.writeFile("bolts.txt", "N");\nsession.finish("counted N");\n',
    "python": "from gg import files, session\n"
    'files.write_file("bolts.txt", "N")\nsession.finish("counted N")\n',
}
REVIEW = {
    "javascript": {
        "no": 'import { session } from "gg";\nsession.requestChanges(["count the spares too"]);\n',
        "yes": 'import { session } from "gg";\nsession.approve();\n',
    },
    "python": {
        "no": 'from gg import session\nsession.request_changes(["count the spares too"])\n',
        "yes": "from gg import session\nsession.approve()\n",
    },
}
IDLE = {"javascript": 'console.log("still counting");\n', "python": 'print("still counting")\n'}


def _finish(language: str, text: str) -> str:
    if language == "javascript":
        return f'import {{ session }} from "gg";\nsession.finish("{text}");\n'
    return f'from gg import session\nsession.finish("{text}")\n'


def _profiles(language: str) -> list[dict[str, Any]]:
    return [
        profile("root", BOARD, language=language, roster=ROSTER),
        profile("impl", language=language),
        profile("rev", language=language, role="review"),
    ]


def _statuses(crew: Crew, agent: str) -> list[str]:
    """The one issue's status each time a snapshot on `agent`'s stream shows it changed."""
    seen: list[str] = []
    for event in crew.of("board_state", agent):
        for issue in event["issues"]:
            if not seen or seen[-1] != issue["status"]:
                seen.append(issue["status"])
    return seen


def test_an_issue_is_implemented_reworked_on_request_approved_and_its_waiter_resumes(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        _profiles(lang),
        [
            line(FILE[lang].replace("REVIEWERS", '["rev"]')),
            line(_finish(lang, "the bolts are counted")),
            line(COUNT[lang].replace("N", "12"), agent="root.1"),
            line(REVIEW[lang]["no"], agent="root.2"),
            line(COUNT[lang].replace("N", "12 and 3 spares"), agent="root.3"),
            line(REVIEW[lang]["yes"], agent="root.4"),
        ],
        arm=arm,
    )
    assert crew.result.status.value == "completed" and crew.finished["finalText"] == "the bolts are counted"
    assert crew.logs("root") == ["ISSUE-1"]
    spawned = [(e["agentId"], e["profileId"], e.get("parentAgentId")) for e in crew.of("agent_spawned")]
    assert spawned == [
        ("root", "root", None),
        ("root.1", "impl", "root"),
        ("root.2", "rev", "root"),
        ("root.3", "impl", "root"),
        ("root.4", "rev", "root"),
    ]
    briefs = {e["agentId"]: e["brief"] for e in crew.of("agent_spawned")}
    assert "issue `ISSUE-1`" in briefs["root.1"] and "Done when: a count in bolts.txt" in briefs["root.1"]
    assert "counted 12" in briefs["root.2"]  # the reviewer reads the implementer's account
    assert "- count the spares too" in briefs["root.3"]  # the rework is briefed with the changes
    assert "counted 12 and 3 spares" in briefs["root.4"]
    # the filer reports its own write (open), then the board as gg moved it under it (how far gg
    # had moved it by the close of the filing turn depends on the threads; by the end it is done)
    root_saw = _statuses(crew, "root")
    assert root_saw[0] == "open" and root_saw[-1] == "done"
    # each agent gg put to work re-states the board as it arrives
    arriving = [
        crew.of("board_state", a)[0]["issues"][0]["status"] for a in ("root.1", "root.2", "root.3", "root.4")
    ]
    assert arriving == ["in_progress", "in_review", "in_progress", "in_review"]
    (last,) = [i for i in crew.of("board_state")[-1]["issues"]]
    assert (last["assignedAgentId"], last["retries"], last["reviewers"]) == ("root.3", 0, ["rev"])
    assert {e["moduleId"] for e in crew.of("board_state")} == {"board-0"}
    for agent in ("root.1", "root.2"):
        rows = crew.one("agent_modules", agent)["modules"]
        assert {
            "kind": "board",
            "moduleId": "board-0",
            "enabled": True,
            "origin": "run",
            "writable": True,
        } in rows
    # the wait held the root between its turns until the issue was done, then told it so
    assert len(crew.requests["root"]) == 2
    assert "Issue `ISSUE-1` is done. The last word on it: counted 12 and 3 spares" in crew.prompt("root", 1)
    assert crew.index("model_request", "root", 1) > crew.index("agent_finished", "root.4")
    assert (crew.workspace / "bolts.txt").read_text() == "12 and 3 spares"


def test_an_issue_whose_implementers_end_unfinished_is_retried_then_failed(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        _profiles(lang),
        [
            line(FILE[lang].replace("REVIEWERS", "[]")),
            line(_finish(lang, "gave up on the bolts")),
            line(IDLE[lang], profile="impl"),
            line(IDLE[lang], profile="impl"),
        ],
        arm=arm,
        limits={"maxTurns": 2},
    )
    assert crew.finished["finalText"] == "gave up on the bolts"
    implementers = [e["agentId"] for e in crew.of("agent_spawned") if e["profileId"] == "impl"]
    assert implementers == ["root.1", "root.2"]  # the first try and one retry (maxRetries 1)
    assert [crew.one("agent_finished", a)["status"] for a in implementers] == ["exhausted", "exhausted"]
    (issue,) = crew.of("board_state")[-1]["issues"]
    assert (issue["status"], issue["retries"], issue["assignedAgentId"]) == ("failed", 1, "root.2")
    assert "Issue `ISSUE-1` is failed." in crew.prompt("root", 1)


SELF_DONE = {  # the implementer sets its own issue done, reports the refusal, and ends its work
    "javascript": """import { board, files, session } from "gg";
files.writeFile("bolts.txt", "12");
try { board.updateIssue("ISSUE-1", { status: "done" }); }
catch (e) { console.log(e.code + ": " + e.message); }
session.finish("counted 12");
""",
    "python": """import gg
from gg import board, files, session
files.write_file("bolts.txt", "12")
try:
    board.update_issue("ISSUE-1", status="done")
except gg.ApiError as e:
    print(gg.core.details(e).code + ": " + gg.core.details(e).message)
session.finish("counted 12")
""",
}


def test_an_implementer_cannot_set_its_reviewed_issue_done_so_its_reviewer_still_runs(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    board = {"id": "project-management", "params": {"maxEpics": 1, "maxIssues": 3, "maxRetries": 0}}
    crew = run_crew(
        tmp_path,
        [
            profile("root", board, subagents(1), language=lang, roster=ROSTER),
            profile("impl", board, language=lang),
            profile("rev", language=lang, role="review"),
        ],
        [
            line(FILE[lang].replace("REVIEWERS", '["rev"]')),
            line(_finish(lang, "the bolts are counted")),
            line(SELF_DONE[lang], profile="impl"),
            line(REVIEW[lang]["yes"], profile="rev"),
        ],
        arm=arm,
    )
    assert crew.logs("root.1") == [
        "conflict: `ISSUE-1` names reviewers (`rev`), so it is done once they approve: its implementer"
        " ends its work and gg starts them; no program sets it done"
    ]
    spawned = [(e["agentId"], e["profileId"]) for e in crew.of("agent_spawned")]
    assert spawned == [("root", "root"), ("root.1", "impl"), ("root.2", "rev")]
    arriving = crew.of("board_state", "root.2")[0]["issues"][0]["status"]
    assert arriving == "in_review"
    assert crew.index("model_request", "root", 1) > crew.index("agent_finished", "root.2")
    assert "Issue `ISSUE-1` is done. The last word on it: counted 12" in crew.prompt("root", 1)


BLOCKED = {
    "javascript": """import { board } from "gg";
const first = board.createIssue({ title: "cut the boards", inScope: "cutting", outOfScope: "sanding",
  completionCriteria: "cut.txt exists", agent: "impl" });
const second = board.createIssue({ title: "sand the boards", inScope: "sanding", outOfScope: "cutting",
  completionCriteria: "sanded", agent: "impl", blockedBy: [first.id] });
board.waitForIssue(second.id);
console.log(JSON.stringify([first.id, second.id]));
""",
    "python": """import json
from gg import board
first = board.create_issue(title="cut the boards", in_scope="cutting", out_of_scope="sanding",
    completion_criteria="cut.txt exists", agent="impl")
second = board.create_issue(title="sand the boards", in_scope="sanding", out_of_scope="cutting",
    completion_criteria="sanded", agent="impl", blocked_by=[first.id])
board.wait_for_issue(second.id)
print(json.dumps([first.id, second.id]))
""",
}
CUT = {
    "javascript": 'import { files, session } from "gg";\n'
    'files.writeFile("cut.txt", "cut");\nsession.finish("cut");\n',
    "python": 'from gg import files, session\nfiles.write_file("cut.txt", "cut")\nsession.finish("cut")\n',
}
SAND = {  # reading cut.txt throws unless the first issue's implementer already wrote it
    "javascript": 'import { files, session } from "gg";\n'
    'files.readFile("cut.txt");\nsession.finish("sanded after the cut");\n',
    "python": "from gg import files, session\n"
    'files.read_file("cut.txt")\nsession.finish("sanded after the cut")\n',
}


def test_an_issue_blocked_by_another_is_dispatched_once_that_one_is_done(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        _profiles(lang),
        [
            line(BLOCKED[lang]),
            line(_finish(lang, "both done")),
            line(CUT[lang], agent="root.1"),
            line(SAND[lang], agent="root.2"),
        ],
        arm=arm,
    )
    assert crew.finished["finalText"] == "both done"
    assert crew.logged_json("root") == [["ISSUE-1", "ISSUE-2"]]
    assert "issue `ISSUE-2`" in crew.one("agent_spawned", "root.2")["brief"]
    assert crew.index("agent_spawned", "root.2") > crew.index("agent_finished", "root.1")
    assert "Issue `ISSUE-2` is done. The last word on it: sanded after the cut" in crew.prompt("root", 1)


def _spin(language: str, secs: float) -> str:
    """An implementer's program that keeps its guest busy for `secs` of wall time, then finishes."""
    if language == "javascript":
        return (
            'import { session } from "gg";\n'
            f"const until = Date.now() + {secs * 1000:.0f};\nwhile (Date.now() < until) {{}}\n"
            'session.finish("spun");\n'
        )
    return (
        "import time\nfrom gg import session\n"
        f"until = time.time() + {secs}\nwhile time.time() < until:\n    pass\n"
        'session.finish("spun")\n'
    )


def test_a_wait_on_an_issue_ends_at_the_runs_deadline_and_the_run_times_out(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        [
            profile("root", BOARD, language=lang, roster=ROSTER[:1]),
            profile("impl", language=lang, timeout_secs=4),
        ],
        [
            line(FILE[lang].replace("REVIEWERS", "[]")),
            line(_finish(lang, "never")),
            line(_spin(lang, 8), profile="impl"),
        ],
        arm=arm,
        limits={"maxRuntimeSecs": 1.5},
    )
    assert crew.result.status.value == "timed_out"
    assert len(crew.requests["root"]) == 1  # the wait ended at the deadline, and no turn followed it
    # the child's own program is stopped at the run's deadline too: whichever of the two ends it
    # first, its turn's cut (timed_out) or the run's end (stopped), is its end
    assert crew.one("agent_finished", "root.1")["status"] in {"timed_out", "stopped"}
