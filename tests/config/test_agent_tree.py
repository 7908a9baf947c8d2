"""The agent tree's configuration: rosters, `subagents`, `exec`, `fork`, machines (`fsm`) and
`maxParallel`. Every refusal is named at its key path, and one refusal names every defect."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gg.config.catalogue import RosterScope
from gg.config.kinds import ModuleKind

from .documents import at, example, load, paths, refusal


def worker(
    slug: str, *capabilities: dict[str, Any], roster: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    profile: dict[str, Any] = {
        "slug": slug,
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [{"id": "responses-as-code"}, *capabilities],
    }
    if roster is not None:
        profile["subagents"] = roster
    return profile


def depth(levels: object = 2) -> dict[str, Any]:
    return {"id": "subagents", "params": {"maxDepth": levels}}


def tree(*profiles: dict[str, Any]) -> dict[str, Any]:
    document = example()
    document["agents"] = list(profiles)
    return document


def machine(states: object, slug: str = "process") -> dict[str, Any]:
    return {"slug": slug, "capabilities": [{"id": "fsm", "params": {"states": states}}]}


def edge(to: str, *kinds: object) -> dict[str, Any]:
    return {"to": to, "transfer": list(kinds), "description": f"on to {to}"}


STATES: list[dict[str, Any]] = [
    {"name": "explore", "agent": "explorer", "transitions": [edge("build", "history")]},
    {"name": "build", "agent": "builder", "transitions": [edge("verify", "history", "skills")]},
    {"name": "verify", "agent": "verifier", "transitions": []},
]


def fsm_run(states: object = STATES, **extra: Any) -> dict[str, Any]:
    builder = worker("builder", {"id": "skills", "params": {"dir": ".", "builtIns": {}}})
    return tree({**machine(states), **extra}, worker("explorer"), builder, worker("verifier"))


def test_a_tree_of_profiles_loads_with_its_rosters_depth_and_parallelism(folder: Path) -> None:
    roster = [{"agent": "reviewer", "description": "reads the change", "scopes": ["subagent", "reviewer"]}]
    document = tree(
        worker("lead", depth(3), {"id": "exec"}, {"id": "fork"}, roster=roster), worker("reviewer")
    )
    document["limits"] = {"maxParallel": 2}
    loaded = load(document, folder)
    lead = loaded.root
    assert lead.slug == "lead" and lead.max_depth == 3 and loaded.limits.parallel == 2
    (entry,) = lead.subagents
    assert entry.agent == "reviewer" and entry.scopes == (RosterScope.SUBAGENT, RosterScope.REVIEWER)
    assert lead.roster_entry("reviewer") == entry and lead.roster_entry("lead") is None
    assert loaded.agent("reviewer").max_depth is None


def test_four_agents_take_turns_at_once_unless_max_parallel_says_otherwise(folder: Path) -> None:
    assert load(example(), folder).limits.parallel == 4


@pytest.mark.parametrize("value", [0, -1, 1.5, "2"])
def test_max_parallel_is_a_whole_number_of_agents_from_one(folder: Path, value: object) -> None:
    document = example()
    document["limits"]["maxParallel"] = value
    assert "a whole number of agents, 1 or more" in at(refusal(document, folder), "limits.maxParallel").reason


def test_a_roster_entry_with_no_scopes_is_refused(folder: Path) -> None:
    for scopes in ([], None):
        entry: dict[str, Any] = (
            {"agent": "helper"} if scopes is None else {"agent": "helper", "scopes": scopes}
        )
        document = tree(worker("lead", depth(), roster=[entry]), worker("helper"))
        defect = at(refusal(document, folder), "agents[0].subagents[0].scopes")
        assert "subagent, implementer, reviewer" in defect.reason


def test_a_roster_entry_naming_no_profile_is_refused_naming_the_profiles(folder: Path) -> None:
    document = tree(
        worker("lead", depth(), roster=[{"agent": "ghost", "scopes": ["subagent"]}]), worker("helper")
    )
    defect = at(refusal(document, folder), "agents[0].subagents[0].agent")
    assert defect.found == '"ghost"' and "`lead`, `helper`" in defect.reason


def test_a_scope_gg_does_not_know_is_refused(folder: Path) -> None:
    document = tree(worker("lead", depth(), roster=[{"agent": "lead", "scopes": ["boss"]}]))
    assert (
        "subagent, implementer, reviewer"
        in at(refusal(document, folder), "agents[0].subagents[0].scopes[0]").reason
    )


def test_subagents_must_write_its_depth_limit(folder: Path) -> None:
    document = tree(worker("lead", {"id": "subagents"}))
    assert (
        "is required when subagents is enabled"
        in at(refusal(document, folder), "agents[0].capabilities[1].params.maxDepth").reason
    )


def test_a_depth_limit_of_zero_is_refused(folder: Path) -> None:
    defect = at(refusal(tree(worker("lead", depth(0))), folder), "agents[0].capabilities[1].params.maxDepth")
    assert defect.found == "0" and "1 or more" in defect.reason


def test_the_depth_limit_is_the_runs_so_profiles_may_not_disagree(folder: Path) -> None:
    document = tree(worker("lead", depth(2)), worker("helper", depth(2)), worker("other", depth(3)))
    (defect,) = refusal(document, folder)
    assert defect.path == "agents[2].capabilities[1].params.maxDepth" and "agents[0]'s 2" in defect.reason


def test_exec_needs_a_subagent_scoped_roster_entry(folder: Path) -> None:
    roster = [{"agent": "helper", "scopes": ["reviewer"]}]
    document = tree(worker("lead", {"id": "exec"}, roster=roster), worker("helper"))
    assert "scoped subagent" in at(refusal(document, folder), "agents[0].capabilities[1].id").reason


def test_fork_needs_subagents_on_the_same_profile(folder: Path) -> None:
    assert (
        "needs subagents enabled"
        in at(refusal(tree(worker("lead", {"id": "fork"})), folder), "agents[0].capabilities[1].id").reason
    )


def test_a_profile_a_machine_runs_as_a_state_may_not_exec(folder: Path) -> None:
    document = fsm_run()
    document["agents"][1] = worker(
        "explorer", {"id": "exec"}, roster=[{"agent": "builder", "scopes": ["subagent"]}]
    )
    assert "a machine runs as a state" in at(refusal(document, folder), "agents[1].capabilities[1].id").reason


def test_a_machine_loads_without_a_model_of_its_own(folder: Path) -> None:
    loaded = load(fsm_run(task="Build the shelf."), folder)
    table = loaded.root.machine
    assert table is not None and loaded.root.model is None and loaded.root.task == "Build the shelf."
    assert [s.name for s in table.states] == [
        "explore",
        "build",
        "verify",
    ] and table.entry.agent == "explorer"
    assert table.states[1].edge("verify") is not None and table.states[1].edge("explore") is None
    assert table.states[1].transitions[0].carried == {ModuleKind.HISTORY, ModuleKind.SKILLS}
    assert (
        loaded.entry(loaded.root).slug == "explorer"
        and loaded.entry(loaded.agent("builder")).slug == "builder"
    )


def test_an_edge_with_no_transfer_list_carries_nothing(folder: Path) -> None:
    states = [
        {"name": "a", "agent": "explorer", "transitions": [{"to": "b"}]},
        {"name": "b", "agent": "builder"},
    ]
    table = load(fsm_run(states), folder).root.machine
    assert table is not None and table.states[0].transitions[0].carried == frozenset()


def test_a_profile_that_takes_turns_still_needs_a_model(folder: Path) -> None:
    document = tree(worker("lead"))
    del document["agents"][0]["model"]
    assert at(refusal(document, folder), "agents[0].model").reason == "is required"


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"model": {"provider": "replay", "journal": "journal.jsonl"}}, "agents[0].model"),
        ({"role": "review"}, "agents[0].role"),
        ({"subagents": [{"agent": "explorer", "scopes": ["subagent"]}]}, "agents[0].subagents"),
    ],
)
def test_a_machine_declaring_what_only_a_worker_reads_is_refused(
    folder: Path, extra: dict[str, Any], path: str
) -> None:
    assert "not read by a machine" in at(refusal(fsm_run(**extra), folder), path).reason


def test_a_machine_enabling_another_capability_is_refused(folder: Path) -> None:
    document = fsm_run()
    document["agents"][0]["capabilities"].append({"id": "skills", "params": {"dir": ".", "builtIns": {}}})
    assert (
        "cannot be enabled on a machine"
        in at(refusal(document, folder), "agents[0].capabilities[1].id").reason
    )


STATES_AT = "agents[0].capabilities[0].params.states"


@pytest.mark.parametrize(
    ("states", "reason"), [([], "at least one state"), ("explore then verify", "a list")]
)
def test_a_machine_needs_a_list_of_states(folder: Path, states: object, reason: str) -> None:
    assert reason in at(refusal(fsm_run(states), folder), STATES_AT).reason


def test_two_states_with_one_name_are_refused(folder: Path) -> None:
    states = [*STATES, {"name": "verify", "agent": "explorer"}]
    defect = at(refusal(fsm_run(states), folder), f"{STATES_AT}[3].name")
    assert defect.found == '"verify"' and "states[2]" in defect.reason


def test_an_empty_state_name_is_refused(folder: Path) -> None:
    states = [*STATES, {"name": "", "agent": "explorer"}]
    assert "non-empty" in at(refusal(fsm_run(states), folder), f"{STATES_AT}[3].name").reason


def test_a_state_run_by_an_undeclared_profile_or_by_a_machine_is_refused(folder: Path) -> None:
    states = [{**STATES[0], "agent": "ghost"}, STATES[1], {**STATES[2], "agent": "process"}]
    defects = refusal(fsm_run(states), folder)
    assert at(defects, f"{STATES_AT}[0].agent").found == '"ghost"'
    assert "names a machine" in at(defects, f"{STATES_AT}[2].agent").reason


def test_an_edge_to_an_undeclared_state_is_refused_naming_the_states(folder: Path) -> None:
    states = [{**STATES[0], "transitions": [edge("build"), edge("nowhere")]}, *STATES[1:]]
    defect = at(refusal(fsm_run(states), folder), f"{STATES_AT}[0].transitions[1].to")
    assert defect.found == '"nowhere"' and "`explore`, `build`, `verify`" in defect.reason


@pytest.mark.parametrize("entry", ["notes", 7, None])
def test_a_transfer_entry_that_is_not_a_kind_name_is_refused(folder: Path, entry: object) -> None:
    states = [{**STATES[0], "transitions": [edge("build", "history", entry)]}, *STATES[1:]]
    defect = at(refusal(fsm_run(states), folder), f"{STATES_AT}[0].transitions[0].transfer[1]")
    assert "history, memories, tasks, board, skills, archive" in defect.reason


@pytest.mark.parametrize("kind", ["memories", "tasks", "board", "archive", "skills"])
def test_an_edge_may_not_carry_a_kind_the_outgoing_profile_does_not_hold(folder: Path, kind: str) -> None:
    states = [{**STATES[0], "transitions": [edge("build", "history", kind)]}, *STATES[1:]]
    defect = at(refusal(fsm_run(states), folder), f"{STATES_AT}[0].transitions[0].transfer[1]")
    assert f"carries {kind}, which `explorer` does not hold" in defect.reason


def test_only_the_outgoing_profile_is_judged_the_receiving_one_may_drop_the_kind(folder: Path) -> None:
    states = [STATES[0], STATES[1], {**STATES[2], "transitions": []}]
    assert load(fsm_run(states), folder).root.machine is not None  # build carries skills to verifier


def test_a_state_no_edge_leads_to_is_refused(folder: Path) -> None:
    states = [*STATES, {"name": "orphan", "agent": "explorer", "transitions": [edge("verify", "history")]}]
    defect = at(refusal(fsm_run(states), folder), f"{STATES_AT}[3].name")
    assert defect.found == '"orphan"' and "entry state `explore`" in defect.reason


@pytest.mark.parametrize(
    ("name", "point"), [("b\u202e", "U+202E"), ("b\x1b[31m", "U+001B"), ("b\nc", "U+000A")]
)
def test_a_state_name_holding_a_control_or_bidi_character_is_refused_naming_its_code_point(
    folder: Path, name: str, point: str
) -> None:
    states = [{**STATES[0], "transitions": [edge(name, "history")]}, {**STATES[1], "name": name}, STATES[2]]
    defects = refusal(fsm_run(states), folder)
    for path in (f"{STATES_AT}[1].name", f"{STATES_AT}[0].transitions[0].to"):
        assert at(defects, path).reason == f"must hold no control or bidi character; {point} is one"
    assert all(name not in defect.render() for defect in defects)


def test_a_name_a_finding_quotes_is_escaped(folder: Path) -> None:
    states = [{**STATES[0], "name": "e\u202e", "transitions": [edge("nowhere")]}, *STATES[1:]]
    defects = refusal(fsm_run(states), folder)
    assert "`e\\u202e`, `build`, `verify`" in at(defects, f"{STATES_AT}[0].transitions[0].to").reason
    assert "entry state `e\\u202e`" in at(defects, f"{STATES_AT}[1].name").reason


def test_an_edge_naming_one_kind_twice_is_refused(folder: Path) -> None:
    states = [{**STATES[0], "transitions": [edge("build", "history", "history")]}, *STATES[1:]]
    defect = at(refusal(fsm_run(states), folder), f"{STATES_AT}[0].transitions[0].transfer[1]")
    assert (defect.found, defect.reason) == ('"history"', "repeats history; a transfer names each kind once")


def test_a_machine_with_no_terminal_state_is_refused(folder: Path) -> None:
    states = [*STATES[:2], {**STATES[2], "transitions": [edge("explore", "history")]}]
    defect = at(refusal(fsm_run(states), folder), STATES_AT)
    assert defect.reason == (
        "must hold a terminal state (one with no edge out), where the machine's work ends; "
        "every state here has an edge out"
    )
    assert defect.found == '["explore", "build", "verify"]'


def test_one_refusal_names_every_defect_of_the_tree(folder: Path) -> None:
    states = [
        {**STATES[0], "transitions": [edge("nowhere", "notes")]},
        {**STATES[1], "agent": "ghost"},
        STATES[2],
    ]
    document = fsm_run(states)
    document["agents"][1] = worker(
        "explorer", depth(0), {"id": "fork"}, roster=[{"agent": "x", "scopes": []}]
    )
    assert sorted(paths(refusal(document, folder))) == sorted(
        [
            f"{STATES_AT}[0].transitions[0].to",
            f"{STATES_AT}[0].transitions[0].transfer[0]",
            f"{STATES_AT}[1].agent",
            f"{STATES_AT}[1].name",  # build is unreachable once explore's one edge leads nowhere
            f"{STATES_AT}[2].name",
            "agents[1].capabilities[1].params.maxDepth",
            "agents[1].subagents[0].agent",
            "agents[1].subagents[0].scopes",
        ]
    )
