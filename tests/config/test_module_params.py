"""The capabilities behind the task list, the board and the thread archive: every param a capability
requires is written when it is enabled, values are judged whenever written, the board's caps are
the run's, and one refusal names every defect (anchor-state §7.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gg.config.modules import (
    DEFAULT_SIGNAL_THRESHOLD_PERCENT,
    ManagedContext,
    TaskListSettings,
    board_caps,
    managed_context,
    reviewers_required,
    task_list,
)
from gg.state.board import BoardCaps
from gg.state.tasks import TaskMode

from .documents import at, example, load, paths, refusal, root

TASKS = {"id": "tasks", "enabled": True, "params": {"maxTasks": 10, "mode": "simple"}}
BOARD = {
    "id": "project-management",
    "enabled": True,
    "params": {"maxEpics": 5, "maxIssues": 10, "maxRetries": 0},
}
MANAGED = {"id": "agent-managed-context", "enabled": True, "params": {"topFileViews": 5}}


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
    assert managed_context(capabilities) == ManagedContext(5, DEFAULT_SIGNAL_THRESHOLD_PERCENT)
    assert DEFAULT_SIGNAL_THRESHOLD_PERCENT == 75
    assert not reviewers_required(capabilities)


def test_a_disabled_capability_gives_no_settings_and_a_run_without_a_board_has_none(folder: Path) -> None:
    off = [{**capability, "enabled": False, "params": {}} for capability in (TASKS, BOARD, MANAGED)]
    capabilities = load(_with(*off), folder).root.capabilities
    assert task_list(capabilities) is None and managed_context(capabilities) is None
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
        "agents[0].capabilities[4].params.topFileViews",
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
        {
            "id": "agent-managed-context",
            "params": {"topFileViews": 5, "signalThresholdPercent": 101, "ownership": "owned"},
        },
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
        "agents[0].capabilities[4].params.signalThresholdPercent",
        "agents[0].capabilities[4].params.ownership",
    ]
    assert at(defects, "agents[0].capabilities[2].params.mode").reason == "must be one of simple, issues"
    assert at(defects, f"{caps}.maxRetries").reason == "must be a whole number of retries, 0 or more"


def test_zero_retries_and_zero_top_file_views_are_settings_not_defects(folder: Path) -> None:
    board = {
        "id": "project-management",
        "params": {"maxEpics": 1, "maxIssues": 1, "maxRetries": 0, "reviewers": True},
    }
    managed = {"id": "agent-managed-context", "params": {"topFileViews": 0, "signalThresholdPercent": 0}}
    capabilities = load(_with(board, managed), folder).root.capabilities
    assert board_caps([capabilities]) == BoardCaps(1, 1, 0) and reviewers_required(capabilities)
    assert managed_context(capabilities) == ManagedContext(0, 0.0)


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
