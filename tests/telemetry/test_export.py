"""`gg runs --json` and `gg show --json`: the documented keys, camelCase, every one always present."""

from __future__ import annotations

from pathlib import Path

from gg.record.export import runs_document, show_document
from gg.record.store import RunStore
from gg.record.transcript import fold_transcript

from .sample import RUN_ID, emit_sample_run, spawn_tree

AGENT_KEYS = [
    "id",
    "parentAgentId",
    "relation",
    "profileId",
    "modelId",
    "depth",
    "state",
    "brief",
    "status",
    "summary",
]
RUN_KEYS = [
    "id",
    "name",
    "status",
    "exitCode",
    "arm",
    "model",
    "models",
    "turns",
    "errorTurns",
    "inputTokens",
    "outputTokens",
    "cacheReadTokens",
    "cacheWriteTokens",
    "costUsd",
    "unpricedReplies",
    "startedAt",
    "finishedAt",
    "durationMs",
    "configPath",
    "workspace",
    "message",
    "finalText",
]
TURN_KEYS = [
    "agentId",
    "turn",
    "startedAt",
    "read",
    "reply",
    "calls",
    "programs",
    "logs",
    "outcome",
    "limits",
]
CALL_KEYS = ["callId", "tool", "arguments", "rawArguments", "receipt", "programId"]
PROGRAM_KEYS = [
    "submission",
    "programId",
    "callId",
    "ok",
    "errorType",
    "error",
    "location",
    "durationMs",
    "apiCalls",
    "toolCalls",
    "logs",
    "logsSuppressed",
    "finished",
    "source",
    "links",
]


def _store(tmp_path: Path, *, finish: bool = True) -> RunStore:
    store = RunStore.at(tmp_path)
    emit_sample_run([store], finish=finish)
    return store


def test_a_listed_run_carries_every_documented_key_with_its_figures(tmp_path: Path) -> None:
    store = _store(tmp_path)
    document = runs_document(store.listed(store.list_runs()))
    assert document["schema"] == 1
    (run,) = document["runs"]
    assert list(run) == RUN_KEYS
    assert (run["id"], run["status"], run["arm"], run["model"], run["turns"]) == (
        RUN_ID,
        "completed",
        "javascript",
        "gpt-test",
        3,
    )
    assert (run["inputTokens"], run["outputTokens"], run["errorTurns"], run["costUsd"]) == (
        4100,
        180,
        1,
        None,
    )
    assert (run["durationMs"], run["finalText"]) == (4500.0, "Audit done: 2 issues.")


def test_a_listed_run_names_every_model_of_its_tree_the_roots_first_and_keeps_model_the_roots(
    tmp_path: Path,
) -> None:
    store = RunStore.at(tmp_path)
    spawn_tree(emit_sample_run([store]), "gpt-test", "anthropic:claude-x", "gpt-test")
    (run,) = runs_document(store.listed(store.list_runs()))["runs"]
    assert (run["model"], run["models"]) == ("gpt-test", ["gpt-test", "anthropic:claude-x"])


def test_a_run_of_one_agent_names_its_one_model(tmp_path: Path) -> None:
    store = _store(tmp_path)  # its events name no agent: the run's own model stands for its one agent
    (run,) = runs_document(store.listed(store.list_runs()))["runs"]
    assert run["models"] == ["gpt-test"]


def test_an_unfinished_run_keeps_every_key_with_null_for_what_is_not_known(tmp_path: Path) -> None:
    store = _store(tmp_path, finish=False)
    (run,) = runs_document(store.listed(store.list_runs()))["runs"]
    assert list(run) == RUN_KEYS
    assert run["exitCode"] is None and run["finishedAt"] is None and run["finalText"] is None


def test_a_shown_run_has_its_entry_every_turn_and_every_program_with_the_documented_keys(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path)
    (listed,) = store.listed(store.list_runs())
    document = show_document(listed, fold_transcript(store.events(RUN_ID), for_terminal=False))
    assert list(document) == ["schema", "run", "agents", "turns", "logs"]
    assert list(document["run"]) == RUN_KEYS
    (root,) = document["agents"]  # a run of one agent: its root, which is all the events name
    assert list(root) == AGENT_KEYS and (root["id"], root["relation"], root["depth"]) == ("root", "root", 0)
    assert [list(turn) for turn in document["turns"]] == [TURN_KEYS] * 3
    calls = [call for turn in document["turns"] for call in turn["calls"]]
    assert calls and all(list(call) == CALL_KEYS for call in calls)
    programs = [program for turn in document["turns"] for program in turn["programs"]]
    assert [list(program) for program in programs] == [PROGRAM_KEYS] * 3
    failed = programs[1]
    assert (failed["ok"], failed["errorType"], failed["location"]) == (
        False,
        "program_api_error",
        "program.js:2:7",
    )
    assert document["turns"][1]["outcome"]["outcome"] == "error"
    assert document["turns"][0]["reply"]["inputTokens"] == 1200
