"""Whole sessions of many agents, on the JavaScript and the Python arm: subagents spawned and waited
for, messages, exec, fork, depth, ceilings and stopping (issue 11, "Tests and done"). Each program
is written in the arm's own idiom; where two agents must be running at once, each waits in its
program for the other's mark in the workspace, so the test fails unless they truly overlap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from crew import EXEC, FORK, Crew, line, profile, run_crew, subagents

from gg.config.skills import BUILT_IN_FAMILIES
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")


def _await(name: str, language: str, attempts: int = 20000) -> str:
    """A program fragment that spins until the workspace file `name` exists, failing otherwise."""
    flag = name.replace("-", "_")
    if language == "javascript":
        return (
            f"let seen_{flag} = false;\n"
            f"for (let i = 0; i < {attempts} && !seen_{flag}; i++) {{\n"
            f'  try {{ files.readFile("{name}"); seen_{flag} = true; }} catch (e) {{}}\n'
            f"}}\n"
            f'if (!seen_{flag}) throw new Error("no {name}");\n'
        )
    return (
        f"seen_{flag} = False\n"
        f"tries_{flag} = 0\n"
        f"while tries_{flag} < {attempts} and not seen_{flag}:\n"
        f"    try:\n"
        f'        files.read_file("{name}")\n'
        f"        seen_{flag} = True\n"
        f"    except OSError:\n"
        f"        tries_{flag} += 1\n"
        f"if not seen_{flag}:\n"
        f'    raise ValueError("no {name}")\n'
    )


def _spawn_and_wait(language: str, *briefs: tuple[str, str]) -> str:
    """The root's program: spawn one child per (profile, brief), wait for all, log the results."""
    if language == "javascript":
        spawns = "".join(
            f'handles.push(delegation.spawnSubagent({{ agent: "{p}", prompt: "{b}" }}));\n' for p, b in briefs
        )
        return (
            'import { delegation } from "gg";\nconst handles = [];\n' + spawns + "const results = "
            "delegation.waitForSubagents(handles.map((h) => h.id));\n"
            "console.log(JSON.stringify(results.map((r) => [r.id, r.status, r.summary, r.approved ?? null, "
            "r.changes ?? null])));\n"
        )
    spawns = "".join(
        f'handles.append(delegation.spawn_subagent(agent="{p}", prompt="{b}"))\n' for p, b in briefs
    )
    return (
        "import json\nfrom gg import delegation\nhandles = []\n" + spawns + "results = "
        "delegation.wait_for_subagents([h.id for h in handles])\n"
        "print(json.dumps([[r.id, r.status, r.summary, r.approved, r.changes] for r in results]))\n"
    )


def _finish(language: str, text: str) -> str:
    if language == "javascript":
        return f'import {{ session }} from "gg";\nsession.finish("{text}");\n'
    return f'from gg import session\nsession.finish("{text}")\n'


def _imports(language: str, *families: str) -> str:
    if language == "javascript":
        return f'import {{ {", ".join(families)} }} from "gg";\n'
    return f"from gg import {', '.join(families)}\n"


