"""The planner example, replayed offline through the command line (issue 12, "Tests and done"): a
planner holding every kind (memories, a task list, the board, skills and the thread archive) files
two issues for two implementers that share one `markdown` store (each hears of the other's note
before the turn that writes its file), a reviewer approves one, the
planner waits for both, archives its planning turn, forks a copy that writes the changelog from
that archive, and execs into a reviewer organized as a `scratchpad`, which checks the work and
ends the session. Every kind's store is followed through the run by its id."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.store import RunStore

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "planner"
KINDS = ["history", "memories", "tasks", "board", "skills", "archive"]
OUTPUTS = ["src/parse.js", "src/report.js", "CHANGELOG.md", "REVIEW.md"]


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]], str]:
    """The example run twice in a copy of its folder: the second run's folder, events and show,
    once the two runs are found to have grown the same tree to the same end."""
    base = tmp_path_factory.mktemp("planner")
    copy = base / "planner"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns(*(Path(p).name for p in OUTPUTS)))
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        for _ in range(2):  # a second run replays to the same result
            result = runner.invoke(main, ["run", str(copy)])
            assert result.exit_code == 0, result.output
        shown = runner.invoke(main, ["show", "latest"])
        assert shown.exit_code == 0, shown.output
    store = RunStore.at(base, create=False)
    latest, first = store.list_runs()
    events, before = store.events(latest.id), store.events(first.id)
    for kind in ("agent_spawned", "agent_modules", "agent_transition", "agent_finished"):
        assert _stripped(_of(events, kind)) == _stripped(_of(before, kind))
    return copy, events, shown.output


def _stripped(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without what differs from run to run: the run's id and the clock."""
    return sorted(
        ({k: v for k, v in e.items() if k not in ("runId", "timestamp")} for e in events),
        key=lambda e: (e["agentId"], str(e)),
    )


def _of(events: list[dict[str, Any]], kind: str, agent: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind and (agent is None or e["agentId"] == agent)]


def _roster(events: list[dict[str, Any]], agent: str) -> list[tuple[str, str, bool, str | None]]:
    (opened,) = _of(events, "agent_modules", agent)
    return [(r["kind"], r["moduleId"], r["enabled"], r.get("origin")) for r in opened["modules"]]


def _dispositions(transition: dict[str, Any]) -> dict[str, tuple[str, str | None, str | None]]:
    return {r["kind"]: (r["disposition"], r.get("from"), r.get("to")) for r in transition["modules"]}


def _messages(events: list[dict[str, Any]], agent: str, request: int) -> list[str]:
    """The messages of the `request`-th request `agent` sent, as the model read them."""
    return [str(m["content"]) for m in _of(events, "model_request", agent)[request]["messages"]]


def _prompt(events: list[dict[str, Any]], agent: str, request: int) -> str:
    return "\n".join(_messages(events, agent, request))


