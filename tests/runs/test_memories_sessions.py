"""Whole sessions with memories, on the JavaScript and the Python arm (issue 12, "Tests and done"):
a root holding `markdown` memories forks, the copy and the original diverge, and an exec hands the
session to a profile that organizes memories as a `scratchpad`, which starts a fresh store and is
told why in its opening note."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from crew import EXEC, FORK, Crew, line, profile, run_crew, subagents

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")


def _memories(strategy: str, scope: str = "isolated") -> dict[str, Any]:
    index = 2000 if strategy == "markdown" else 0  # an index cap bounds only an index
    caps = {"maxCount": 0, "maxLenPerMemory": 500, "maxTotalLen": 0, "maxLenIndex": index}
    return {
        "id": "memories",
        "implementation": strategy,
        "params": {"scope": scope, **caps, "maxLenDescription": 80, "maxResults": 0},
    }


PROGRAMS = {
    "javascript": {
        "plan_and_fork": """import { delegation, memories } from "gg";
memories.createMemory({ name: "plan", description: "what we build", body: ["a", "kiln"].join(" ") });
delegation.fork("keep notes of your own");
""",
        "copy": """import { memories, session } from "gg";
memories.editMemory({ name: "plan", search: "kiln", replace: "kiln for the copy" });
memories.createMemory({ name: "copy-note", description: "the copy's own", body: "only the copy's" });
session.finish(memories.readMemory("plan"));
""",
        "diverge": """import { context, delegation, memories } from "gg";
delegation.waitForSubagents();
let theirs = "found";
try { memories.readMemory("copy-note"); } catch (e) { theirs = `${e.code}: ${e.message}`; }
const before = memories.readMemory("plan");
memories.editMemory({ name: "plan", search: "kiln", replace: "kiln with a chimney" });
console.log(JSON.stringify([before, theirs, memories.readMemory("plan")]));
context.compact("planned the kiln");
""",
        "exec": """import { delegation } from "gg";
delegation.exec("worker", "carry the notes on");
""",
        "worker": """import { memories, session } from "gg";
const body = ["a", "pad"].join(" ");
const usage = memories.writeMemory({ name: "fresh", description: "the worker's", body });
session.finish(`worker holds ${usage.count}`);
""",
    },
    "python": {
        "plan_and_fork": """from gg import delegation, memories
memories.create_memory(name="plan", description="what we build", body=" ".join(["a", "kiln"]))
delegation.fork("keep notes of your own")
""",
        "copy": """from gg import memories, session
memories.edit_memory(name="plan", search="kiln", replace="kiln for the copy")
memories.create_memory(name="copy-note", description="the copy's own", body="only the copy's")
session.finish(memories.read_memory("plan"))
""",
        "diverge": """import json
from gg import context, core, delegation, memories
delegation.wait_for_subagents()
theirs = "found"
try:
    memories.read_memory("copy-note")
except OSError as e:
    theirs = core.details(e).code + ": " + core.details(e).message
before = memories.read_memory("plan")
memories.edit_memory(name="plan", search="kiln", replace="kiln with a chimney")
print(json.dumps([before, theirs, memories.read_memory("plan")]))
context.compact("planned the kiln")
""",
        "exec": """from gg import delegation
delegation.exec("worker", "carry the notes on")
""",
        "worker": """from gg import memories, session
