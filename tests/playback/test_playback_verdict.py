"""The verdict (`gg.playback.verdict`), a pure decider over two runs' records: per agent, each
request's fingerprint, each program's verdict, each module write and each end; the first divergence
is the one that comes first in the record."""

from __future__ import annotations

from typing import Any

from gg.playback.fingerprint import Fingerprint
from gg.playback.verdict import verdict_of

NOTICE = "Another agent holding your memories changed them since your last turn:\n- added `a`"


def _request(agent: str, turn: int, *contents: str, stamp: str = "T1") -> dict[str, Any]:
    messages = [{"role": "user", "content": c} for c in contents]
    return {
        "type": "model_request",
        "timestamp": stamp,
        "runId": "r",
        "agentId": agent,
        "turn": turn,
        "messages": messages,
    }


def _program(agent: str, turn: int, logs: list[str], **more: Any) -> dict[str, Any]:
    return {
        "type": "code_execution",
        "agentId": agent,
        "turn": turn,
        "ok": True,
        "logs": logs,
        "durationMs": 3.5,
        **more,
    }


def _run(*, worker_logs: list[str], notice_at: int = 2) -> list[dict[str, Any]]:
    return [
        _request("root", 1, "Task: go"),
        _program("root", 1, ["spawned"]),
        _request("root.1", 1, "Task: work", *([NOTICE] if notice_at == 1 else [])),
        _program("root.1", 1, worker_logs, toolCalls=4),
        _request("root.1", 2, "Runtime error 12 ms", *([NOTICE] if notice_at == 2 else [])),
        {"type": "memory_revision", "agentId": "root.1", "turn": 2, "name": "a", "revision": 1},
        {"type": "agent_finished", "agentId": "root.1", "turn": 2, "status": "completed", "summary": "done"},
        {
            "type": "run_finished",
            "agentId": "root",
            "turn": 2,
            "status": "completed",
            "exitCode": 0,
            "finalText": "ok",
            "durationMs": 9,
        },
    ]


def test_two_runs_alike_but_for_times_and_run_ids_are_faithful_under_exact() -> None:
    replayed = [
        {**r, "timestamp": "T2", "runId": "other", "durationMs": 1.0} for r in _run(worker_logs=["w"])
    ]
    verdict = verdict_of(_run(worker_logs=["w"]), replayed, Fingerprint.EXACT)
    assert (
        verdict.faithful
        and verdict.said() == "faithful (fingerprint exact): 8 steps of 2 agents played as recorded"
    )


def test_a_program_output_that_differs_is_named_by_agent_turn_and_place() -> None:
    verdict = verdict_of(_run(worker_logs=["w"]), _run(worker_logs=["x"]), Fingerprint.EXACT)
    assert verdict.said() == (
        "diverged (fingerprint exact): agent root.1, turn 1, program verdict at logs[0]: "
        'the record says "w"; the replay did "x"'
    )


def test_the_first_divergence_is_the_first_in_the_record_whatever_the_agents_order() -> None:
    recorded = _run(worker_logs=["w"])
    replayed = _run(worker_logs=["x"])
    replayed[-1] = {**replayed[-1], "finalText": "not ok"}  # the root's run end, later in the record
    divergence = verdict_of(recorded, replayed, Fingerprint.EXACT).divergence
    assert divergence is not None and (divergence.agent, divergence.turn) == ("root.1", 1)


def test_a_notice_at_another_turn_diverges_under_exact_and_not_under_shape() -> None:
    recorded, replayed = _run(worker_logs=["w"], notice_at=1), _run(worker_logs=["w"], notice_at=2)
    exact = verdict_of(recorded, replayed, Fingerprint.EXACT).divergence
    assert exact is not None and (exact.agent, exact.turn, exact.what) == ("root.1", 1, "model request")
    assert verdict_of(recorded, replayed, Fingerprint.SHAPE).faithful


def test_shape_masks_digits_and_call_counts_but_not_headings() -> None:
    recorded = _run(worker_logs=["took 12 ms"])
    replayed = _run(worker_logs=["took 7 ms"])
    replayed[3] = {**replayed[3], "toolCalls": 9}
    assert verdict_of(recorded, replayed, Fingerprint.SHAPE).faithful
    replayed[4] = _request("root.1", 2, "Compiler error 12 ms", NOTICE)
    said = verdict_of(recorded, replayed, Fingerprint.SHAPE).said()
    assert said.startswith("diverged (fingerprint shape): agent root.1, turn 2, model request at [0][1]: ")


def test_none_compares_no_request_but_every_other_step() -> None:
    replayed = _run(worker_logs=["w"])
    replayed[2] = _request("root.1", 1, "Task: something else")
    assert verdict_of(_run(worker_logs=["w"]), replayed, Fingerprint.NONE).faithful
    replayed.pop(5)  # the memory write
    divergence = verdict_of(_run(worker_logs=["w"]), replayed, Fingerprint.NONE).divergence
    assert divergence is not None and divergence.what == "module write (memory_revision)"
    assert (divergence.recorded, divergence.replayed) == ("module write (memory_revision)", "agent's end")


def test_an_agent_the_replay_never_opened_is_a_divergence() -> None:
    replayed = [r for r in _run(worker_logs=["w"]) if r["agentId"] != "root.1"]
    divergence = verdict_of(_run(worker_logs=["w"]), replayed, Fingerprint.EXACT).divergence
    assert divergence is not None and (divergence.agent, divergence.turn) == ("root.1", 1)
    assert divergence.replayed == "nothing (no such step)"


def test_two_long_texts_that_differ_late_are_shown_where_they_differ() -> None:
    line = "import { files } from 'gg';\n" * 20
    recorded = _run(worker_logs=[line + "wrote report.md"])
    replayed = _run(worker_logs=[line + "wrote rep0rt.md"])
    said = verdict_of(recorded, replayed, Fingerprint.EXACT).said()
    record_says, replay_did = said.split("the record says ")[1].split("; the replay did ")
    assert "report.md" in record_says and "rep0rt.md" in replay_did
    assert record_says.startswith("…(from character ") and record_says.endswith('report.md" (677 characters)')