def test_two_reviewers_run_at_once_and_the_wait_returns_both_verdicts(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    review = {
        "left": "session.approve();\n" if lang == "javascript" else "session.approve()\n",
        "right": 'session.requestChanges(["rename x"]);\n'
        if lang == "javascript"
        else 'session.request_changes(["rename x"])\n',
    }
    mark = (
        'files.writeFile("started-{0}", "yes");\n'
        if lang == "javascript"
        else 'files.write_file("started-{0}", "yes")\n'
    )

    def reviewer(me: str, other: str) -> str:
        return (
            _imports(lang, "files", "session")
            + mark.format(me)
            + _await(f"started-{other}", lang)
            + review[me]
        )

    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(), language=lang, roster=["reviewer"]),
            profile("reviewer", language=lang, role="review"),
        ],
        [
            line(
                _spawn_and_wait(
                    lang, ("reviewer", "review the left half"), ("reviewer", "review the right half")
                )
            ),
            line(_finish(lang, "reviewed")),
            line(reviewer("left", "right"), agent="root.1"),
            line(reviewer("right", "left"), agent="root.2"),
        ],
        arm=arm,
    )
    assert crew.result.status.value == "completed" and crew.finished["finalText"] == "reviewed"
    assert crew.logged_json("root") == [
        [
            ["root.1", "completed", "Approved.", True, None],
            ["root.2", "completed", "Changes requested:\n1. rename x", False, ["rename x"]],
        ]
    ]
    # each reviewer's first call came before the other's program ended: they ran at once
    assert crew.index("api_call", "root.2") < crew.index("code_execution", "root.1")
    assert crew.index("api_call", "root.1") < crew.index("code_execution", "root.2")
    spawned = crew.one("agent_spawned", "root.1")
    assert (spawned["parentAgentId"], spawned["profileId"], spawned["depth"]) == ("root", "reviewer", 1)
    assert spawned["brief"] == "review the left half"
    assert crew.one("agent_finished", "root.2")["status"] == "completed"
    assert all(e.get("parentAgentId") == "root" for e in crew.events if e["agentId"] == "root.1")


def test_a_message_reaches_the_childs_next_prompt_and_only_a_running_child_takes_one(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    if lang == "javascript":
        root = (
            _imports(lang, "delegation", "files")
            + 'const child = delegation.spawnSubagent({ agent: "worker", prompt: "wait for word" });\n'
            + _await("ready", lang)
            + 'delegation.sendMessage(child.id, "the bolts are 8 mm");\nchild.send("and the washers 2 mm");\n'
            + 'files.writeFile("sent", "yes");\nlet stranger = "sent";\n'
            + 'try { delegation.sendMessage("root.9", "hello"); }\n'
            + "catch (e) { stranger = `${e.code} ${e.operation}`; }\n"
            + 'const [result] = delegation.waitForSubagents([child.id]);\nlet late = "sent";\n'
            + 'try { child.send("too late"); } catch (e) { late = `${e.code} ${e.operation}`; }\n'
            + "console.log(JSON.stringify([stranger, result.summary, late]));\n"
        )
        first = _imports(lang, "files") + 'files.writeFile("ready", "yes");\n' + _await("sent", lang)
    else:
        root = (
            "import json\n"
            + _imports(lang, "core", "delegation", "files")
            + 'child = delegation.spawn_subagent(agent="worker", prompt="wait for word")\n'
            + _await("ready", lang)
            + 'delegation.send_message(child.id, "the bolts are 8 mm")\nchild.send("and the washers 2 mm")\n'
            + 'files.write_file("sent", "yes")\nstranger = "sent"\n'
            + 'try:\n    delegation.send_message("root.9", "hello")\nexcept OSError as e:\n'
            + "    stranger = core.details(e).code + ' ' + core.details(e).operation\n"
            + "result = delegation.wait_for_subagents([child.id])[0]\nlate = 'sent'\n"
            + 'try:\n    child.send("too late")\nexcept OSError as e:\n'
            + "    late = core.details(e).code + ' ' + core.details(e).operation\n"
            + "print(json.dumps([stranger, result.summary, late]))\n"
        )
        first = _imports(lang, "files") + 'files.write_file("ready", "yes")\n' + _await("sent", lang)
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(), language=lang, roster=["worker"]), profile("worker", language=lang)],
        [
            line(root),
            line(_finish(lang, "told")),
            line(first, profile="worker"),
            line(_finish(lang, "got word"), profile="worker"),
        ],
        arm=arm,
    )
    assert crew.logged_json("root") == [["not-found send_message", "got word", "conflict send_message"]]
    second = crew.prompt("root.1", 1)
    assert (
        "Message from `root`" in second
        and "the bolts are 8 mm" in second
        and "and the washers 2 mm" in second
    )
    assert "the bolts are 8 mm" not in crew.prompt("root.1", 0)


