"""A profile's toolset folded from its instances' `agent_spawned` and its calls: the union of what
they were offered (with how many were offered each), what was withheld, what was called."""

from __future__ import annotations

from gg.record.agents import fold_agents
from gg.record.toolset import Offer, ToolRow, profile_toolset


def _spawned(agent: str, offered: list[str] | None, withheld: list[str] | None = None) -> dict[str, object]:
    record: dict[str, object] = {"type": "agent_spawned", "agentId": agent, "profileId": "worker", "depth": 1}
    if offered is not None:
        record |= {"offered": offered, "withheld": withheld or []}
    return record


def test_offered_withheld_and_called_are_unioned_over_a_profiles_instances():
    tree = fold_agents(
        [
            _spawned("root.1", ["files.read_file", "session.finish"], ["files.write_file"]),
            _spawned("root.2", ["files.read_file", "files.list_dir"], ["files.write_file"]),
        ],
        "completed",
    )
    calls = {"files.read_file": 3, "files.write_file": 1, "files.nope": 2}
    toolset = profile_toolset(list(tree.instances.values()), calls)
    assert toolset is not None and toolset.instances == 2
    assert toolset.rows == (
        ToolRow("files.read_file", Offer.OFFERED, 3, 2),
        ToolRow("session.finish", Offer.OFFERED, 0, 1),
        ToolRow("files.list_dir", Offer.OFFERED, 0, 1),
        ToolRow("files.write_file", Offer.WITHHELD, 1),
        ToolRow("files.nope", Offer.UNOFFERED, 2),
    )
    assert [row.operation for row in toolset.called] == ["files.read_file", "files.write_file", "files.nope"]


def test_a_profile_whose_instances_recorded_no_surface_has_no_toolset():
    tree = fold_agents([_spawned("root.1", None)], "completed")
    assert tree.instances["root.1"].offered is None
    assert profile_toolset(list(tree.instances.values()), {"files.read_file": 1}) is None
