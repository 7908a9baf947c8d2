"""Toolset ablation through the real loop, on the JavaScript and the Python arm: a profile's
`disabledOperations` (`files.write_file`, `memories.*`) takes the operations out of the system
prompt's module list and the documentation a program searches, a program that calls one anyway
is refused `unavailable` by name, and an entry that withholds nothing refuses the launch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from session import Profile, Session, program, run_session

from gg.sandbox.execution import Arm

MEMORY_PARAMS = {
    "scope": "isolated",
    "maxCount": 10,
    "maxTotalLen": 10_000,
    "maxResults": 0,
    "maxLenPerMemory": 2000,
    "maxLenIndex": 2000,
    "maxLenDescription": 200,
}
MEMORIES = {"id": "memories", "implementation": "markdown", "params": MEMORY_PARAMS}
ABLATED = Profile(capabilities=[MEMORIES], disabled_operations=["files.write_file", "memories.*"])

PROBES = {
    "javascript": """import { docs, files, memories } from "gg";
for (const call of [() => files.writeFile("a.txt", "1"), () => memories.readMemory("note")]) {
  try { call(); } catch (e) { console.log(`${e.code}: ${e.message}`); }
}
console.log(JSON.stringify(docs.search({ query: "write" }).hits.map((h) => h.key)));
console.log(JSON.stringify(docs.search({ query: "memory" }).hits.map((h) => h.key)));
console.log(JSON.stringify(docs.search({ query: "read" }).hits.map((h) => h.key)));
""",
    "python": """import gg
import json
for call in [lambda: gg.files.write_file("a.txt", "1"), lambda: gg.memories.read_memory("note")]:
    try:
        call()
    except gg.ApiError as e:
        details = gg.core.details(e)
        print(details.code + ": " + details.message)
print(json.dumps([h.key for h in gg.docs.search(query="write").hits]))
print(json.dumps([h.key for h in gg.docs.search(query="memory").hits]))
print(json.dumps([h.key for h in gg.docs.search(query="read").hits]))
""",
}
FINISH = {
    "javascript": 'import { session } from "gg";\nsession.finish("done");\n',
    "python": 'import gg\ngg.session.finish("done")\n',
}
SPELLED = {
    "javascript": ("gg.files.writeFile", "gg.memories.readMemory", "gg.files.writeFile", "gg.files.readFile"),
    "python": ("gg.files.write_file", "gg.memories.read_memory", "gg.files.write_file", "gg.files.read_file"),
}

pytestmark = pytest.mark.arms("javascript", "python")


def _ablated(tmp_path: Path, arm: Arm, profile: Profile = ABLATED) -> Session:
    language = arm.language
    replies = [program(PROBES[language]), program(FINISH[language])]
    return run_session(tmp_path, replies, Profile(**{**vars(profile), "language": language}), arm=arm)


def test_a_withheld_operation_is_refused_unavailable_by_name_when_called(tmp_path: Path, arm: Arm):
    session = _ablated(tmp_path, arm)
    write, listing, _, _ = SPELLED[arm.language]
    (execution,) = session.executions(1)
    assert execution["logs"][:2] == [
        f"unavailable: `{write}` is not available: this agent's profile withholds it",
        f"unavailable: `{listing}` is not available: this agent's profile withholds it",
    ]
    assert not (session.workspace / "a.txt").exists()
    assert session.result.status.value == "completed"


def test_a_withheld_operation_is_absent_from_the_documentation_a_program_searches(tmp_path: Path, arm: Arm):
    session = _ablated(tmp_path, arm)
    _, _, write_key, read_key = SPELLED[arm.language]
    (execution,) = session.executions(1)
    written, memory, read = (json.loads(line) for line in execution["logs"][2:])
    assert write_key not in written and not any(key.startswith("gg.memories") for key in written + memory)
    assert read_key in read  # what the profile keeps is still found


def test_a_withheld_module_leaves_the_system_prompts_module_list(tmp_path: Path, arm: Arm):
    session = _ablated(tmp_path, arm)
    system = session.requests[0].system
    assert "`gg.files`" in system and "`gg.memories`" not in system
    kept = _ablated(tmp_path / "kept", arm, Profile(capabilities=[MEMORIES]))
    assert "`gg.memories`" in kept.requests[0].system  # the module is listed unwithheld


def test_an_entry_that_withholds_nothing_refuses_the_launch_naming_every_one(tmp_path: Path, arm: Arm):
    wrong = Profile(disabled_operations=["files.wirte_file", "fils.*", "session.finish", "shell.shell"])
    session = _ablated(tmp_path, arm, wrong)
    assert session.result.status.value == "refused" and session.model_calls == 0
    message = session.result.message or ""
    assert "disabledOperations: 3 defects" in message
    assert "agents[0].disabledOperations[0]: names no operation of `files`; it holds read_file," in message
    assert "agents[0].disabledOperations[1]: names no module; the modules are files, shell," in message
    assert "agents[0].disabledOperations[2]: would withhold the ending call session.finish" in message
    assert "disabledOperations[3]" not in message  # a real operation no capability offers is kept


def test_the_record_says_what_each_instance_was_offered_and_what_its_profile_withheld(
    tmp_path: Path, arm: Arm
):
    session = _ablated(tmp_path, arm)
    (spawned,) = session.of_type("agent_spawned")
    assert spawned["withheld"] == [
        "files.write_file",
        "memories.write_memory",
        "memories.update_memory",
        "memories.create_memory",
        "memories.read_memory",
        "memories.edit_memory",
        "memories.delete_memory",
        "memories.search_memories",
    ]
    offered = spawned["offered"]
    assert "files.read_file" in offered and "session.finish" in offered and "docs.search" in offered
    assert not set(offered) & set(spawned["withheld"])
    assert "shell.shell" not in offered  # no capability of the profile offers it


def test_a_withheld_memory_call_is_not_listed_among_the_memories_calls(tmp_path: Path, arm: Arm):
    profile = Profile(capabilities=[MEMORIES], disabled_operations=["memories.delete_memory"])
    session = _ablated(tmp_path, arm, profile)
    spell = {"javascript": ("createMemory", "deleteMemory"), "python": ("create_memory", "delete_memory")}
    kept, withheld = spell[arm.language]
    system = session.requests[0].system
    assert f"gg.memories.{kept}" in system and f"gg.memories.{withheld}" not in system