def _exec_run(
    tmp_path: Path, arm: Arm, worker_programs: list[str], limits: dict[str, int] | None = None
) -> Crew:
    lang = arm.language
    plan = (
        "// root-turn-one: weighing the crates\n"
        if lang == "javascript"
        else "# root-turn-one: weighing the crates\n"
    )
    if lang == "javascript":
        hand_on = (
            _imports(lang, "delegation")
            + 'delegation.exec("worker", "finish the weighing");\nconsole.log("handed on");\n'
        )
    else:
        hand_on = (
            _imports(lang, "delegation")
            + 'delegation.exec("worker", "finish the weighing")\nprint("handed on")\n'
        )
    log = 'console.log("planned");\n' if lang == "javascript" else 'print("planned")\n'
    return run_crew(
        tmp_path,
        [
            profile("root", EXEC, language=lang, roster=["worker"]),
            profile("worker", language=lang, name="The Worker"),
        ],
        [line(plan + log), line(hand_on), *(line(p, profile="worker") for p in worker_programs)],
        arm=arm,
        limits=limits,
    )


def test_an_exec_hands_the_window_on_with_an_opening_note_and_the_turn_count(
    tmp_path: Path, arm: Arm
) -> None:
    crew = _exec_run(tmp_path, arm, [_finish(arm.language, "crates weighed")])
    assert crew.finished["finalText"] == "crates weighed" and crew.logs("root", 1) == ["handed on"]
    transition = crew.one("agent_transition", "root")
    assert (transition["kind"], transition["toAgentId"], transition["profileId"]) == (
        "exec",
        "root@2",
        "worker",
    )
    assert transition["modules"][0] == {
        "kind": "history",
        "disposition": "carried",
        "from": "history-0",
        "to": "history-0",
    }
    assert [row["disposition"] for row in transition["modules"][1:]] == ["absent"] * 5
    assert transition["library"] == {"disposition": "absent", "held": 0, "dropped": 0}  # neither keeps one
    spawned = crew.one("agent_spawned", "root@2")
    assert (spawned["parentAgentId"], spawned["depth"], spawned["brief"]) == (
        "root",
        0,
        "finish the weighing",
    )
    (outcome,) = crew.of("turn_outcome", "root@2")
    assert outcome["turn"] == 3 and outcome["turns"] == 3  # the turn count goes on across incarnations
    first = crew.requests["root@2"][0]
    text = crew.prompt("root@2", 0)
    assert "root-turn-one: weighing the crates" in text and "finish the weighing" in text
    assert "Succession" in text and "`worker` (The Worker)" in text and "`root`" in text
    assert first.system != crew.requests["root"][0].system  # its own system prompt, not its predecessor's
    assert first.messages[-1].content.startswith("Succession\n----\n")


def test_one_turn_ceiling_is_spent_across_incarnations(tmp_path: Path, arm: Arm) -> None:
    still = (
        'console.log("still weighing");\n' if arm.language == "javascript" else 'print("still weighing")\n'
    )
    crew = _exec_run(tmp_path, arm, [still, _finish(arm.language, "too late")], limits={"maxTurns": 3})
    assert crew.result.status.value == "exhausted"
    assert [o["turn"] for o in crew.of("turn_outcome")] == [1, 2, 3]
    assert crew.one("limit_exceeded", "root@2")["observed"] == 3