usage = memories.write_memory(name="fresh", description="the worker's", body=" ".join(["a", "pad"]))
session.finish(f"worker holds {usage.count}")
""",
    },
}


def _run(tmp_path: Path, arm: Arm) -> Crew:
    programs = PROGRAMS[arm.language]
    return run_crew(
        tmp_path,
        [
            profile(
                "root",
                _memories("markdown"),
                subagents(1),
                FORK,
                EXEC,
                language=arm.language,
                roster=["worker"],
            ),
            profile("worker", _memories("scratchpad"), language=arm.language),
        ],
        [
            line(programs["plan_and_fork"]),
            line(programs["diverge"]),
            line(programs["exec"]),
            line(programs["copy"], agent="root.f1"),
            line(programs["worker"], profile="worker"),
        ],
        arm=arm,
    )


def _rows(event: dict[str, Any]) -> dict[str, tuple[str, str | None, str | None]]:
    return {row["kind"]: (row["disposition"], row.get("from"), row.get("to")) for row in event["modules"]}


def test_a_forked_markdown_store_is_copied_under_a_new_id_and_the_two_diverge(
    tmp_path: Path, arm: Arm
) -> None:
    crew = _run(tmp_path, arm)
    fork, _ = crew.of("agent_transition", "root")
    assert fork["kind"] == "fork"
    assert _rows(fork)["memories"] == ("copied", "memories-0", "memories-1")
    (copy_roster,) = [e["modules"][1] for e in crew.of("agent_modules", "root.f1")]
    assert copy_roster == {
        "kind": "memories",
        "moduleId": "memories-1",
        "enabled": True,
        "origin": "forked",
        "scope": "isolated",
        "writable": True,
    }
    assert crew.one("agent_finished", "root.f1")["summary"] == "a kiln for the copy"
    create = {"javascript": "gg.memories.createMemory", "python": "gg.memories.create_memory"}[arm.language]
    missing = f"not-found: no memory named `copy-note`; create one with `{create}`"  # spelt for the arm
    assert crew.logged_json("root", 1) == [["a kiln", missing, "a kiln with a chimney"]]
    copy_revisions = [(e["name"], e["revision"], e["change"]) for e in crew.of("memory_revision", "root.f1")]
    assert copy_revisions == [("plan", 2, "updated"), ("copy-note", 1, "written")]  # the counter carried
    root_revisions = [(e["name"], e["revision"]) for e in crew.of("memory_revision", "root")]
    assert root_revisions == [("plan", 1), ("plan", 2)]  # one write, one event, on its author's stream
    copy_last = crew.of("memory_state", "root.f1")[-1]
    assert (copy_last["moduleId"], [m["name"] for m in copy_last["memories"]]) == (
        "memories-1",
        ["copy-note", "plan"],
    )


def test_the_markdown_index_reaches_the_prompt_at_a_compaction_boundary_bodies_never(
    tmp_path: Path, arm: Arm
) -> None:
    crew = _run(tmp_path, arm)
    after = crew.prompt("root", 2)
    assert "- `plan` — what we build" in after
    assert "a kiln with a chimney" not in after  # a body stays out until it is read
    assert "- `plan` — what we build" not in crew.prompt("root", 1)  # built at the boundary, not per write
    assert "organized as `markdown`" in crew.prompt("root", 0)  # the system prompt's own section


def test_an_exec_to_another_strategy_starts_a_fresh_store_and_the_note_says_why(
    tmp_path: Path, arm: Arm
) -> None:
    crew = _run(tmp_path, arm)
    succession = crew.of("agent_transition", "root")[1]
    assert succession["kind"] == "exec"
    assert _rows(succession)["memories"] == ("initialized", "memories-0", "memories-2")
    assert _rows(succession)["history"][0] == "carried"
    (arrived,) = crew.of("memory_state", "root@2")[:1]
    assert (arrived["moduleId"], arrived["strategy"], arrived["count"]) == ("memories-2", "scratchpad", 0)
    opening = crew.prompt("root@2", 0)
    assert "organized as `markdown`" in opening and "`scratchpad`" in opening
    assert "carry the notes on" in opening
    assert "- `plan` — what we build" not in opening  # the old index leaves with the store it listed
    assert crew.finished["finalText"] == "worker holds 1"


PAD = {
    "javascript": {
        "write": """import { context, memories } from "gg";
memories.writeMemory({ name: "gauge", description: "the gauge", body: ["ten", "millimetres"].join(" ") });
context.compact("noted the gauge");
""",
        "fork": """import { delegation, session } from "gg";
