"""How long a jailed command and everything it starts live, on a real bubblewrap: every process is
gone when the call returns, at the timeout too, and when gg itself is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from jailworld import alive_with, exited, jail_over, marker, sleeping, timed_out, workspace_in

from gg.sandbox.jail import Jail
from gg.sandbox.jail.arguments import command_arguments, jail_arguments
from gg.sandbox.jail.command import Pipes, spawn
from support.waiting import wait_until
from support.wall_bounds import STOPPED_WITHIN_SECS

LEFTOVERS = {
    "a background job": "sleep {m} &",
    "nohup": "nohup sleep {m} >/dev/null 2>&1 &",
    "setsid": "setsid sleep {m} >/dev/null 2>&1 < /dev/null &",
    "a double fork": "( ( sleep {m} & ) & )",
    "a job that closed every stream": "( exec >/dev/null 2>&1 </dev/null; sleep {m} ) &",
}


@pytest.fixture
def jail(tmp_path: Path) -> Jail:
    return jail_over(workspace_in(tmp_path))


@pytest.mark.parametrize("how", list(LEFTOVERS))
def test_every_process_a_command_started_is_gone_when_the_call_returns(jail: Jail, how: str) -> None:
    sleep = marker()
    started = time.monotonic()
    end = exited(jail.run(LEFTOVERS[how].format(m=sleep) + "\necho started", 20.0))
    assert end.output.text == "started\n" and time.monotonic() - started < STOPPED_WITHIN_SECS  # not 1000 s
    assert alive_with(sleep) == []


def test_a_command_past_its_timeout_is_stopped_with_all_it_started(jail: Jail) -> None:
    sleep = marker()
    started = time.monotonic()
    end = timed_out(jail.run(f"sleep {sleep} & nohup sleep {sleep} & echo waiting; sleep {sleep}", 1.0))
    elapsed = time.monotonic() - started
    assert end.timeout_secs == 1.0 and end.output.text == "waiting\n"
    assert 1.0 <= elapsed < 1.0 + STOPPED_WITHIN_SECS, elapsed
    assert alive_with(sleep) == []


def test_a_command_that_closed_its_output_is_still_stopped_at_its_timeout(jail: Jail) -> None:
    sleep = marker()
    end = timed_out(jail.run(f"echo bye; exec >/dev/null 2>&1; sleep {sleep}", 1.0))
    assert end.output.text == "bye\n" and alive_with(sleep) == []


def test_a_jailed_command_runs_at_a_lower_priority_it_cannot_raise(jail: Jail) -> None:
    code = exited(jail.run("cut -d' ' -f19 /proc/self/stat; renice -n 0 $$ >/dev/null 2>&1; echo $?", 10.0))
    assert code.output.text.split() == ["10", "1"]


def test_a_jail_whose_gg_is_gone_before_its_word_runs_nothing(jail: Jail, tmp_path: Path) -> None:
    # What a jail sees when gg dies while it is being set up: the block pipe ends (bubblewrap
    # takes that as its release) and the go pipe ends without a word.
    pipes = Pipes.holding(jail_arguments(jail.policy, jail.layout))
    process = spawn(jail.bwrap, pipes, command_arguments("touch ran"))
    os.close(pipes.go[1])
    os.close(pipes.block[1])
    assert process.wait(10.0) == 125
    assert process.stdout is not None and process.stdout.read() == b""
    process.stdout.close()
    os.close(pipes.status[0])
    assert not (tmp_path / "ws" / "ran").exists()


def test_no_jailed_process_outlives_gg_killed_mid_command(tmp_path: Path) -> None:
    workspace = workspace_in(tmp_path)
    sleep = marker()
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from gg.sandbox.jail import JailPolicy, open_jail
        jail = open_jail(JailPolicy(Path({str(workspace)!r}), 1 << 30))
        print("ready", flush=True)
        jail.run("sleep {sleep} & sleep {sleep}", 600.0)
        """
    )
    gg = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert gg.stdout is not None and gg.stdout.readline() == "ready\n"
        wait_until(lambda: len(sleeping(sleep)) == 2, "the command's two sleeps", STOPPED_WITHIN_SECS)
        os.kill(gg.pid, signal.SIGKILL)  # the command runs: gg is killed mid-`sleep`
        gg.wait(STOPPED_WITHIN_SECS)
        wait_until(lambda: alive_with(sleep) == [], "the jail to die with gg", STOPPED_WITHIN_SECS)
    finally:
        if gg.poll() is None:
            gg.kill()
            gg.wait()