def test_a_fork_copy_runs_the_original_goes_on_and_waits_for_it_on_its_next_turn(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    if lang == "javascript":
        forking = (
            '// turn-one: counting the bolts\nimport { delegation } from "gg";\n'
            'const copy = delegation.fork("count the washers");\nconsole.log(copy.id);\n'
            "console.log(JSON.stringify(delegation.waitForSubagents()));\n"
        )
        waiting = (
            'import { delegation } from "gg";\n'
            "const results = delegation.waitForSubagents();\n"
            "console.log(JSON.stringify(results.map((r) => [r.id, r.status, r.summary])));\n"
        )
    else:
        forking = (
            "# turn-one: counting the bolts\nimport json\nfrom gg import delegation\n"
            'copy = delegation.fork("count the washers")\nprint(copy.id)\n'
            "print(json.dumps([r.id for r in delegation.wait_for_subagents()]))\n"
        )
        waiting = (
            "import json\nfrom gg import delegation\n"
            "print(json.dumps([[r.id, r.status, r.summary] for r in delegation.wait_for_subagents()]))\n"
        )
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(1), FORK, language=lang)],
        [
            line(forking),
            line(waiting),
            line(_finish(lang, "bolts and washers")),
            line(_finish(lang, "41 washers"), agent="root.f1"),
        ],
        arm=arm,
    )
    assert crew.logs("root", 0) == ["root.f1", "[]"]  # real at once; not a child until the turn ends
    assert crew.logged_json("root", 1) == [[["root.f1", "completed", "41 washers"]]]
    transition = crew.one("agent_transition", "root")
    assert (transition["kind"], transition["toAgentId"]) == ("fork", "root.f1")
    assert transition["modules"][0] == {
        "kind": "history",
        "disposition": "copied",
        "from": "history-0",
        "to": "history-1",
    }
    spawned = crew.one("agent_spawned", "root.f1")
    assert (spawned["parentAgentId"], spawned["depth"], spawned["profileId"]) == ("root", 1, "root")
    assert crew.index("code_execution", "root") < crew.index("agent_spawned", "root.f1")
    copy = crew.prompt("root.f1", 0)
    assert "turn-one: counting the bolts" in copy and "count the washers" in copy and "Fork" in copy
    assert crew.one("turn_outcome", "root.f1")["turn"] == 2  # the copy's window counts on from its forker's
    assert "count the washers" not in crew.prompt("root", 2).replace('fork("count the washers")', "")


def test_no_agent_stands_deeper_than_the_depth_limit(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    if lang == "javascript":
        probe = (
            'import { delegation, session } from "gg";\nconst seen = [];\n'
            "const attempt = (f) => {\n  try { f(); seen.push('no throw'); }\n"
            "  catch (e) { seen.push(`${e.code} ${e.operation}`); }\n};\n"
            'attempt(() => delegation.spawnSubagent({ agent: "worker", prompt: "deeper" }));\n'
            'attempt(() => delegation.fork("a deeper copy"));\n'
            'console.log(JSON.stringify(seen));\nsession.finish("refused twice");\n'
        )
    else:
        probe = (
            "import json\nfrom gg import core, delegation, session\nseen = []\n"
            'for call in ["spawn", "fork"]:\n    try:\n        if call == "spawn":\n'
            '            delegation.spawn_subagent(agent="worker", prompt="deeper")\n        else:\n'
            '            delegation.fork("a deeper copy")\n        seen.append("no throw")\n'
            "    except OSError as e:\n"
            "        seen.append(core.details(e).code + ' ' + core.details(e).operation)\n"
            'print(json.dumps(seen))\nsession.finish("refused twice")\n'
        )
    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(1), language=lang, roster=["worker"]),
            profile("worker", subagents(1), FORK, language=lang, roster=["worker"]),
        ],
        [
            line(_spawn_and_wait(lang, ("worker", "see how deep"))),
            line(_finish(lang, "depth held")),
            line(probe, profile="worker"),
        ],
        arm=arm,
    )
    assert crew.logged_json("root.1") == [["limit-exceeded spawn_subagent", "limit-exceeded fork"]]
    assert [e["depth"] for e in crew.of("agent_spawned")] == [0, 1]


