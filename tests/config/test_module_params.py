"""The capabilities behind the task list, the board and the thread archive: every param a capability
requires is written when it is enabled, values are judged whenever written, the board's caps are
the run's, and one refusal names every defect (anchor-state §7.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gg.config import capability_set_schema
from gg.config.catalogue import CapabilityId
from gg.config.modules import BoardCaps, TaskListSettings, TaskMode, board_caps, reviewers_required, task_list

from .documents import at, example, load, paths, refusal, root

TASKS = {"id": "tasks", "enabled": True, "params": {"maxTasks": 10, "mode": "simple"}}
BOARD = {
    "id": "project-management",
    "enabled": True,
    "params": {"maxEpics": 5, "maxIssues": 10, "maxRetries": 0},
}
MANAGED = {"id": "agent-managed-context", "enabled": True}


def _with(*capabilities: dict[str, Any]) -> dict[str, Any]:
    document = example()
    root(document)["capabilities"].extend(capabilities)
    return document


def _second_agent(document: dict[str, Any], *capabilities: dict[str, Any]) -> dict[str, Any]:
    worker = {
        **root(document),
        "slug": "worker",
        "capabilities": [root(document)["capabilities"][0], *capabilities],
    }
    document["agents"].append(worker)
    return document


def test_enabled_module_capabilities_load_and_give_their_settings(folder: Path) -> None:
    loaded = load(_with(TASKS, BOARD, MANAGED), folder)
    capabilities = loaded.root.capabilities
    assert task_list(capabilities) == TaskListSettings(10, TaskMode.SIMPLE)
    assert board_caps([capabilities]) == BoardCaps(max_epics=5, max_issues=10, max_retries=0)
    assert loaded.root.enabled(CapabilityId.AGENT_MANAGED_CONTEXT)
    assert not reviewers_required(capabilities)


def test_a_disabled_capability_gives_no_settings_and_a_run_without_a_board_has_none(folder: Path) -> None:
    off = [{**capability, "enabled": False, "params": {}} for capability in (TASKS, BOARD, MANAGED)]
    capabilities = load(_with(*off), folder).root.capabilities
    assert task_list(capabilities) is None
    assert board_caps([capabilities]) is None


def test_every_required_param_of_an_enabled_capability_is_named_at_once(folder: Path) -> None:
    document = _with(
        {"id": "tasks", "enabled": True, "params": {}},
        {"id": "project-management", "params": {"maxRetries": 1}},
        {"id": "agent-managed-context", "enabled": True},
    )
    defects = refusal(document, folder)
    assert paths(defects) == [
        "agents[0].capabilities[2].params.maxTasks",
        "agents[0].capabilities[2].params.mode",
        "agents[0].capabilities[3].params.maxEpics",
        "agents[0].capabilities[3].params.maxIssues",
    ]
    assert at(defects, "agents[0].capabilities[2].params.mode").reason == "is required when tasks is enabled"
    assert at(defects, "agents[0].capabilities[2].params.mode").found == "(absent)"


def test_values_are_judged_whenever_written_even_on_a_capability_switched_off(folder: Path) -> None:
    document = _with(
        {"id": "tasks", "enabled": False, "params": {"maxTasks": 0, "mode": "kanban"}},
        {
            "id": "project-management",
            "params": {"maxEpics": 0, "maxIssues": 2.5, "maxRetries": -1, "reviewers": "yes"},
        },
        {"id": "agent-managed-context", "params": {"ownership": "owned"}},
    )
    defects = refusal(document, folder)
    caps = "agents[0].capabilities[3].params"
    assert paths(defects) == [
        "agents[0].capabilities[2].params.maxTasks",
        "agents[0].capabilities[2].params.mode",
        f"{caps}.maxEpics",
        f"{caps}.maxIssues",
        f"{caps}.maxRetries",
        f"{caps}.reviewers",
        "agents[0].capabilities[4].params.ownership",
    ]
    assert at(defects, "agents[0].capabilities[2].params.mode").reason == "must be one of simple, issues"
    assert at(defects, f"{caps}.maxRetries").reason == "must be a whole number of retries, 0 or more"


def test_zero_retries_are_a_setting_not_a_defect(folder: Path) -> None:
    board = {
        "id": "project-management",
        "params": {"maxEpics": 1, "maxIssues": 1, "maxRetries": 0, "reviewers": True},
    }
    capabilities = load(_with(board), folder).root.capabilities
    assert board_caps([capabilities]) == BoardCaps(1, 1, 0) and reviewers_required(capabilities)


@pytest.mark.parametrize("key", ["topFileViews", "signalThresholdPercent"])
def test_a_context_usage_signal_param_refuses_the_launch_saying_gg_shows_no_such_signal(
    folder: Path, key: str
) -> None:
    """Both sized the original's context-usage signal (how many file views it names; how full the
    window is before it shows). gg shows none: it knows no window limit to be full against."""
    for enabled in (True, False):
        managed = {"id": "agent-managed-context", "enabled": enabled, "params": {key: 5}}
        (defect,) = refusal(_with(managed), folder)
        assert defect.path == f"agents[0].capabilities[2].params.{key}"
        assert defect.reason.startswith("is not a key gg reads: it sized the context-usage signal")
        assert "no window limit" in defect.reason and "remove it" in defect.reason
    managed_schema = capability_set_schema()["$defs"]["AgentManagedContextParams"]
    assert managed_schema["properties"] == {} and managed_schema["additionalProperties"] is False


def test_the_boards_caps_are_read_off_the_first_profile_and_a_diverging_one_refuses_the_launch(
    folder: Path,
) -> None:
    other = {"id": "project-management", "params": {"maxEpics": 5, "maxIssues": 20, "maxRetries": 2}}
    defects = refusal(_second_agent(_with(BOARD), other), folder)
    assert paths(defects) == [
        "agents[1].capabilities[1].params.maxIssues",
        "agents[1].capabilities[1].params.maxRetries",
    ]
    assert "agents[0]'s 10" in at(defects, "agents[1].capabilities[1].params.maxIssues").reason
    same = {"id": "project-management", "params": {**BOARD["params"], "reviewers": True}}
    loaded = load(_second_agent(_with(BOARD), same), folder)
    assert board_caps([agent.capabilities for agent in loaded.agents]) == BoardCaps(5, 10, 0)
    assert reviewers_required(loaded.agents[1].capabilities)  # `reviewers` is each profile's own


def test_a_board_param_the_run_does_not_know_refuses_the_launch(folder: Path) -> None:
    board = {"id": "project-management", "params": {**BOARD["params"], "mergeAgentId": "root"}}
    (defect,) = refusal(_with(board), folder)
    assert defect.path == "agents[0].capabilities[2].params.mergeAgentId"


def test_the_readme_gives_every_capability_a_line_of_its_own() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    bullets = {line.split("`")[1] for line in readme.splitlines() if line.startswith("- `")}
    assert [capability.value for capability in CapabilityId if capability.value not in bullets] == []
    assert "- `agent-managed-context` (no params): the agent manages its own window" in readme