def test_the_planner_tree_is_two_implementers_a_reviewer_a_fork_and_an_exec(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, shown = ran
    spawned = [(e["agentId"], e["profileId"], e["depth"]) for e in _of(events, "agent_spawned")]
    assert spawned == [
        ("root", "planner", 0),
        ("root.1", "implementer", 1),
        ("root.2", "implementer", 1),
        ("root.3", "reviewer", 1),
        ("root.f1", "planner", 1),
        ("root@2", "reviewer", 0),
    ]
    moves = [(e["kind"], e["toAgentId"], e["profileId"]) for e in _of(events, "agent_transition", "root")]
    assert moves == [("fork", "root.f1", "planner"), ("exec", "root@2", "reviewer")]
    finished = {e["agentId"]: e["summary"] for e in _of(events, "agent_finished")}
    assert finished["root.3"] == "Approved." and finished["root@2"] == "Approved."
    assert finished["root.f1"] == "CHANGELOG.md names 2 issues"
    assert _of(events, "run_finished")[0]["finalText"] == "Approved."
    assert "root.f1 · planner · fork · depth 1 · completed" in shown
    assert "root@2 · reviewer · exec · depth 0 · completed — Approved." in shown


def test_every_incarnation_states_its_roster_of_the_six_kinds_in_order(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, _ = ran
    for event in _of(events, "agent_modules"):
        assert [row["kind"] for row in event["modules"]] == KINDS
    off = ("archive", "", False, None)
    assert _roster(events, "root") == [
        ("history", "history-0", True, "created"),
        ("memories", "memories-0", True, "created"),
        ("tasks", "tasks-0", True, "created"),
        ("board", "board-0", True, "run"),
        ("skills", "skills-0", True, "created"),
        ("archive", "archive-0", True, "created"),
    ]
    for n, implementer in enumerate(("root.1", "root.2"), start=1):
        assert _roster(events, implementer) == [
            ("history", f"history-{n}", True, "created"),
            ("memories", "memories-1", True, "profile"),  # one store for the profile
            ("tasks", "", False, None),
            ("board", "board-0", True, "run"),  # held without the capability
            ("skills", "", False, None),
            off,
        ]
    assert _roster(events, "root.3") == [
        ("history", "history-3", True, "created"),
        ("memories", "memories-2", True, "created"),
        ("tasks", "tasks-1", True, "created"),
        ("board", "board-0", True, "run"),
        ("skills", "", False, None),
        off,
    ]
    assert _roster(events, "root.f1") == [
        ("history", "history-4", True, "forked"),
        ("memories", "memories-3", True, "forked"),
        ("tasks", "tasks-2", True, "forked"),
        ("board", "board-0", True, "run"),
        ("skills", "skills-1", True, "forked"),
        ("archive", "archive-1", True, "forked"),
    ]
    assert _roster(events, "root@2") == [
        ("history", "history-0", True, "transferred"),
        ("memories", "memories-4", True, "created"),  # re-initialized under the reviewer's strategy
        ("tasks", "tasks-0", True, "transferred"),
        ("board", "board-0", True, "run"),
        ("skills", "", False, None),
        off,
    ]


def test_the_implementers_share_one_markdown_store_and_each_hears_of_the_others_write(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, _ = ran
    for implementer in ("root.1", "root.2"):
        row = _of(events, "agent_modules", implementer)[0]["modules"][1]
        assert row["kind"] == "memories"
        assert (row["moduleId"], row["scope"], row["writable"]) == ("memories-1", "shared", True)
        assert _of(events, "memory_state", implementer)[-1]["memories"][0]["name"] == "parse-shape"
    written = [(e["agentId"], e["name"], e["revision"]) for e in _of(events, "memory_revision")]
    assert ("root.2", "parse-shape", 1) in written and ("root.1", "report-needs", 1) in written
    heard = {"root.1": "- added `parse-shape` — what parse(text) returns", "root.2": "- added `report-needs`"}
    for implementer, notice in heard.items():
        # its three requests: the last is the turn that writes its file, whenever the other's note came
        told = [
            message
            for request in range(3)
            for message in _messages(events, implementer, request)
            if message.startswith("Another agent holding your memories changed them")
        ]
        own = "report-needs" if implementer == "root.1" else "parse-shape"
        assert len(told) == 1 and notice in told[0] and own not in told[0]  # never told of its own write


def test_both_issues_are_done_and_the_reviewer_reviewed_the_one_that_names_it(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, _ = ran
    last = _of(events, "board_state")[-1]
    assert last["moduleId"] == "board-0" and [e["id"] for e in last["epics"]] == ["STOCK"]
    issues = [(i["id"], i["status"], i["assignedAgentId"], i.get("reviewers")) for i in last["issues"]]
    assert issues == [("STOCK-1", "done", "root.1", ["reviewer"]), ("STOCK-2", "done", "root.2", None)]
    assert "issue `STOCK-1`" in _of(events, "agent_spawned", "root.3")[0]["brief"]
    assert {e["moduleId"] for e in _of(events, "board_state")} == {"board-0"}
    waited = _prompt(events, "root", 1)
    assert "Issue `STOCK-1` is done." in waited and "Issue `STOCK-2` is done." in waited
    # the fork's write, on the one board
    assert last["issues"][1]["description"] == "Its line is in CHANGELOG.md."


def test_the_fork_copies_the_task_list_under_a_new_id_and_links_the_board(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, _ = ran
    fork, _ = _of(events, "agent_transition", "root")
    assert _dispositions(fork) == {
        "history": ("copied", "history-0", "history-4"),
        "memories": ("copied", "memories-0", "memories-3"),
        "tasks": ("copied", "tasks-0", "tasks-2"),
        "board": ("linked", "board-0", "board-0"),
        "skills": ("copied", "skills-0", "skills-1"),
        "archive": ("copied", "archive-0", "archive-1"),
    }

    def changelog(agent: str) -> list[str]:
        return [
            t["status"]
            for e in _of(events, "tasks_state", agent)
            for t in e["tasks"]
            if t["id"] == "changelog"
        ]

    copy_done = _of(events, "tasks_state", "root.f1")[-1]
    assert copy_done["moduleId"] == "tasks-2" and changelog("root.f1")[-1] == "done"
    # the original's list did not hear of the copy's completion: it closes the task itself
    assert "- [ready] `changelog`" in _prompt(events, "root", 2)
    assert {e["moduleId"] for e in _of(events, "tasks_state", "root")} == {"tasks-0"}
    (copied,) = _of(events, "memory_state", "root.f1")[-1]["memories"]
    (edited,) = _of(events, "memory_state", "root")[-1]["memories"]
    assert (copied["name"], copied["len"]) == ("plan", 85)  # the original's later edit stays its own
    assert (edited["name"], edited["len"]) == ("plan", 118)


def test_the_archived_planning_turn_leaves_the_window_and_the_copy_holds_it_under_a_new_id(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, _ = ran
    archived = _of(events, "archive_state", "root")[-1]
    copied = _of(events, "archive_state", "root.f1")[-1]
    assert (archived["moduleId"], copied["moduleId"]) == ("archive-0", "archive-1")
    assert [e["seq"] for e in copied["entries"]] == [e["seq"] for e in archived["entries"]] == [0, 1, 2, 3]
    assert [e["source"] for e in archived["entries"]] == ["view", "view", "thread", "thread"]
    assert "File: spec.md" in _prompt(events, "root", 1) and "File: spec.md" not in _prompt(events, "root", 2)
    searched = [e for e in _of(events, "api_result", "root.f1") if e["operation"] == "context.search_archive"]
    assert [e["ok"] for e in searched] == [True]


def test_the_exec_carries_tasks_and_board_drops_skills_and_archive_and_restarts_memories_saying_why(
    ran: tuple[Path, list[dict[str, Any]], str],
) -> None:
    _, events, _ = ran
    _, exec_ = _of(events, "agent_transition", "root")
    assert _dispositions(exec_) == {
        "history": ("carried", "history-0", "history-0"),
        "memories": ("initialized", "memories-0", "memories-4"),
        "tasks": ("carried", "tasks-0", "tasks-0"),
        "board": ("carried", "board-0", "board-0"),
        "skills": ("dropped", "skills-0", None),
        "archive": ("dropped", "archive-0", None),
    }
    (arrived, *_) = _of(events, "memory_state", "root@2")
    assert (arrived["moduleId"], arrived["strategy"], arrived["memories"]) == ("memories-4", "scratchpad", [])
    opening = _prompt(events, "root@2", 0)
    assert "Your memories were organized as `markdown`; this agent organizes them as `scratchpad`" in opening
    assert "the skills already read and the thread archive did not come with it" in opening
    assert "- [ready] `check`: a reviewer checks the whole" in opening
    final = _of(events, "tasks_state", "root@2")[-1]
    assert final["moduleId"] == "tasks-0" and all(t["status"] == "done" for t in final["tasks"])


def test_the_workspace_holds_what_each_agent_wrote(ran: tuple[Path, list[dict[str, Any]], str]) -> None:
    copy, _, _ = ran
    workspace = copy / "workspace"
    assert "return { name, count: Number(count) };" in (workspace / "src" / "parse.js").read_text()
    assert 'count < LOW ? " (low)" : ""' in (workspace / "src" / "report.js").read_text()
    assert (workspace / "CHANGELOG.md").read_text() == (
        "# Changelog\n\n"
        "- STOCK-1: src/report.js: report(items) renders one line per item, below 5 marked (low).\n"
        "- STOCK-2: src/parse.js: parse(text) gives [{ name, count }], count a Number.\n"
    )
    assert (workspace / "REVIEW.md").read_text().startswith("Approved: src/parse.js, src/report.js")


def test_the_planner_example_checks_clean() -> None:
    checked = CliRunner().invoke(main, ["check", str(EXAMPLE)])
    assert checked.exit_code == 0, checked.output
    assert "implementer (standard, javascript, replay journal.jsonl)" in checked.output