def test_a_child_stopped_by_a_ceiling_reports_its_status_to_the_waiting_parent(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    idle = 'console.log("thinking");\n' if lang == "javascript" else 'print("thinking")\n'
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(), language=lang, roster=["worker"]), profile("worker", language=lang)],
        [
            line(_spawn_and_wait(lang, ("worker", "never done"))),
            line(_finish(lang, "noted")),
            *[line(idle, profile="worker")] * 3,
        ],
        arm=arm,
        limits={"maxTurns": 2},
    )
    ((child, status, summary, _, _),) = crew.logged_json("root")[0]
    assert (child, status) == ("root.1", "exhausted")
    assert "turns" in summary and "2" in summary and "thinking" in summary  # the ceiling, and its last turn
    assert crew.one("agent_finished", "root.1")["status"] == "exhausted"
    assert crew.finished["finalText"] == "noted"


def test_a_parent_waiting_on_two_children_needs_no_slot_of_its_own_at_max_parallel_one(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(), language=lang, roster=["worker"]), profile("worker", language=lang)],
        [
            line(_spawn_and_wait(lang, ("worker", "first"), ("worker", "second"))),
            line(_finish(lang, "both done")),
            line(_finish(lang, "one done"), profile="worker"),
        ],
        arm=arm,
        limits={"maxParallel": 1},
    )
    assert crew.finished["finalText"] == "both done"
    assert [r[1] for r in crew.logged_json("root")[0]] == ["completed", "completed"]
    # one slot: the second child's turn starts only once the first child's has ended
    first_end = max(crew.index("turn_outcome", "root.1"), crew.index("turn_outcome", "root.2"))
    second_start = max(crew.index("model_request", "root.1"), crew.index("model_request", "root.2"))
    first_done = min(crew.index("turn_outcome", "root.1"), crew.index("turn_outcome", "root.2"))
    assert second_start > first_done and first_end > second_start


def test_children_still_running_when_the_root_ends_are_stopped_and_recorded_so(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    if lang == "javascript":
        root = (
            _imports(lang, "delegation", "files", "session")
            + 'delegation.spawnSubagent({ agent: "worker", prompt: "keep going" });\n'
            + _await("busy", lang)
            + 'session.finish("left it running");\n'
        )
        busy = _imports(lang, "files") + 'files.writeFile("busy", "yes");\n'
    else:
        root = (
            _imports(lang, "delegation", "files", "session")
            + 'delegation.spawn_subagent(agent="worker", prompt="keep going")\n'
            + _await("busy", lang)
            + 'session.finish("left it running")\n'
        )
        busy = _imports(lang, "files") + 'files.write_file("busy", "yes")\n'
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(), language=lang, roster=["worker"]), profile("worker", language=lang)],
        [line(root), *[line(busy, profile="worker")] * 200],
        arm=arm,
    )
    assert crew.result.status.value == "completed" and crew.finished["finalText"] == "left it running"
    stopped = crew.one("agent_finished", "root.1")
    assert stopped["status"] == "stopped"
    after = [e for e in crew.events[crew.events.index(stopped) + 1 :] if e["agentId"] == "root.1"]
    assert after == []
    assert json.dumps(crew.finished["summary"]["agents"][1]["agentId"]) == '"root.1"'


def _machine(states: list[dict[str, object]]) -> dict[str, object]:
    return {"slug": "process", "capabilities": [{"id": "fsm", "params": {"states": states}}]}