delegation.fork("check the gauge again");
session.finish("forked");
""",
        "copy": """import { session } from "gg";
session.finish("checked");
""",
    },
    "python": {
        "write": """from gg import context, memories
memories.write_memory(name="gauge", description="the gauge", body=" ".join(["ten", "millimetres"]))
context.compact("noted the gauge")
""",
        "fork": """from gg import delegation, session
delegation.fork("check the gauge again")
session.finish("forked")
""",
        "copy": """from gg import session
session.finish("checked")
""",
    },
}


def test_a_fork_copy_keeps_the_scratchpad_block_its_window_was_copied_with(tmp_path: Path, arm: Arm) -> None:
    programs = PAD[arm.language]
    crew = run_crew(
        tmp_path,
        [profile("root", _memories("scratchpad"), subagents(1), FORK, language=arm.language)],
        [line(programs["write"]), line(programs["fork"]), line(programs["copy"], agent="root.f1")],
        arm=arm,
    )
    assert crew.prompt("root", 1).count("ten millimetres") == 1  # the body, pinned at the boundary
    opening = crew.prompt("root.f1", 0)
    assert opening.count("ten millimetres") == 1 and "Your memories, as they stood" in opening


def test_an_exec_to_a_profile_without_memories_drops_them_after_their_last_write_is_reported(
    tmp_path: Path, arm: Arm
) -> None:
    if arm.language == "javascript":
        hand_on = """import { delegation, memories } from "gg";
memories.writeMemory({ name: "last", description: "the last word", body: "kept nowhere" });
delegation.exec("worker", "finish without notes");
"""
        finish = 'import { session } from "gg";\nsession.finish("no notes");\n'
    else:
        hand_on = """from gg import delegation, memories
memories.write_memory(name="last", description="the last word", body="kept nowhere")
delegation.exec("worker", "finish without notes")
"""
        finish = 'from gg import session\nsession.finish("no notes")\n'
    crew = run_crew(
        tmp_path,
        [
            profile("root", _memories("scratchpad"), EXEC, language=arm.language, roster=["worker"]),
            profile("worker", language=arm.language),
        ],
        [line(hand_on), line(finish, profile="worker")],
        arm=arm,
    )
    transition = crew.one("agent_transition", "root")
    assert _rows(transition)["memories"] == ("dropped", "memories-0", None)
    assert crew.index("memory_revision", "root") < crew.index("agent_transition", "root")
    roster = crew.one("agent_modules", "root@2")["modules"][1]
    assert roster == {"kind": "memories", "moduleId": "", "enabled": False, "writable": False}
    assert crew.of("memory_state", "root@2") == []
    assert "the memories" in crew.prompt("root@2", 0).split("Succession")[-1]


READ_ONLY_ROOT = {
    "javascript": """import { memories, session } from "gg";
try { memories.createMemory({ name: "a", description: "d", body: "written to a read-only store" }); }
catch (e) { console.log(e.code + ": " + e.message); }
session.finish("tried");
""",
    "python": """import gg
from gg import memories, session
try:
    memories.create_memory(name="a", description="d", body="written to a read-only store")
except gg.ApiError as e:
    print(gg.core.details(e).code + ": " + gg.core.details(e).message)
session.finish("tried")
""",
}


def test_a_read_only_root_with_nothing_to_inherit_reads_only_and_its_roster_says_so(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        [profile("root", _memories("markdown", "read-only"), language=lang)],
        [line(READ_ONLY_ROOT[lang])],
        arm=arm,
    )
    read = "gg.memories.readMemory" if lang == "javascript" else "gg.memories.read_memory"
    assert crew.logs("root") == [
        f"refused: this agent may read these memories, not change them; the calls it has: `{read}`"
    ]
    (row,) = [r for r in crew.one("agent_modules", "root")["modules"] if r["kind"] == "memories"]
    assert (row["scope"], row["writable"], row["origin"]) == ("read-only", False, "created")
    assert crew.of("memory_revision") == []
