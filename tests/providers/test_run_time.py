"""A model request under the run's limits, end to end through `gg.run` against a loopback server
speaking the OpenAI wire: each attempt is given `modelCallTimeoutSecs`, never more than is left of
`maxRuntimeSecs`; a failed one is retried on `maxModelRetries` against `modelRetryMaxDelaySecs`;
a reply that arrives after the ceiling is recorded and never run.

Issue 21, item 25: a 3 s ceiling ended at 5.8 s and the late reply's program still ran.
Item 26: retries were fixed at about 2 to 3.5 s in all, so a server back after 2.1 s was given up on.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import gg

from .chat_server import Answer, ChatServer, Received, Scripted, error, program_completion

FINISH = 'import { session } from "gg";\nsession.finish("answered");\n'
LATE = 'import { files, session } from "gg";\nfiles.writeFile("late.txt", "x");\nsession.finish("late");\n'
HANG_SECS = 30.0  # the hanging server's silence: far past every ceiling below
WELL_BEFORE_THE_SERVER_SECS = 20.0
DOWN_SECS = 2.1  # how long the flaky server answers 500


def config(tmp_path: Path, server: ChatServer, limits: dict[str, Any]) -> dict[str, Any]:
    (tmp_path / "workspace").mkdir(exist_ok=True)
    model = {"provider": "openai", "model": "test-model", "baseUrl": server.base_url}
    return {
        "name": "run-time",
        "workspace": str(tmp_path / "workspace"),
        "limits": limits,
        "agents": [
            {"slug": "root", "model": model, "capabilities": [{"id": "responses-as-code"}]},
        ],
    }


def run(
    tmp_path: Path, server: ChatServer, limits: dict[str, Any]
) -> tuple[gg.RunResult, list[dict[str, Any]]]:
    events: list[gg.Event] = []
    result = gg.run(config(tmp_path, server, limits), store=tmp_path, on_event=events.append)
    return result, [event.to_wire() for event in events]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def down_for(secs: float, then: Answer) -> list[Scripted]:
    """A server that answers 500 until `secs` after the first request, then `then`."""
    first: list[float] = []

    def answer(received: Received) -> Answer:
        first.append(time.monotonic())
        return error(500, "down") if time.monotonic() < first[0] + secs else then

    return [answer] * 12


def test_a_server_that_hangs_is_given_what_is_left_of_the_runs_time(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.script(Answer(200, b"{}", delay_secs=HANG_SECS))
    started = time.monotonic()
    result, events = run(tmp_path, chat_server, {"maxRuntimeSecs": 3})
    took = time.monotonic() - started
    assert (result.status, result.exit_code) == ("timed_out", 3)
    assert took < WELL_BEFORE_THE_SERVER_SECS
    assert len(chat_server.received) == 1  # a timed-out request is not retried
    (breach,) = of_type(events, "limit_exceeded")
    assert (breach["limit"], breach["threshold"]) == ("runtime", 3)
    assert of_type(events, "model_reply") == [] and of_type(events, "turn_outcome") == []


def test_a_reply_that_arrives_after_the_ceiling_is_recorded_and_never_run(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    late = program_completion(LATE)
    chat_server.script(Answer(late.status, late.body, late.headers, trickle_secs=3.0))
    result, events = run(tmp_path, chat_server, {"maxRuntimeSecs": 2})
    assert (result.status, result.exit_code) == ("timed_out", 3)
    (reply,) = of_type(events, "model_reply")
    assert reply["calls"][0]["arguments"] == {"program": LATE}
    (breach,) = of_type(events, "limit_exceeded")
    assert breach["limit"] == "runtime" and breach["observed"] >= 2
    assert [of_type(events, kind) for kind in ("receipt", "code_execution", "turn_outcome")] == [[], [], []]
    assert not (tmp_path / "workspace" / "late.txt").exists()


def test_a_server_back_after_2_1_s_is_waited_for_on_the_default_schedule(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.script(*down_for(DOWN_SECS, program_completion(FINISH)))
    result, events = run(tmp_path, chat_server, {})
    assert (result.status, result.final_text) == ("completed", "answered"), result.message
    assert len(chat_server.received) == 3  # at 0 s, after 1 s, after 2 s more
    waits = [e["fields"]["delaySecs"] for e in of_type(events, "log") if e["level"] == "warn"]
    assert waits == [1.0, 2.0]


def test_the_retry_limits_are_read_from_the_capability_set(tmp_path: Path, chat_server: ChatServer) -> None:
    chat_server.script(*down_for(DOWN_SECS, program_completion(FINISH)))
    limits = {"maxModelRetries": 3, "modelRetryMaxDelaySecs": 1.5, "modelCallTimeoutSecs": 30}
    result, events = run(tmp_path, chat_server, limits)
    assert result.status == "completed", result.message
    waits = [e["fields"]["delaySecs"] for e in of_type(events, "log") if e["level"] == "warn"]
    assert waits == [1.0, 1.5]  # the second wait held to its ceiling


def test_no_retries_give_up_on_the_first_failure(tmp_path: Path, chat_server: ChatServer) -> None:
    chat_server.script(*down_for(DOWN_SECS, program_completion(FINISH)))
    result, _ = run(tmp_path, chat_server, {"maxModelRetries": 0})
    assert (result.status, result.exit_code) == ("model_error", 1)
    assert result.message is not None and "gave up after 1 attempt" in result.message
    assert len(chat_server.received) == 1
