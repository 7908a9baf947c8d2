"""The agent tree: spawned subagents and forks under their parent, successors off their
predecessor, statuses once the run ended (the crew run gg recorded, and small streams)."""

from __future__ import annotations

from console.conftest import Records, written_until
from gg.record.agents import fold_agents


def test_a_run_without_spawn_events_is_one_root_agent():
    tree = fold_agents([{"type": "run_started", "agentId": "root", "model": "replay"}], None)
    assert list(tree.instances) == ["root"]
    root = tree.instances["root"]
    assert (root.relation, root.profile, root.model, root.status) == ("root", "root", "replay", "running")


def test_subagents_and_forks_hang_under_their_parent_and_successors_off_their_predecessor(
    crew_records: Records,
):
    tree = fold_agents(crew_records, "completed")
    root = tree.instances["root"]
    assert root.successors == ("root@2",)
    assert root.subagents == ("root.1", "root.2", "root.f1", "root.3", "root.4")
    assert tree.instances["root.f1"].relation == "fork"
    assert tree.instances["root@2"].relation == "exec"
    assert tree.instances["root.3"].relation == "subagent"  # the board's implementer, under its filer
    assert [i.id for i in tree.ordered()] == [
        "root",
        "root@2",
        "root.1",
        "root.2",
        "root.f1",
        "root.3",
        "root.4",
    ]


def test_profiles_come_from_the_spawn_events(crew_records: Records):
    tree = fold_agents(crew_records, "completed")
    assert {a: i.profile for a, i in tree.instances.items()} == {
        "root": "root",
        "root.1": "worker",
        "root.2": "worker",
        "root.f1": "root",
        "root.3": "worker",
        "root.4": "inspector",
        "root@2": "closer",
    }
    assert list(tree.profiles()) == ["root", "closer", "worker", "inspector"]


def test_an_instance_that_handed_over_reads_so_and_the_last_incarnation_takes_the_runs_ending(
    crew_records: Records,
):
    tree = fold_agents(written_until(crew_records, "agent_finished", "root@2"), "limit_exceeded")
    assert tree.instances["root"].status == "handed over"
    assert tree.instances["root@2"].status == "limit_exceeded"
    assert tree.instances["root.1"].status == "completed"


def test_every_instance_runs_while_the_run_does(crew_records: Records):
    tree = fold_agents(written_until(crew_records, "agent_finished", "root@2"), None)
    assert tree.instances["root@2"].status == "running"
    assert tree.instances["root.f1"].status == "completed"  # it reported its own ending


def test_an_instance_nobody_made_is_a_top_of_its_own():
    tree = fold_agents(
        [{"type": "log", "agentId": "root"}, {"type": "log", "agentId": "AUTH-1.0i"}], "completed"
    )
    assert tree.tops() == ["root", "AUTH-1.0i"]
    assert tree.instances["AUTH-1.0i"].status == "stopped"
