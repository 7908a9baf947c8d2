"""The run's agent tree: the root is `root`, at depth 0, with no parent; a run has one root."""

from __future__ import annotations

import pytest

from gg.errors import GgDefect
from gg.run.tree import AgentNode, AgentTree


def test_the_root_is_named_root_at_depth_zero_with_no_parent() -> None:
    tree = AgentTree()
    root = tree.open_root("planner")
    assert root == AgentNode("root", "planner", parent=None, depth=0)
    assert tree.get("root") == root and tree.nodes() == [root]
    assert tree.get("root.1") is None


def test_a_second_root_is_gg_s_own_defect() -> None:
    tree = AgentTree()
    tree.open_root("planner")
    with pytest.raises(GgDefect, match="root"):
        tree.open_root("planner")
