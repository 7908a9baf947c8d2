"""What a jailed command may use, on a real bubblewrap: bounded memory per process, a bounded
process count (a fork bomb is stopped and gg stays responsive), bounded files, and output read
in bounded memory however much of it there is."""

from __future__ import annotations

import resource
import threading
import time
from pathlib import Path

from jailworld import exited, jail_over, timed_out

from gg.sandbox.jail import Jail
from support.wall_bounds import STOPPED_WITHIN_SECS

MiB = 1 << 20


def test_every_command_starts_under_the_policys_limits(jail: Jail) -> None:
    text = exited(jail.run("cat /proc/self/limits", 10.0)).output.text
    limits = {line[:26].strip(): line[26:].split()[:2] for line in text.splitlines()[1:]}
    assert limits["Max address space"] == [str(1 << 30)] * 2
    assert limits["Max processes"] == ["512", "512"]
    assert limits["Max file size"] == [str(1 << 30)] * 2
    assert limits["Max core file size"] == ["0", "0"]


def test_a_process_asking_for_more_memory_than_its_bound_is_refused_it(jail: Jail) -> None:
    end = exited(jail.run("perl -e '$x = \"x\" x (1536 * 1024 * 1024); print length $x'; echo rc=$?", 30.0))
    assert "Out of memory" in end.output.text and not end.output.text.startswith("1610612736")
    end = exited(jail.run("perl -e '$x = \"x\" x (64 * 1024 * 1024); print length($x), qq(\\n)'", 30.0))
    assert end.output.text == f"{64 * MiB}\n"


def test_the_private_tmp_holds_at_most_the_memory_bound(workspace: Path) -> None:
    jail = jail_over(workspace, max_memory_bytes=32 * MiB)
    end = exited(jail.run("head -c 64M /dev/zero > /tmp/fill; echo rc=$?; du -m /tmp/fill | cut -f1", 30.0))
    assert "No space left on device" in end.output.text and end.output.text.endswith("rc=1\n32\n")


def test_a_file_past_the_size_bound_cannot_be_written(workspace: Path) -> None:
    jail = jail_over(workspace, max_file_bytes=MiB)
    end = exited(jail.run("head -c 3M /dev/zero > big; echo rc=$?", 30.0))
    assert "File size limit exceeded" in end.output.text and end.output.text.endswith("rc=153\n")
    assert (workspace / "big").stat().st_size == MiB


def test_a_fork_bomb_is_stopped_by_the_process_bound_and_gg_stays_responsive(jail: Jail) -> None:
    lateness: list[float] = []
    stop = threading.Event()

    def ticks() -> None:
        while not stop.is_set():
            start = time.monotonic()
            time.sleep(0.01)
            lateness.append(time.monotonic() - start - 0.01)

    ticker = threading.Thread(target=ticks)
    ticker.start()
    started = time.monotonic()
    try:
        end = timed_out(jail.run("bomb() { bomb | bomb & }; bomb; sleep 600", 3.0))
    finally:
        stop.set()
        ticker.join()
    assert "Cannot fork" in end.output.text
    assert time.monotonic() - started < 3.0 + STOPPED_WITHIN_SECS
    assert max(lateness) < 2.0, max(lateness)  # the host kept its pace: never held through the 3 s
    assert exited(jail.run("echo alive", 5.0)).output.text == "alive\n"


def test_a_hundred_megabytes_of_output_are_read_in_bounded_memory(jail: Jail) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    end = exited(jail.run("head -c 100000000 /dev/zero | tr '\\0' 'a'; echo; echo last line", 60.0))
    assert end.output.truncated and end.output.text == "last line\n"  # from the start of a line
    assert (end.output.dropped_bytes, end.output.dropped_lines) == (100_000_000 + len("\n"), 1)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 64 * 1024, grown_kib


def test_escape_sequences_reach_nobody(jail: Jail) -> None:
    command = r"printf '\033[31mred\033[0m \033]0;title\007\033[2J\033[H done\007\r\nnext\rover\n'"
    text = exited(jail.run(command, 10.0)).output.text
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert text == "red  done␇\nnext\nover\n"
