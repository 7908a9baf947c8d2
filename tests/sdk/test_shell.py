"""`shell.shell` through the real membrane and a real jail: its result, its failures, its timeout."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from gg.config.catalogue import Role
from gg.errors import ErrorCode, OperationError
from gg.sandbox.jail import JailPolicy, open_jail
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.sdk.shell import ShellAccess, command_timeout
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.guest_world import QuietLog
from support.wall_bounds import STOPPED_WITHIN_SECS


class Agent:
    """An agent with the shell: its workspace, its jail and the membrane its calls cross."""

    def __init__(self, workspace: Path, timeout_secs: float = 120.0, deadline: float | None = None) -> None:
        self.workspace = workspace
        jail = open_jail(JailPolicy(workspace.resolve(), 1 << 30))
        self.scope = ProgramScope(
            "root",
            Role.STANDARD,
            frozenset({"shell"}),
            Workspace(workspace),
            ViewSet(),
            1,
            deadline=deadline,
            shell=ShellAccess(jail, timeout_secs),
        )
        self.membrane = Membrane(default_registry(), self.scope, QuietLog(), "javascript")

    def shell(self, command: Any, **options: Any) -> Any:
        return self.membrane("shell.shell", {"command": command, **options})

    def failure(self, command: Any, **options: Any) -> OperationError:
        with pytest.raises(OperationError) as caught:
            self.shell(command, **options)
        return caught.value


@pytest.fixture
def agent(tmp_path: Path) -> Agent:
    (tmp_path / "ws").mkdir()
    return Agent(tmp_path / "ws")


def test_a_command_hands_back_its_exit_code_and_merged_output(agent: Agent) -> None:
    result = agent.shell("echo built; echo warned >&2; exit 0")
    assert result == {
        "exitCode": 0,
        "output": "built\nwarned\n",
        "truncated": False,
        "droppedBytes": 0,
        "droppedLines": 0,
    }


def test_a_non_zero_exit_is_a_result_not_a_failure(agent: Agent) -> None:
    assert agent.shell("echo 'FAILED 2 tests'; exit 1") == {
        "exitCode": 1,
        "output": "FAILED 2 tests\n",
        "truncated": False,
        "droppedBytes": 0,
        "droppedLines": 0,
    }


def test_long_output_is_its_last_16_kib_from_a_whole_line_with_what_was_dropped_in_fields(
    agent: Agent,
) -> None:
    """`seq 1 20000` writes 108,894 bytes; its last 16 KiB begin inside the line `17270` (the
    fragment `270`), so the output starts at `17271`, after 17,270 lines."""
    result = agent.shell("seq 1 20000")
    assert result["truncated"] is True and result["output"].startswith("17271\n")
    assert result["output"].endswith("19999\n20000\n") and len(result["output"].encode()) == 16380
    assert result["droppedLines"] == 17270
    assert result["droppedBytes"] == len("".join(f"{n}\n" for n in range(1, 17271)))
    assert "truncated" not in result["output"] and "dropped" not in result["output"]


def test_a_command_past_its_timeout_is_limit_exceeded_with_its_output_so_far(agent: Agent) -> None:
    started = time.monotonic()
    failure = agent.failure("echo compiling; sleep 600", timeoutSecs=0.5)
    assert time.monotonic() - started < 0.5 + STOPPED_WITHIN_SECS
    assert failure.operation == "shell" and failure.code is ErrorCode.LIMIT_EXCEEDED
    assert failure.message.startswith("the command did not end within its 0.5 s timeout and was stopped")
    assert failure.message.endswith("what it wrote:\ncompiling\n")


def test_the_output_in_a_timeout_message_is_its_last_4_kib_from_a_whole_line(agent: Agent) -> None:
    """`seq 1 5000` writes 23,893 bytes; the last 4 KiB begin with the line end of `4181`, so the
    message shows from `4182` on, after 4,181 lines."""
    failure = agent.failure("seq 1 5000; sleep 30", timeoutSecs=1)
    lead, said = failure.message.split(":\n", 1)
    assert lead.endswith("the last 4095 bytes of what it wrote, after 4181 lines left out")
    assert said.startswith("4182\n") and said.endswith("4999\n5000\n")


def test_a_command_that_cannot_start_is_an_io_error(agent: Agent) -> None:
    agent.workspace.rename(agent.workspace.with_name("moved"))
    failure = agent.failure("true")
    assert failure.code is ErrorCode.IO_ERROR
    assert failure.message.startswith("the command could not be started: ")


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("", "`command` is blank"),
        ("   \n", "`command` is blank"),
        ("echo a\0b", "`command` holds a NUL character"),
        ("echo \ud800", "`command` is not well-formed Unicode"),
        ("#" * (128 * 1024), "`command` is 131072 bytes, over the 131071-byte cap"),
    ],
)
def test_a_command_that_cannot_be_run_is_invalid_argument(agent: Agent, command: str, reason: str) -> None:
    failure = agent.failure(command)
    assert (failure.code, failure.message) == (ErrorCode.INVALID_ARGUMENT, reason)


def test_the_longest_command_runs(agent: Agent) -> None:
    command = "true " + "#" * (128 * 1024 - 6)
    assert agent.shell(command)["exitCode"] == 0


def test_a_timeout_that_is_not_a_positive_number_is_refused_before_anything_runs(agent: Agent) -> None:
    for value in (0, -1, "5", float("inf")):
        failure = agent.failure("touch ran", timeoutSecs=value)
        assert failure.code is ErrorCode.INVALID_ARGUMENT and "timeoutSecs" in failure.message
    assert not (agent.workspace / "ran").exists()


def test_the_default_timeout_is_the_capabilitys(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    failure = Agent(tmp_path / "ws", timeout_secs=0.5).failure("sleep 30")
    assert "within its 0.5 s timeout" in failure.message


def test_a_command_never_runs_past_the_runs_wall_clock_budget(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    agent = Agent(tmp_path / "ws", deadline=time.monotonic() + 1.0)
    started = time.monotonic()
    failure = agent.failure("sleep 600", timeoutSecs=60)
    assert failure.code is ErrorCode.LIMIT_EXCEEDED and time.monotonic() - started < 1.0 + STOPPED_WITHIN_SECS


def test_once_the_runs_budget_is_spent_no_command_runs(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    failure = Agent(tmp_path / "ws", deadline=time.monotonic() - 1).failure("touch ran")
    assert failure.code is ErrorCode.LIMIT_EXCEEDED and not (tmp_path / "ws" / "ran").exists()


def test_an_agent_without_the_shell_capability_is_refused_unavailable(tmp_path: Path) -> None:
    scope = ProgramScope("root", Role.STANDARD, frozenset(), Workspace(tmp_path), ViewSet(), 1)
    membrane = Membrane(default_registry(), scope, QuietLog(), "javascript")
    with pytest.raises(OperationError) as caught:
        membrane("shell.shell", {"command": "true"})
    assert caught.value.code is ErrorCode.UNAVAILABLE
    assert "does not enable `shell`" in caught.value.message


def test_the_timeout_is_the_calls_or_the_default_at_most_a_day_and_within_the_budget() -> None:
    assert command_timeout(None, 120.0, None, 0.0) == 120.0
    assert command_timeout(5.0, 120.0, None, 0.0) == 5.0
    assert command_timeout(1e9, 120.0, None, 0.0) == 86_400.0
    assert command_timeout(None, 120.0, 100.0, 70.0) == 30.0
    assert command_timeout(10.0, 120.0, 100.0, 70.0) == 10.0
    assert command_timeout(None, 120.0, 100.0, 130.0) == 0.0


def test_a_shell_call_counts_as_a_tool_call_and_waits_off_the_programs_clock(agent: Agent) -> None:
    agent.shell("true")
    assert agent.membrane.counts.tool_calls == 1
    op = default_registry().get("shell.shell")
    assert op is not None and op.waits_externally
