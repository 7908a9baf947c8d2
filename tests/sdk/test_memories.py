"""The memories family through the membrane, on the JavaScript and Python arms, against a real store:
each strategy's calls and the ones it lacks, the caps, a read-only holder, search hits as records,
the revision counter a holder then drains, and the calls a refusal names, spelt for the arm."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gg.config.catalogue import Role
from gg.config.memories import Scope, Strategy
from gg.sandbox.execution import Arm, Execution
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.state.memories import MemoryHolder, drain
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from state.memories.world import Run, note, profile
from support.guest_world import CEILINGS, QuietLog

pytestmark = pytest.mark.arms("javascript", "python")

JS_ATTEMPT = """import { memories } from "gg";
const seen = [];
const attempt = (label, f) => {
  try {
    const r = f();
    seen.push(r && r.count !== undefined ? `${label} ok ${r.count} ${r.totalChars}` : `${label} ok`);
  } catch (e) { seen.push(`${label} ${e.code} ${e.operation}`); }
};
"""
PY_ATTEMPT = """import gg
from gg import memories
seen = []
def attempt(label, f):
    try:
        r = f()
        if hasattr(r, "count"):
            seen.append(label + " ok " + str(r.count) + " " + str(r.total_chars))
        else:
            seen.append(label + " ok")
    except gg.ApiError as e:
        d = gg.core.details(e)
        seen.append(label + " " + d.code + " " + d.operation)
