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


SIGNAL_AT = """
import gc, os, signal
from gg.agents import context
from gg.telemetry import store

MOMENT = os.environ["GG_TEST_SIGTERM_AT"]
writing = store.StoreWriter.write


def write(self, event):
    writing(self, event)
    if event.type.value == "run_finished" and MOMENT == "recorded":
        os.kill(os.getpid(), signal.SIGTERM)


freezing = gc.freeze


def freeze():
    if MOMENT == "leaving":
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
    freezing()


closing = context.RunContext.close


def close(self):
    if MOMENT == "closing":
        os.kill(os.getpid(), signal.SIGTERM)
    closing(self)


store.StoreWriter.write = write
gc.freeze = freeze
context.RunContext.close = close
"""


@pytest.mark.parametrize("moment", ["recorded", "leaving"])
def test_a_stop_after_the_runs_end_is_recorded_leaves_with_the_recorded_code(
    tmp_path: Path, moment: str
) -> None:
    """A real SIGTERM sent at the moment the run's end (`completed`) is written, or while gg
    leaves after it (a Ctrl-C on its heels): gg exits 0 as its record says, never 143 or by the
    signal, and prints no traceback (a newcomer saw 143 beside `completed · exit 0`)."""
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(SIGNAL_AT)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "hook"), "GG_TEST_SIGTERM_AT": moment}
    ran = subprocess.run(
        [str(GG), "run", "sa"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=WAIT_SECS
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "Traceback" not in ran.stderr, ran.stderr
    if moment == "recorded":  # before the end line was printed: one line says what happened
        assert "had ended (completed, exit 0); its end stands" in ran.stderr, ran.stderr
    else:
        assert "completed · exit 0" in ran.stdout and ran.stderr == "", ran.stderr
    listed = subprocess.run([str(GG), "runs", "--json"], cwd=tmp_path, capture_output=True, text=True)
    (row,) = json.loads(listed.stdout)["runs"]
    assert (row["status"], row["exitCode"]) == ("completed", 0)


def test_a_stop_while_the_run_closes_its_guests_is_its_recorded_end(tmp_path: Path) -> None:
    """The root has finished and the run closes its guests when a real SIGTERM comes: the run
    ends `interrupted`, exit 143, on its record as in its exit, and every turn is counted."""
    shutil.copytree(EXAMPLE, tmp_path / "sa", ignore=shutil.ignore_patterns("report.md"))
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(SIGNAL_AT)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "hook"), "GG_TEST_SIGTERM_AT": "closing"}
    ran = subprocess.run(
        [str(GG), "run", "sa"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=WAIT_SECS
    )
    assert ran.returncode == 143 and "Traceback" not in ran.stderr, ran.stdout + ran.stderr
    listed = subprocess.run([str(GG), "runs", "--json"], cwd=tmp_path, capture_output=True, text=True)
    (row,) = json.loads(listed.stdout)["runs"]
    assert (row["status"], row["exitCode"], row["turns"]) == ("interrupted", 143, 5)
