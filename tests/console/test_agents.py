"""The agent tree: spawned subagents and forks under their parent, successors off their
predecessor, statuses once the run ended."""

from __future__ import annotations

from console.scenario import multi_agent_run
from gg.console.agents import fold_agents


def test_a_run_without_spawn_events_is_one_root_agent():
    tree = fold_agents([{"type": "run_started", "agentId": "root", "model": "replay"}], None)
    assert list(tree.instances) == ["root"]
    root = tree.instances["root"]
    assert (root.relation, root.profile, root.model, root.status) == ("root", "root", "replay", "running")


def test_subagents_and_forks_hang_under_their_parent_and_successors_off_their_predecessor():
    tree = fold_agents(multi_agent_run(), "completed")
    root = tree.instances["root"]
    assert root.successors == ("root.1",)
    assert root.subagents == ("impl.1", "impl.2", "root.f1")
    assert tree.instances["root.f1"].relation == "fork"
    assert tree.instances["root.1"].relation == "exec"
    assert tree.instances["impl.1"].relation == "subagent"
    assert [i.id for i in tree.ordered()] == ["root", "root.1", "impl.1", "impl.2", "root.f1"]


def test_profiles_come_from_the_spawn_events():
    tree = fold_agents(multi_agent_run(), "completed")
    assert {a: i.profile for a, i in tree.instances.items()} == {
        "root": "planner",
        "impl.1": "impl",
        "impl.2": "impl",
        "root.f1": "planner",
        "root.1": "reviewer",
    }
    assert list(tree.profiles()) == ["planner", "reviewer", "impl"]


def test_an_instance_that_handed_over_reads_so_and_the_last_incarnation_takes_the_runs_ending():
    tree = fold_agents(multi_agent_run(finished=False), "limit_exceeded")
    assert tree.instances["root"].status == "handed over"
    assert tree.instances["root.1"].status == "limit_exceeded"
    assert tree.instances["impl.1"].status == "completed"


def test_every_instance_runs_while_the_run_does():
    tree = fold_agents(multi_agent_run(finished=False), None)
    assert tree.instances["root.1"].status == "running"
    assert tree.instances["root.f1"].status == "completed"  # it reported its own ending


def test_an_instance_nobody_made_is_a_top_of_its_own():
    tree = fold_agents(
        [{"type": "log", "agentId": "root"}, {"type": "log", "agentId": "AUTH-1.0i"}], "completed"
    )
    assert tree.tops() == ["root", "AUTH-1.0i"]
    assert tree.instances["AUTH-1.0i"].status == "stopped"