"""
SHOW = {"javascript": "console.log(JSON.stringify(seen));\n", "python": "print(seen)\n"}


@dataclass
class MemoryAgent:
    arm: Arm
    holder: MemoryHolder | None
    capabilities: frozenset[str]
    workspace: Workspace

    def run(self, source: str) -> Execution:
        registry, language = default_registry(), self.arm.language
        scope = ProgramScope(
            "root",
            Role.STANDARD,
            self.capabilities,
            self.workspace,
            ViewSet(),
            1,
            memories=self.holder,
            spell=registry.spelling(language),
        )
        return self.arm.run(source, Membrane(registry, scope, QuietLog(), language), CEILINGS, ())

    def attempts(self, calls: dict[str, list[tuple[str, str]]], head: str = "") -> list[str]:
        """Run each (label, call) of the arm's list in one program; what each answered (`head`: how
        an answer is told, the code and operation of a refusal unless given)."""
        language = self.arm.language
        head = head or (JS_ATTEMPT if language == "javascript" else PY_ATTEMPT)
        lines = [
            f"attempt({label!r}, () => {call});"
            if language == "javascript"
            else f"attempt({label!r}, lambda: {call})"
            for label, call in calls[language]
        ]
        execution = self.run(head + "\n".join(lines) + "\n" + SHOW[language])
        assert execution.ok, execution.failure
        return _listed(execution.logs[-1])


def _listed(line: str) -> Any:
    """A list a program printed: JSON from JavaScript, a Python literal from Python."""
    return ast.literal_eval(line)


def _agent(
    arm: Arm, tmp_path: Path, holder: MemoryHolder | None, capabilities: frozenset[str]
) -> MemoryAgent:
    return MemoryAgent(arm, holder, capabilities, Workspace(tmp_path))


def _holder(
    strategy: Strategy = Strategy.SCRATCHPAD, scope: Scope = Scope.ISOLATED, **caps: int
) -> MemoryHolder:
    return Run().open(profile(strategy, scope, **caps), "root")


WITH = frozenset({"memories"})


def test_a_scratchpad_offers_write_update_and_delete_and_every_other_call_is_unavailable(
    arm: Arm, tmp_path: Path
) -> None:
    holder = _holder(max_count=8, max_len_per_memory=200, max_len_description=80)
    calls = {
        "javascript": [
            (
                "write",
                'memories.writeMemory({ name: "gearbox", description: "gear-ratio", body: "third gear" })',
            ),
            ("again", 'memories.writeMemory({ name: "gearbox", description: "d", body: "b" })'),
            ("update-missing", 'memories.updateMemory({ name: "clutch", description: "d", body: "b" })'),
            ("create", 'memories.createMemory({ name: "other", description: "d", body: "b" })'),
            ("read", 'memories.readMemory("gearbox")'),
            ("edit", 'memories.editMemory({ name: "gearbox", search: "third", replace: "second" })'),
            ("search", 'memories.searchMemories(["gear"])'),
            ("update", 'memories.updateMemory({ name: "gearbox", description: "d", body: "second gear" })'),
            ("delete", 'memories.deleteMemory("gearbox")'),
        ],
        "python": [
            (
                "write",
                'memories.write_memory(name="gearbox", description="gear-ratio", body="third gear")',
            ),
            ("again", 'memories.write_memory(name="gearbox", description="d", body="b")'),
            ("update-missing", 'memories.update_memory(name="clutch", description="d", body="b")'),
            ("create", 'memories.create_memory(name="other", description="d", body="b")'),
            ("read", 'memories.read_memory("gearbox")'),
            ("edit", 'memories.edit_memory(name="gearbox", search="third", replace="second")'),
            ("search", 'memories.search_memories(["gear"])'),
            ("update", 'memories.update_memory(name="gearbox", description="d", body="second gear")'),
            ("delete", 'memories.delete_memory("gearbox")'),
        ],
    }
    assert _agent(arm, tmp_path, holder, WITH).attempts(calls) == [
        "write ok 1 10",
        "again conflict write_memory",
        "update-missing not-found update_memory",
        "create unavailable create_memory",
        "read unavailable read_memory",
        "edit unavailable edit_memory",
        "search unavailable search_memories",
        "update ok 1 11",
        "delete ok 0 0",
    ]


def test_markdown_creates_reads_and_edits_by_a_unique_match(arm: Arm, tmp_path: Path) -> None:
    holder = _holder(Strategy.MARKDOWN, max_len_per_memory=500, max_len_index=2000, max_len_description=80)
    calls = {
        "javascript": [
            (
                "create",
                'memories.createMemory({ name: "build-commands", description: "to build", body: "kiln" })',
            ),
            ("no-description", 'memories.createMemory({ name: "bare", description: "  ", body: "x" })'),
            ("write", 'memories.writeMemory({ name: "other", description: "d", body: "b" })'),
            ("read", 'memories.readMemory("build-commands") === "kiln" ? undefined : null.fail'),
            (
                "echo",
                'memories.createMemory({ name: "echo", description: "two words twice", body: "same same" })',
            ),
            ("ambiguous", 'memories.editMemory({ name: "echo", search: "same", replace: "other" })'),
            ("absent", 'memories.editMemory({ name: "echo", search: "absent", replace: "x" })'),
            ("to-empty", 'memories.editMemory({ name: "echo", search: "same same", replace: "   " })'),
            ("once", 'memories.editMemory({ name: "echo", search: "same same", replace: "said once" })'),
            ("bad-name", 'memories.createMemory({ name: "two words", description: "d", body: "b" })'),
        ],
        "python": [
            (
                "create",
                'memories.create_memory(name="build-commands", description="to build", body="kiln")',
            ),
            ("no-description", 'memories.create_memory(name="bare", description="  ", body="x")'),
            ("write", 'memories.write_memory(name="other", description="d", body="b")'),
            ("read", 'None if memories.read_memory("build-commands") == "kiln" else 1 / 0'),
            ("echo", 'memories.create_memory(name="echo", description="two words twice", body="same same")'),
            ("ambiguous", 'memories.edit_memory(name="echo", search="same", replace="other")'),
            ("absent", 'memories.edit_memory(name="echo", search="absent", replace="x")'),
            ("to-empty", 'memories.edit_memory(name="echo", search="same same", replace="   ")'),
            ("once", 'memories.edit_memory(name="echo", search="same same", replace="said once")'),
            ("bad-name", 'memories.create_memory(name="two words", description="d", body="b")'),
        ],
    }
    assert _agent(arm, tmp_path, holder, WITH).attempts(calls) == [
        "create ok 1 4",
        "no-description invalid-argument create_memory",
        "write unavailable write_memory",
        "read ok",
        "echo ok 2 13",
        "ambiguous conflict edit_memory",
        "absent not-found edit_memory",
        "to-empty invalid-argument edit_memory",
        "once ok 2 13",
        "bad-name invalid-argument create_memory",
    ]
    assert holder.store.read("echo").body == "said once"


def test_every_cap_is_limit_exceeded_and_a_refused_call_records_nothing(arm: Arm, tmp_path: Path) -> None:
    holder = _holder(max_count=2, max_len_per_memory=10, max_total_len=15, max_len_description=20)
    writes = [
        ("blank-name", "  ", "z"),
        ("a", "a", "0123456789"),
        ("a-again", "a", "z"),
        ("b-over-total", "b", "abcdef"),
        ("c-over-length", "c", "0123456789x"),
        ("b", "b", "abcde"),
        ("e-over-count", "e", "x"),
    ]
    calls = {
        "javascript": [
            (label, f'memories.writeMemory({{ name: "{name}", description: "d", body: "{body}" }})')
            for label, name, body in writes
        ]
        + [
            ("delete-a", 'memories.deleteMemory("a")'),
            ("e", 'memories.writeMemory({ name: "e", description: "d", body: "x" })'),
        ],
        "python": [
            (label, f'memories.write_memory(name="{name}", description="d", body="{body}")')
            for label, name, body in writes
        ]
        + [
            ("delete-a", 'memories.delete_memory("a")'),
            ("e", 'memories.write_memory(name="e", description="d", body="x")'),
        ],
    }
    assert _agent(arm, tmp_path, holder, WITH).attempts(calls) == [
        "blank-name invalid-argument write_memory",
        "a ok 1 10",
        "a-again conflict write_memory",
        "b-over-total limit-exceeded write_memory",
        "c-over-length limit-exceeded write_memory",
        "b ok 2 15",
        "e-over-count limit-exceeded write_memory",
        "delete-a ok 1 5",
        "e ok 2 6",
    ]
    events = [e.to_wire() for e in drain(holder)]
    assert [(r["name"], r["change"]) for r in events[:-1]] == [
        ("a", "written"),
        ("b", "written"),
        ("a", "deleted"),
        ("e", "written"),
    ]
    state = events[-1]
    assert [m["name"] for m in state["memories"]] == ["b", "e"] and state["count"] == 2
    assert (state["peak"]["count"], state["peak"]["totalLen"]) == (2, 15)
    assert state["caps"] == {
        "maxCount": 2,
        "maxLenPerMemory": 10,
        "maxTotalLen": 15,
        "maxLenIndex": None,
        "maxLenDescription": 20,
        "maxResults": None,
    }


def test_a_description_over_its_cap_is_named_first_with_both_figures(arm: Arm, tmp_path: Path) -> None:
    holder = _holder(max_len_per_memory=10, max_len_description=20)
    program = {
        "javascript": (
            'import { memories } from "gg";\n'
            'try { memories.writeMemory({ name: "f", description: "x".repeat(21), body: "y".repeat(50) }) }\n'
            "catch (e) { console.log(`${e.code} ${e.message}`); }\n"
        ),
        "python": (
            "import gg\ntry:\n"
            "    gg.memories.write_memory(name='f', description='x' * 21, body='y' * 50)\n"
            "except gg.ApiError as e:\n    d = gg.core.details(e)\n    print(d.code + ' ' + d.message)\n"
        ),
    }[arm.language]
    execution = _agent(arm, tmp_path, holder, WITH).run(program)
    assert execution.ok, execution.failure
    [line] = execution.logs
    assert line.startswith("limit-exceeded") and all(fact in line for fact in ("description", "21", "20"))


def test_a_read_only_holder_may_not_write_and_a_scratchpad_one_has_no_call_at_all(
    arm: Arm, tmp_path: Path
) -> None:
    run = Run()
    root = run.open(profile(), "root")
    root.store.write("root", note("the-plan", "a canvas game"))
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    calls = {
        "javascript": [("write", 'memories.writeMemory({ name: "mine", description: "d", body: "b" })')],
        "python": [("write", 'memories.write_memory(name="mine", description="d", body="b")')],
    }
    assert _agent(arm, tmp_path, reader, WITH).attempts(calls) == ["write refused write_memory"]
    assert [m.name for m in root.store.memories] == ["the-plan"] and reader.offered == ()


def test_a_search_answers_hits_as_records_best_first(arm: Arm, tmp_path: Path) -> None:
    holder = _holder(Strategy.KEYWORD_SEARCH, max_results=5)
    holder.store.create("root", note("kiln", "the kiln runs hot; glaze twice", "firing"))
    holder.store.create("root", note("glaze", "glaze glaze", "coats"))
    program = {
        "javascript": 'import { memories } from "gg";\n'
        'const hits = memories.searchMemories(["KILN", "glaze"]);\n'
        "console.log(JSON.stringify(hits.map((h) => [h.name, h.matched, h.occurrences, h.excerpt])));\n",
        "python": "from gg import memories\nprint([[h.name, h.matched, h.occurrences, h.excerpt] "
        'for h in memories.search_memories(["KILN", "glaze"])])\n',
    }[arm.language]
    execution = _agent(arm, tmp_path, holder, WITH).run(program)
    assert execution.ok, execution.failure
    assert _listed(execution.logs[-1]) == [
        ["kiln", 2, 3, "the kiln runs hot; glaze twice"],
        ["glaze", 1, 3, "glaze glaze"],
    ]


def test_an_agent_whose_profile_does_not_enable_memories_finds_every_call_unavailable(
    arm: Arm, tmp_path: Path
) -> None:
    calls = {
        "javascript": [("write", 'memories.writeMemory({ name: "m", description: "d", body: "b" })')],
        "python": [("write", 'memories.write_memory(name="m", description="d", body="b")')],
    }
    assert _agent(arm, tmp_path, None, frozenset()).attempts(calls) == ["write unavailable write_memory"]


def test_the_revision_counter_runs_on_through_a_delete_and_a_rewrite(arm: Arm, tmp_path: Path) -> None:
    holder = _holder()
    verbs = {
        "javascript": ("writeMemory", "updateMemory", "deleteMemory"),
        "python": ("write_memory", "update_memory", "delete_memory"),
    }
    write, update, delete = verbs[arm.language]
    fields = (
        '{ name: "m", description: "d", body: "%s" }'
        if arm.language == "javascript"
        else 'name="m", description="d", body="%s"'
    )
    calls = {
        arm.language: [
            ("1", f"memories.{write}({fields % 'one'})"),
            ("2", f"memories.{update}({fields % 'two'})"),
            ("dup", f"memories.{write}({fields % 'dup'})"),
            ("3", f'memories.{delete}("m")'),
            ("4", f"memories.{write}({fields % 'three'})"),
        ]
    }
    assert _agent(arm, tmp_path, holder, WITH).attempts(calls)[2] == "dup conflict write_memory"
    revisions = [e.to_wire() for e in drain(holder) if e.TYPE.value == "memory_revision"]
    assert [(r["revision"], r["change"]) for r in revisions] == [
        (1, "written"),
        (2, "updated"),
        (3, "deleted"),
        (4, "written"),
    ]


JS_SAY = JS_ATTEMPT.replace("${e.code} ${e.operation}", "${e.message}")  # a refusal told by its message
PY_SAY = PY_ATTEMPT.replace('d.code + " " + d.operation', "d.message")
SPELT = {
    "javascript": {
        "create": "gg.memories.createMemory",
        "read": "gg.memories.readMemory",
        "edit": "gg.memories.editMemory",
        "delete": "gg.memories.deleteMemory",
        "search": "gg.memories.searchMemories",
        "write": "gg.memories.writeMemory",
    },
    "python": {
        "create": "gg.memories.create_memory",
        "read": "gg.memories.read_memory",
        "edit": "gg.memories.edit_memory",
        "delete": "gg.memories.delete_memory",
        "search": "gg.memories.search_memories",
        "write": "gg.memories.write_memory",
    },
}


def test_every_call_a_refusal_names_is_spelt_as_the_programs_arm_spells_it(arm: Arm, tmp_path: Path) -> None:
    holder = _holder(Strategy.KEYWORD_SEARCH, max_count=1)
    calls = {
        "javascript": [
            ("a", 'memories.createMemory({ name: "a", description: "d", body: "b" })'),
            ("full", 'memories.createMemory({ name: "b", description: "d", body: "b" })'),
            ("taken", 'memories.createMemory({ name: "a", description: "d", body: "b" })'),
            ("missing", 'memories.readMemory("gone")'),
            ("not-offered", 'memories.writeMemory({ name: "c", description: "d", body: "b" })'),
        ],
        "python": [
            ("a", 'memories.create_memory(name="a", description="d", body="b")'),
            ("full", 'memories.create_memory(name="b", description="d", body="b")'),
            ("taken", 'memories.create_memory(name="a", description="d", body="b")'),
            ("missing", 'memories.read_memory("gone")'),
            ("not-offered", 'memories.write_memory(name="c", description="d", body="b")'),
        ],
    }
    head = JS_SAY if arm.language == "javascript" else PY_SAY
    n = SPELT[arm.language]
    assert _agent(arm, tmp_path, holder, WITH).attempts(calls, head) == [
        "a ok 1 1",
        f"full at the maximum of 1 memories (maxCount); revise one with `{n['edit']}` "
        f"or remove one with `{n['delete']}`",
        f"taken memory `a` already exists; revise it with `{n['edit']}`",
        f"missing no memory named `gone`; create one with `{n['create']}`",
        f"not-offered `{n['write']}` is not offered: this agent's memories are organized as "
        f"`keyword-search`, whose calls are `{n['create']}`, `{n['read']}`, `{n['edit']}`, "
        f"`{n['delete']}`, `{n['search']}`",
    ]


def test_a_read_only_holders_refusal_names_the_calls_it_has_as_the_programs_arm_spells_them(
    arm: Arm, tmp_path: Path
) -> None:
    run = Run()
    searched = run.open(profile(Strategy.KEYWORD_SEARCH), "root")
    reader = run.open(profile(Strategy.KEYWORD_SEARCH, Scope.READ_ONLY, slug="reader"), "reader", searched)
    pad_reader = run.open(
        profile(scope=Scope.READ_ONLY, slug="pad-reader"), "pad-reader", run.open(profile(), "pad")
    )
    calls = {
        "javascript": [("edit", 'memories.editMemory({ name: "a", search: "x", replace: "y" })')],
        "python": [("edit", 'memories.edit_memory(name="a", search="x", replace="y")')],
    }
    pad_calls = {
        "javascript": [("write", 'memories.writeMemory({ name: "a", description: "d", body: "b" })')],
        "python": [("write", 'memories.write_memory(name="a", description="d", body="b")')],
    }
    head = JS_SAY if arm.language == "javascript" else PY_SAY
    n = SPELT[arm.language]
    assert _agent(arm, tmp_path, reader, WITH).attempts(calls, head) == [
        f"edit this agent may read these memories, not change them; the calls it has: `{n['read']}`, "
        f"`{n['search']}`"
    ]
    assert _agent(arm, tmp_path, pad_reader, WITH).attempts(pad_calls, head) == [
        "write this agent may read these memories, not change them; the calls it has: none"
    ]


def test_a_code_half_over_its_cap_is_refused_naming_the_argument_as_the_programs_arm_writes_it(
    arm: Arm, tmp_path: Path
) -> None:
    holder = _holder()
    calls = {
        "javascript": [
            (
                "on-use",
                'memories.writeMemory({ name: "a", description: "d", body: "b", onUse: "x".repeat(32769) })',
            ),
            (
                "code",
                'memories.writeMemory({ name: "a", description: "d", body: "b", code: "x".repeat(32769) })',
            ),
        ],
        "python": [
            ("on-use", 'memories.write_memory(name="a", description="d", body="b", on_use="x" * 32769)'),
            ("code", 'memories.write_memory(name="a", description="d", body="b", code="x" * 32769)'),
        ],
    }
    head = JS_SAY if arm.language == "javascript" else PY_SAY
    on_use = {"javascript": "onUse", "python": "on_use"}[arm.language]
    assert _agent(arm, tmp_path, holder, WITH).attempts(calls, head) == [
        f"on-use the `{on_use}` of memory `a` is 32769 characters, over the 32768 allowed",
        "code the `code` of memory `a` is 32769 characters, over the 32768 allowed",
    ]
    assert holder.store.memories == []  # nothing was written