def test_a_machine_moves_explore_build_verify_carrying_exactly_what_each_edge_names(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    guide = {"skills/guide/skill.md": "---\ndescription: how shelves go\n---\nFIT-IT\n"}
    off = {family: False for family in BUILT_IN_FAMILIES}  # the directory's skills alone
    skills = {"id": "skills", "params": {"dir": "skills", "builtIns": off}}
    comment = "//" if lang == "javascript" else "#"
    head = f"{comment} explore-marker\n" + _imports(lang, "delegation", "skills")
    if lang == "javascript":
        explore = head + 'skills.readSkill("guide");\ndelegation.transitionState("build", "plan ready");\n'
        build = (
            f"{comment} builder-marker\n"
            + _imports(lang, "delegation")
            + 'delegation.transitionState("verify", "built");\n'
        )
    else:
        explore = head + 'skills.read_skill("guide")\ndelegation.transition_state("build", "plan ready")\n'
        build = (
            f"{comment} builder-marker\n"
            + _imports(lang, "delegation")
            + 'delegation.transition_state("verify", "built")\n'
        )
    states = [
        {
            "name": "explore",
            "agent": "explorer",
            "transitions": [{"to": "build", "transfer": ["skills"], "description": "when planned"}],
        },
        {
            "name": "build",
            "agent": "builder",
            "transitions": [{"to": "verify", "transfer": ["history", "skills"]}],
        },
        {"name": "verify", "agent": "verifier"},
    ]
    crew = run_crew(
        tmp_path,
        [
            _machine(states),
            profile("explorer", skills, language=lang),
            profile("builder", skills, language=lang),
            profile("verifier", language=lang),
        ],
        [
            line(explore, profile="explorer"),
            line(build, profile="builder"),
            line(_finish(lang, "verified"), profile="verifier"),
        ],
        arm=arm,
        task="Build the shelf.",
        files=guide,
    )
    assert crew.finished["finalText"] == "verified" and crew.agents == ["root", "root@2", "root@3"]
    states_entered = [(e["agentId"], e["state"], e["profileId"], e.get("from")) for e in crew.of("fsm_state")]
    assert states_entered == [
        ("root", "explore", "explorer", None),
        ("root@2", "build", "builder", "explore"),
        ("root@3", "verify", "verifier", "build"),
    ]
    first, second = crew.of("agent_transition")
    assert (first["kind"], first["toAgentId"], first["state"]) == ("fsm", "root@2", "build")
    rows = {row["kind"]: row for row in first["modules"]}
    assert rows["history"] == {
        "kind": "history",
        "disposition": "initialized",
        "from": "history-0",
        "to": "history-1",
    }
    assert rows["skills"] == {
        "kind": "skills",
        "disposition": "carried",
        "from": "skills-0",
        "to": "skills-0",
    }
    rows = {row["kind"]: row for row in second["modules"]}
    assert rows["history"]["disposition"] == "carried" and rows["skills"] == {
        "kind": "skills",
        "disposition": "dropped",
        "from": "skills-0",
    }
    assert [(e["agentId"], e.get("parentAgentId"), e["depth"]) for e in crew.of("agent_spawned")] == [
        ("root", None, 0),
        ("root@2", "root", 0),
        ("root@3", "root@2", 0),
    ]
    builder = crew.prompt("root@2", 0)
    assert "Build the shelf." in builder and "plan ready" in builder and "explore-marker" not in builder
    assert "moved from `explore` to `build`" in builder
    carried = crew.of("skills_state", "root@2")[0]["skills"]
    assert carried == [{"name": "guide", "description": "how shelves go", "read": True}]
    verifier = crew.prompt("root@3", 0)
    assert "builder-marker" in verifier and "explore-marker" not in verifier
    terminal, entry = crew.requests["root@3"][0].system, crew.requests["root"][0].system
    assert "transitionState" not in terminal and "transition_state" not in terminal  # no edge out
    assert "`build` (when planned), carrying the skills already read" in entry


def _spin(language: str, secs: float) -> str:
    """A child's program that keeps its guest busy for `secs` of wall time, then finishes."""
    if language == "javascript":
        return (
            _imports(language, "session")
            + f"const until = Date.now() + {secs * 1000:.0f};\nwhile (Date.now() < until) {{}}\n"
            + 'session.finish("spun");\n'
        )
    return (
        "import time\n"
        + _imports(language, "session")
        + f"until = time.time() + {secs}\nwhile time.time() < until:\n    pass\n"
        + 'session.finish("spun")\n'
    )


def test_a_wait_does_not_run_down_the_waiting_programs_own_time_limit(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(), language=lang, roster=["worker"], timeout_secs=1),
            profile("worker", language=lang, timeout_secs=20),
        ],
        [
            line(_spawn_and_wait(lang, ("worker", "spin a while"))),
            line(_finish(lang, "waited")),
            line(_spin(lang, 1.5), profile="worker"),
        ],
        arm=arm,
    )
    waiting = crew.of("code_execution", "root")[0]
    assert waiting["ok"] and waiting["durationMs"] > 1000  # longer than its 1 s timeout, not stopped
    assert crew.logged_json("root")[0][0][1:3] == ["completed", "spun"]
    assert crew.finished["finalText"] == "waited"


