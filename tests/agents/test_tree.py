"""The run's agent tree and its ids: `root`; `<lineage>.<n>` for the n-th subagent a lineage
spawns; `<lineage>.f<n>` for its n-th fork; `<lineage>@<k>` for its k-th incarnation."""

from __future__ import annotations

import threading

import pytest

from gg.agents.tree import AgentTree
from gg.errors import GgDefect
from gg.ids import AgentNode, is_agent_id


def test_the_root_is_named_root_at_depth_zero_with_no_parent() -> None:
    tree = AgentTree()
    root = tree.open_root("planner")
    assert root == AgentNode("root", "planner", parent=None, depth=0, lineage="root", incarnation=1)
    assert tree.get("root") == root and tree.nodes() == [root]
    assert tree.get("root.1") is None


def test_a_second_root_is_gg_s_own_defect() -> None:
    tree = AgentTree()
    tree.open_root("planner")
    with pytest.raises(GgDefect, match="root"):
        tree.open_root("planner")


def test_subagents_and_forks_are_numbered_per_lineage_one_level_deeper() -> None:
    tree = AgentTree()
    root = tree.open_root("planner")
    first, second = tree.spawn(root, "worker"), tree.spawn(root, "worker")
    copy = tree.open_fork(tree.reserve_fork(root), root)
    grandchild = tree.spawn(first, "helper")
    assert [first.id, second.id, copy.id, grandchild.id] == ["root.1", "root.2", "root.f1", "root.1.1"]
    assert (first.parent, first.depth, first.lineage) == ("root", 1, "root.1")
    assert (copy.profile, copy.depth, grandchild.depth) == ("planner", 1, 2)


def test_a_successor_is_the_next_incarnation_of_its_lineage_at_the_same_depth() -> None:
    tree = AgentTree()
    root = tree.open_root("explorer")
    child = tree.spawn(root, "worker")
    builder = tree.succeed(root, "builder")
    verifier = tree.succeed(builder, "verifier")
    later = tree.spawn(builder, "worker")
    assert [builder.id, verifier.id] == ["root@2", "root@3"]
    assert (builder.parent, builder.depth, builder.lineage, builder.incarnation) == ("root", 0, "root", 2)
    assert verifier.parent == "root@2"
    assert (child.id, later.id) == ("root.1", "root.2")  # one count across the lineage's incarnations
    assert tree.succeed(child, "reviewer").id == "root.1@2"


def test_ids_do_not_depend_on_which_thread_asks_first() -> None:
    tree = AgentTree()
    root = tree.open_root("planner")
    children = [tree.spawn(root, "worker") for _ in range(3)]
    minted: dict[str, list[str]] = {}

    def spawn_under(parent: AgentNode) -> None:
        minted[parent.id] = [tree.spawn(parent, "helper").id for _ in range(20)]

    threads = [threading.Thread(target=spawn_under, args=(child,)) for child in children]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for child in children:
        assert minted[child.id] == [f"{child.id}.{n}" for n in range(1, 21)]


def test_an_agent_id_has_the_shape_the_tree_mints() -> None:
    minted = ["root", "root.1", "root.12", "root.1.f1", "root@2", "root.2.f1@2", "root.f3.4@10"]
    assert all(is_agent_id(text) for text in minted)
    never = ["", "Root", "worker", "root.", "root.0", "root.f", "root.f0", "root@1", "root@2.1", "root.1 "]
    assert not any(is_agent_id(text) for text in never)
