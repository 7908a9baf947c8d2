"""A stop from outside ends any `gg` command with 128 + the signal's number, wherever it lands, and
never with Click's `Aborted!` and exit 1 or a traceback: while gg's modules import (silently), and
while a command that keeps no record works (one line naming the stop). Each test signals a real
`gg` process at a moment it waits for: a module's import reported by `-X importtime`, or the
command's connection accepted by a loopback server that never answers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"
WAIT_SECS = 60.0  # a guard against a hang


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("imported", ["gg.errors", "gg.cli.query"])  # the package's; the command line's
def test_a_signal_while_gg_imports_ends_it_silently_with_its_code(
    tmp_path: Path, signum: int, code: int, imported: str
) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    gg = subprocess.Popen(
        [sys.executable, "-X", "importtime", str(GG), "run", "sa"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert gg.stderr is not None
        seen = ""
        line = ""
        while not line.rstrip().endswith(f" {imported}"):
            line = gg.stderr.readline()
            assert line, f"gg ended before importing its commands: {seen[-2000:]}"
            seen += line
        gg.send_signal(signum)
        rest = gg.stderr.read()
        assert gg.wait(timeout=WAIT_SECS) == code, rest[-2000:]
    finally:
        if gg.poll() is None:
            gg.kill()
    assert "Traceback" not in rest and "Aborted!" not in rest


@pytest.fixture
def silent_server() -> Iterator[socket.socket]:
    """A loopback socket that accepts a connection and never says a word."""
    listening = socket.create_server(("127.0.0.1", 0))
    yield listening
    listening.close()


@pytest.mark.parametrize(
    "command", [["runs", "--store"], ["store", "copy"]], ids=["gg-runs", "gg-store-copy"]
)
def test_ctrl_c_while_a_command_works_ends_it_with_one_line_and_130(
    tmp_path: Path, silent_server: socket.socket, command: list[str]
) -> None:
    """The command waits on a PostgreSQL store whose server accepted it and never answers."""
    url = f"postgresql://gg@127.0.0.1:{silent_server.getsockname()[1]}/runs"
    arguments = [*command, url, ".gg"] if command[0] == "store" else [*command, url]
    gg = subprocess.Popen(
        [str(GG), *arguments], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        silent_server.settimeout(WAIT_SECS)
        accepted, _ = silent_server.accept()  # gg is waiting on the server now
        gg.send_signal(signal.SIGINT)
        stdout, stderr = gg.communicate(timeout=WAIT_SECS)
        accepted.close()
    finally:
        if gg.poll() is None:
            gg.kill()
    assert gg.returncode == 130, stdout + stderr
    assert stderr.strip() == "gg: interrupted." and stdout == ""


MOMENTS = Path(__file__).resolve().parent / "support" / "stop_moments"


def signalled(
    tmp_path: Path, moment: str, hooks: list[dict[str, str]] | None = None
) -> subprocess.CompletedProcess[str]:
    """A real `gg run` of the spec-audit example (with `hooks`) that signals itself at `moment`
    (`support/stop_moments/sitecustomize.py` names them)."""
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    if hooks is not None:
        document = json.loads((tmp_path / "sa" / "gg.json").read_text())
        (tmp_path / "sa" / "gg.json").write_text(json.dumps({**document, "hooks": hooks}))
    env = {**os.environ, "PYTHONPATH": str(MOMENTS), "GG_TEST_STOPS": moment}
    return subprocess.run(
        [str(GG), "run", "sa"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=WAIT_SECS
    )


def recorded(tmp_path: Path) -> dict[str, object]:
    """The one run `gg runs --json` lists."""
    listed = subprocess.run([str(GG), "runs", "--json"], cwd=tmp_path, capture_output=True, text=True)
    (row,) = json.loads(listed.stdout)["runs"]
    return row


@pytest.mark.parametrize("moment", ["recorded", "leaving"])
def test_a_stop_after_the_runs_end_is_recorded_leaves_with_the_recorded_code(
    tmp_path: Path, moment: str
) -> None:
    """A real SIGTERM sent at the moment the run's end (`completed`) is written, or while gg
    leaves after it (a Ctrl-C on its heels): gg exits 0 as its record says, never 143 or by the
    signal, and prints no traceback (a newcomer saw 143 beside `completed · exit 0`)."""
    ran = signalled(tmp_path, moment)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "Traceback" not in ran.stderr, ran.stderr
    if moment == "recorded":  # before the end line was printed: one line says what happened
        assert "had ended (completed, exit 0); its end stands" in ran.stderr, ran.stderr
    else:
        assert "completed · exit 0" in ran.stdout and ran.stderr == "", ran.stderr
    row = recorded(tmp_path)
    assert (row["status"], row["exitCode"]) == ("completed", 0)


def test_a_stop_while_the_run_closes_its_guests_is_its_recorded_end(tmp_path: Path) -> None:
    """The root has finished and the run closes its guests when a real SIGTERM comes: the run
    ends `interrupted`, exit 143, on its record as in its exit, and every turn is counted."""
    ran = signalled(tmp_path, "closing")
    assert ran.returncode == 143 and "Traceback" not in ran.stderr, ran.stdout + ran.stderr
    row = recorded(tmp_path)
    assert (row["status"], row["exitCode"], row["turns"]) == ("interrupted", 143, 5)


def test_a_sigterm_once_the_command_began_and_before_the_run_exists_ends_it_with_one_line(
    tmp_path: Path,
) -> None:
    """Between the command taking its signals over and the run existing (its line parsed, gg's
    run modules imported), a real SIGTERM ends gg with one line and 143, never by the signal (a
    newcomer's `gg run` died silently in 25 of 30 tries there)."""
    ran = signalled(tmp_path, "parsed")
    assert (ran.returncode, ran.stderr) == (143, "\ngg: interrupted by SIGTERM.\n"), ran.stdout + ran.stderr


def test_a_second_stop_while_the_first_is_handled_is_held_and_the_exit_is_the_records(
    tmp_path: Path,
) -> None:
    """Ctrl-C at the first turn's end, then SIGTERM while the run records its end: the end is
    kept as the Ctrl-C made it, and gg exits 130 as its record says (a newcomer saw 143 beside
    a recorded 130, and once a run left unfinished after gg said it was kept)."""
    ran = signalled(tmp_path, "twice")
    assert ran.returncode == 130 and "Traceback" not in ran.stderr, ran.stdout + ran.stderr
    assert "gg: interrupted. Run run-" in ran.stderr
    row = recorded(tmp_path)
    assert (row["status"], row["exitCode"]) == ("interrupted", 130)


def test_a_third_stop_leaves_at_once_saying_the_end_was_not_recorded(tmp_path: Path) -> None:
    """Two stops more while the first is handled: gg leaves at once with the first's code, and
    says the run's end was not recorded; the record does not claim one (`unfinished`)."""
    ran = signalled(tmp_path, "thrice")
    assert ran.returncode == 130, ran.stdout + ran.stderr
    assert ran.stderr.endswith("gg: interrupted again; leaving before the run's end was recorded.\n")
    row = recorded(tmp_path)
    assert (row["status"], row["exitCode"]) == ("unfinished", None)


def test_the_next_stop_cuts_the_session_end_hook_short_even_after_the_first(tmp_path: Path) -> None:
    """Ctrl-C mid-run; the `session-end` hook (five minutes' sleep, allowed ten) fires as the run
    ends; a SIGTERM then cuts it short: gg leaves, 130 and `interrupted` as the Ctrl-C made them
    (held, the SIGTERM left gg waiting on the hook past the test's guard)."""
    hook = tmp_path / "slow-hook.sh"
    hook.write_text("#!/bin/sh\nsleep 300\n")
    hook.chmod(0o755)
    declared = {"event": "session-end", "command": str(hook), "timeoutSecs": 600}
    ran = signalled(tmp_path, "hooked", [declared])
    assert ran.returncode == 130 and "Traceback" not in ran.stderr, ran.stdout + ran.stderr
    row = recorded(tmp_path)
    assert (row["status"], row["exitCode"]) == ("interrupted", 130)


def test_a_sigterm_while_replay_verify_plays_ends_it_with_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    """`gg replay --verify` stopped while it plays the run again: one line, 143, and neither its
    copy of the workspace nor a guest's folder left in the temporary folder (a newcomer's died
    by the signal and left both)."""
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    kept = subprocess.run(
        [str(GG), "run", "sa", "--record", "rec.jsonl"], cwd=tmp_path, capture_output=True, text=True
    )
    assert kept.returncode == 0, kept.stdout + kept.stderr
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "PYTHONPATH": str(MOMENTS), "GG_TEST_STOPS": "playing", "TMPDIR": str(scratch)}
    ran = subprocess.run(
        [str(GG), "replay", "--verify", "latest"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT_SECS,
    )
    assert (ran.returncode, ran.stderr) == (143, "\ngg: interrupted by SIGTERM.\n"), ran.stdout + ran.stderr
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("command", [["runs"], ["check", "sa"]], ids=["gg-runs", "gg-check"])
def test_a_stop_once_a_command_is_done_leaves_with_its_code(tmp_path: Path, command: list[str]) -> None:
    """A real SIGTERM at the interpreter's last steps, the command's output printed: gg exits with
    the command's own code, never by the signal nor with a traceback (a newcomer's `gg show`,
    `gg runs` and `gg check` died by it there)."""
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    env = {**os.environ, "PYTHONPATH": str(MOMENTS), "GG_TEST_STOPS": "exiting"}
    ran = subprocess.run([str(GG), *command], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stdout + ran.stderr


def test_a_stop_while_a_study_starts_its_workers_leaves_no_folder(tmp_path: Path) -> None:
    """A real SIGTERM as the driver starts its second worker: one line naming the stop, 143, and
    nothing in the temporary folder (the first worker, started but not yet in the pool, kept its
    folder before)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "PYTHONPATH": str(MOMENTS), "GG_TEST_STOPS": "workers", "TMPDIR": str(scratch)}
    study = Path(__file__).resolve().parents[1] / "examples" / "study-arms"
    ran = subprocess.run(
        [str(GG), "study", "run", str(study), "--parallel", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT_SECS,
    )
    assert ran.returncode == 143 and "Traceback" not in ran.stderr, ran.stdout + ran.stderr
    assert list(scratch.iterdir()) == []