def test_the_runs_time_limit_ends_a_wait_and_the_waiting_program(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    if lang == "javascript":
        root = (
            _imports(lang, "delegation")
            + 'const child = delegation.spawnSubagent({ agent: "worker", prompt: "spin" });\n'
            + "try { delegation.waitForSubagents([child.id]); console.log('ended'); }\n"
            + "catch (e) { console.log(`${e.code} ${e.operation} ${e.message}`); }\n"
        )
    else:
        root = (
            _imports(lang, "core", "delegation")
            + 'child = delegation.spawn_subagent(agent="worker", prompt="spin")\n'
            + "try:\n    delegation.wait_for_subagents([child.id])\n    print('ended')\n"
            + "except OSError as e:\n    d = core.details(e)\n"
            + "    print(d.code + ' ' + d.operation + ' ' + d.message)\n"
        )
    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(), language=lang, roster=["worker"]),
            profile("worker", language=lang, timeout_secs=4),
        ],
        [line(root), line(_finish(lang, "never")), line(_spin(lang, 8), profile="worker")],
        arm=arm,
        limits={"maxRuntimeSecs": 1.5},
    )
    (waiting,) = crew.of("code_execution", "root")  # stopped with the wait: no program outlives the run
    assert waiting["error"] == "The program was stopped: the run's time is spent."
    assert crew.logs("root") == [] and crew.of("turn_outcome", "root") == []
    assert crew.result.status.value == "timed_out"
    # the child's own program is stopped at the run's deadline too: whichever of the two ends it
    # first, its turn's cut (timed_out) or the run's end (stopped), is its end
    assert crew.one("agent_finished", "root.1")["status"] in {"timed_out", "stopped"}


