"""`gg replay --verify RUN` against what the record says (issue 26): a program's output changed in
the record is caught at its agent and turn, a notice another agent's thread placed at another turn
is no divergence under `shape`, and a run that kept no start, or whose workspace was over the
bound, is refused (exit 2), saying why."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playback.recorded import events, gg, only_run, recorded, rewrite

NOTICE = "Another agent holding your memories changed them since your last turn:"


def test_a_programs_output_changed_in_the_record_is_caught_at_its_agent_and_turn(tmp_path: Path) -> None:
    run_id = recorded(tmp_path, "review-loop")
    programs = events(tmp_path, run_id, "code_execution")
    seq, program = next((s, e) for s, e in programs if e["agentId"] == "root.1" and e["turn"] == 1)
    rewrite(tmp_path, run_id, seq, lambda e: e.update(logs=[*e["logs"], "approved twice"]))
    verified = gg(tmp_path, "replay", "--verify", run_id, "--fingerprint", "exact")
    assert verified.exit_code == 1, verified.output
    (line,) = verified.stdout.splitlines()
    assert line.startswith("diverged (fingerprint exact): agent root.1, turn 1, program verdict at logs: ")
    assert "approved twice" in line.split("; the replay did ")[0]
    assert "approved twice" not in line.split("; the replay did ")[1] and program["logs"] is not None


def test_a_system_prompt_worded_otherwise_diverges_under_exact_and_not_under_shape(tmp_path: Path) -> None:
    """What an upgrade that rewords gg's prompt meets: the recorded answers answer another question."""
    run_id = recorded(tmp_path, "spec-audit")
    seq, first = events(tmp_path, run_id, "model_request")[0]
    assert first["messages"][0]["role"] == "system"
    rewrite(tmp_path, run_id, seq, lambda e: e["messages"][0].update(content="You are an agent."))
    exact = gg(tmp_path, "replay", "--verify", run_id)
    assert exact.exit_code == 1
    assert exact.stdout.startswith(
        "diverged (fingerprint exact): agent root, turn 1, model request at messages[0].content: "
        'the record says "You are an agent."; the replay did '
        '"You are an agent that works by writing programs.'
    )
    assert gg(tmp_path, "replay", "--verify", run_id, "--fingerprint", "shape").exit_code == 0


def test_a_notice_another_thread_placed_at_another_turn_is_no_divergence_under_shape(tmp_path: Path) -> None:
    run_id = recorded(tmp_path, "planner")
    requests = [(s, e) for s, e in events(tmp_path, run_id, "model_request") if e["agentId"] == "root.1"]
    at = next(i for i, (_, e) in enumerate(requests) if any(_notice(m) for m in e["messages"]))
    to = at + 1 if at + 1 < len(requests) else at - 1
    (notice,) = [m for m in requests[at][1]["messages"] if _notice(m)]
    rewrite(tmp_path, run_id, requests[at][0], lambda e: e["messages"].remove(notice))
    rewrite(tmp_path, run_id, requests[to][0], lambda e: e["messages"].append(notice))
    moved = [e for _, e in events(tmp_path, run_id, "model_request") if e["agentId"] == "root.1"]
    assert [any(_notice(m) for m in e["messages"]) for e in moved].index(True) == to
    verified = gg(tmp_path, "replay", "--verify", run_id)
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("faithful (fingerprint shape): ")


def test_a_notice_that_never_arrived_is_a_divergence_under_shape(tmp_path: Path) -> None:
    run_id = recorded(tmp_path, "planner")
    requests = [(s, e) for s, e in events(tmp_path, run_id, "model_request") if e["agentId"] == "root.2"]
    seq, request = next((s, e) for s, e in requests if any(_notice(m) for m in e["messages"]))
    rewrite(tmp_path, run_id, seq, lambda e: e.update(messages=[m for m in e["messages"] if not _notice(m)]))
    verified = gg(tmp_path, "replay", "--verify", run_id)
    assert verified.exit_code == 1 and request["turn"] >= 1
    assert verified.stdout.startswith(
        "diverged (fingerprint shape): agent root.2, turn 3, arrivals from other agents: "
        "the record says nothing (no such step); the replay did ['Another agent holding your memories"
    )


def test_a_run_recorded_without_its_start_is_refused_saying_why(tmp_path: Path) -> None:
    run_id = recorded(tmp_path, "spec-audit", record=False)
    refused = gg(tmp_path, "replay", "--verify", run_id)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr == (
        f"gg replay --verify: run {run_id} kept no starting workspace (only `gg run --record` keeps one, "
        "and only of a workspace within the bound); it cannot be verified\n"
    )


def test_a_workspace_over_the_bound_is_recorded_without_its_start_and_said_so(tmp_path: Path) -> None:
    folder = tmp_path / "spec-audit"
    recorded(tmp_path, "spec-audit")  # copies the example into `folder`, and leaves its report there
    with open(folder / "workspace" / "big.bin", "wb") as big:  # sparse: 64 MiB and one byte, on no disk
        big.truncate(64 * 1024 * 1024 + 1)
    ran = gg(tmp_path, "run", str(folder), "--record", str(tmp_path / "big.jsonl"))
    run_id = only_run(tmp_path)
    assert (
        "gg: the workspace holds more than a recorded run keeps of its start (64.0 MiB of files, 10000 "
        f"entries); run {run_id} is recorded, but `gg replay --verify` cannot verify it\n"
    ) in ran.stderr
    assert not (tmp_path / ".gg" / "runs" / run_id / "start").exists()
    assert gg(tmp_path, "replay", "--verify", run_id).exit_code == 2
    assert os.path.getsize(folder / "workspace" / "big.bin") == 64 * 1024 * 1024 + 1


def test_verify_takes_neither_a_journal_nor_a_config(tmp_path: Path) -> None:
    (tmp_path / "some.jsonl").write_text("{}\n")
    wrong = gg(tmp_path, "replay", "--verify", "latest", "some.jsonl")
    assert wrong.exit_code == 2 and "it takes no JOURNAL, CONFIG, --workspace or --otel" in wrong.output
    missing = gg(tmp_path, "replay", "--verify", "latest")
    assert missing.exit_code == 2
    assert missing.stderr == f"gg replay --verify: there is no run store at {tmp_path}/.gg/runs.db\n"


def _notice(message: dict[str, Any]) -> bool:
    return message["role"] == "user" and message["content"].startswith(NOTICE)
