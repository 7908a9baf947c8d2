"""The thread archive in whole runs (seed 003, "archive"): held under `agent-managed-context` as
its own store, its turns archived out of the window and found again, and its entry counter carried
across a fork so the original and the copy both hand out the same next number, never one twice in
one archive. It contributes nothing to any prompt."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import FORK, line, profile, run_crew, subagents

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript")

MANAGED = {"id": "agent-managed-context"}

THROW = 'throw new Error(["MARK", "ONE"].join("-"));\n'
ARCHIVE_AND_FORK = (
    'import { context, delegation, views } from "gg";\n'
    "const report = context.archiveThread([{ from: 1, to: 1 }]);\n"
    'views.openText("turn two", "what turn two saw");\n'
    'delegation.fork("archive your own turn two");\n'
    "console.log(JSON.stringify(report.detail));\n"
)
ARCHIVE_TWO = (
    'import { context } from "gg";\n'
    "console.log(JSON.stringify(context.archiveThread([{ from: 2, to: 2 }]).detail));\n"
)
FINISH = (
    'import { session, delegation } from "gg";\ndelegation.waitForSubagents();\nsession.finish("done");\n'
)


def test_a_fork_carries_the_archive_counter_so_both_copies_number_their_next_entry_alike(
    tmp_path: Path, arm: Arm
) -> None:
    root = profile("root", MANAGED, subagents(1), FORK)
    crew = run_crew(
        tmp_path,
        [root],
        [
            line(THROW, agent="root"),
            line(ARCHIVE_AND_FORK, agent="root"),
            line(ARCHIVE_TWO, agent="root"),
            line(FINISH, agent="root"),
            line(ARCHIVE_TWO, agent="root.f1"),
            line('import { session } from "gg";\nsession.finish("copied");\n', agent="root.f1"),
        ],
        arm=arm,
    )
    assert crew.finished["status"] == "completed", crew.finished
    (roster,) = [e["modules"][5] for e in crew.of("agent_modules", "root")]
    (copied,) = [e["modules"][5] for e in crew.of("agent_modules", "root.f1")]
    assert (roster["moduleId"], copied["moduleId"], copied["origin"]) == ("archive-0", "archive-1", "forked")
    (fork,) = crew.of("agent_transition", "root")
    assert fork["modules"][5] == {
        "kind": "archive",
        "disposition": "copied",
        "from": "archive-0",
        "to": "archive-1",
    }
    last = {agent: crew.of("archive_state", agent)[-1] for agent in ("root", "root.f1")}
    seqs = {agent: [entry["seq"] for entry in state["entries"]] for agent, state in last.items()}
    assert seqs["root"][0] == seqs["root.f1"][0] == 0  # the copy holds what was archived before the fork
    assert seqs["root"][1] == seqs["root.f1"][1] == 1  # each numbers its first entry after the fork #1
    assert all(len(s) == len(set(s)) for s in seqs.values())  # no number twice in one archive
    assert {e["moduleId"] for e in crew.of("archive_state", "root.f1")} == {"archive-1"}
    assert "MARK-ONE" in crew.prompt("root", 1) and "MARK-ONE" not in crew.prompt("root", 2)


OPEN_VIEWS = (
    'import { views } from "gg";\n'
    'views.openFile("gear.txt");\nviews.openFile("bolt.txt");\n'
    'views.openText("note", ["NOTE", "TEXT"].join("-"));\n'
)
CLOSE_VIEWS = (
    'import { context, views } from "gg";\n'
    'const report = context.evictFileView("gear.txt");\n'
    'console.log(JSON.stringify([report.items, report.paths, views.close("note")]));\n'
)


def test_closing_views_in_a_run_takes_them_out_of_the_window_from_the_next_request_on(
    tmp_path: Path, arm: Arm
) -> None:
    crew = run_crew(
        tmp_path,
        [profile("root", MANAGED)],
        [line(OPEN_VIEWS), line(CLOSE_VIEWS), line('import { session } from "gg";\nsession.finish("x");\n')],
        arm=arm,
        files={"gear.txt": "GEAR-TEXT\n", "bolt.txt": "BOLT-TEXT\n"},
    )
    assert crew.finished["status"] == "completed", crew.finished
    assert crew.logged_json("root", 1) == [[1, ["gear.txt"], 1]]
    before, after = crew.prompt("root", 1), crew.prompt("root", 2)
    assert all(text in before for text in ("GEAR-TEXT", "BOLT-TEXT", "NOTE-TEXT"))
    assert "GEAR-TEXT" not in after and "NOTE-TEXT" not in after and "BOLT-TEXT" in after
    (evicted,) = crew.of("context_managed", "root")
    assert (evicted["action"], evicted["items"]) == ("evict_file_view", 1)