def test_an_exec_into_a_machine_enters_it_at_its_entry_state(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    if lang == "javascript":
        hand_on = _imports(lang, "delegation") + 'delegation.exec("process", "run the checks");\n'
        move = _imports(lang, "delegation") + 'delegation.transitionState("done", "all green");\n'
    else:
        hand_on = _imports(lang, "delegation") + 'delegation.exec("process", "run the checks")\n'
        move = _imports(lang, "delegation") + 'delegation.transition_state("done", "all green")\n'
    states = [
        {"name": "check", "agent": "checker", "transitions": [{"to": "done", "transfer": ["history"]}]},
        {"name": "done", "agent": "closer"},
    ]
    crew = run_crew(
        tmp_path,
        [
            profile("root", EXEC, language=lang, roster=["process"]),
            _machine(states),
            profile("checker", language=lang),
            profile("closer", language=lang),
        ],
        [line(hand_on), line(move, profile="checker"), line(_finish(lang, "closed"), profile="closer")],
        arm=arm,
    )
    assert crew.finished["finalText"] == "closed"
    entered = crew.one("fsm_state", "root@2")
    assert (entered["fsmId"], entered["state"], entered["profileId"], entered.get("from")) == (
        "process",
        "check",
        "checker",
        None,
    )
    transition = crew.of("agent_transition", "root")[0]
    assert (transition["kind"], transition["profileId"], transition["state"]) == ("exec", "checker", "check")
    assert "The machine `process` started in its state `check`" in crew.prompt("root@2", 0)
    assert crew.one("fsm_state", "root@3")["from"] == "check"


def test_the_library_moves_to_a_successor_truncated_to_its_own_keep(tmp_path: Path, arm: Arm) -> None:
    lang = arm.language
    keep = {"id": "program-library", "params": {"keep": 1, "idLength": 6}}
    keep_all = {"id": "program-library", "params": {"keep": 0, "idLength": 4}}
    if lang == "javascript":
        hand_on = _imports(lang, "delegation") + 'delegation.exec("worker", "carry on");\n'
        look = (
            _imports(lang, "programs", "session")
            + "const held = programs.history();\n"
            + "console.log(JSON.stringify(held.map((p) => [p.id, p.turn, p.source().includes('exec')])));\n"
            + 'session.finish("looked");\n'
        )
        first = 'console.log("one");\n'
    else:
        hand_on = _imports(lang, "delegation") + 'delegation.exec("worker", "carry on")\n'
        look = (
            "import json\n"
            + _imports(lang, "programs", "session")
            + "held = programs.history()\n"
            + "print(json.dumps([[p.id, p.turn, 'exec' in p.source()] for p in held]))\n"
            + 'session.finish("looked")\n'
        )
        first = 'print("one")\n'
    crew = run_crew(
        tmp_path,
        [
            profile("root", EXEC, keep_all, language=lang, roster=["worker"]),
            profile("worker", keep, language=lang),
        ],
        [line(first), line(hand_on), line(look, profile="worker")],
        arm=arm,
    )
    receipts = [e["body"] for e in crew.of("receipt", "root")]
    ((held_id, turn, is_exec),) = crew.logged_json("root@2")[0]
    assert (held_id, turn, is_exec) == (receipts[1], 2, True)  # the newest one, kept under its own id
    (own,) = [e["body"] for e in crew.of("receipt", "root@2")]
    assert own not in receipts and len(own) == 6  # the successor's own id length, never a reissued id
    transition = crew.one("agent_transition", "root")
    assert transition["library"] == {"disposition": "carried", "held": 1, "dropped": 1}
    assert "library" not in [row["kind"] for row in transition["modules"]]  # not a module kind


def test_a_fork_copies_the_library_and_an_exec_into_a_profile_keeping_none_drops_it(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    keep_all = {"id": "program-library", "params": {"keep": 0, "idLength": 4}}
    if lang == "javascript":
        forking = _imports(lang, "delegation") + 'delegation.fork("look around");\n'
        hand_on = (
            _imports(lang, "delegation")
            + "delegation.waitForSubagents();\n"
            + 'delegation.exec("worker", "carry on");\n'
        )
    else:
        forking = _imports(lang, "delegation") + 'delegation.fork("look around")\n'
        hand_on = (
            _imports(lang, "delegation")
            + "delegation.wait_for_subagents()\n"
            + 'delegation.exec("worker", "carry on")\n'
        )
    crew = run_crew(
        tmp_path,
        [
            profile("root", EXEC, FORK, subagents(1), keep_all, language=lang, roster=["worker"]),
            profile("worker", language=lang),
        ],
        [
            line(forking),
            line(hand_on),
            line(_finish(lang, "looked"), agent="root.f1"),
            line(_finish(lang, "carried on"), profile="worker"),
        ],
        arm=arm,
    )
    fork, succession = crew.of("agent_transition", "root")
    assert (fork["kind"], succession["kind"]) == ("fork", "exec")
    assert fork["library"] == {"disposition": "copied", "held": 1, "dropped": 0}  # the forking program
    assert succession["library"] == {"disposition": "dropped", "held": 0, "dropped": 2}
