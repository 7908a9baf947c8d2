"""Every guest process dies with gg: a real `gg run` on each arm, stopped by `kill -9` or SIGTERM
while its program spins, leaves no process of its own alive a second later (the Deno pool, the
TypeScript checker, the Python worker and its engine, and gg's sentinel itself), and no guest's
private folder in the temporary folder (after `kill -9`, the sentinel removes them)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

JS_RUNAWAY = 'import { files } from "gg";\nfiles.writeFile("spinning.txt", "yes");\nfor (;;) {}\n'
PY_RUNAWAY = 'from gg import files\nfiles.write_file("spinning.txt", "yes")\nwhile True:\n    pass\n'
RUNAWAYS = {
    "javascript": JS_RUNAWAY,
    "typescript": JS_RUNAWAY,
    "python": PY_RUNAWAY,
    "python-typed": PY_RUNAWAY,
}
START_SECS = 120.0  # gg, its guests and the program's first call, on a loaded machine
GONE_SECS = 1.0


def _config(root: Path, language: str) -> Path:
    (root / "workspace").mkdir()
    reply = {"text": "", "calls": [{"name": "submit_program", "arguments": {"program": RUNAWAYS[language]}}]}
    (root / "journal.jsonl").write_text(json.dumps(reply) + "\n")
    params = {"language": language, "timeoutSecs": 3600, "maxMemoryBytes": 268435456}
    agent = {
        "slug": "root",
        "role": "standard",
        "task": "spin",
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [{"id": "responses-as-code", "params": params}],
    }
    config = {"name": "lifetime", "workspace": "workspace", "limits": {"maxTurns": 2}, "agents": [agent]}
    (root / "gg.json").write_text(json.dumps(config))
    return root / "gg.json"


def _identity(pid: int) -> tuple[int, str] | None:
    """A process as (pid, start time), or None once it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return None if fields[0] in {"Z", "X"} else (pid, fields[19])


def _descendants(pid: int) -> set[tuple[int, str]]:
    found: set[tuple[int, str]] = set()
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                children = [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
            for child in children:
                identity = _identity(child)
                if identity is not None:
                    found.add(identity)
                    pending.append(child)
    return found


def _still_alive(processes: set[tuple[int, str]]) -> set[tuple[int, str]]:
    return {process for process in processes if _identity(process[0]) == process}


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
@pytest.mark.parametrize("language", list(RUNAWAYS))
def test_no_guest_outlives_gg_stopped_mid_runaway(
    tmp_path: Path, language: str, stop: signal.Signals
) -> None:
    config = _config(tmp_path, language)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    gg = subprocess.Popen(
        [sys.executable, "-c", "from gg.cli import main; main()", "run", str(config)],
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        started = time.monotonic()
        while not (tmp_path / "workspace" / "spinning.txt").exists():
            assert gg.poll() is None, "gg ended before its program spun"
            assert time.monotonic() - started < START_SECS
            time.sleep(0.05)
        guests = _descendants(gg.pid)
        assert guests, "the runaway runs in a guest process of gg's"
        os.kill(gg.pid, stop)
        gg.wait(timeout=30)
        deadline = time.monotonic() + GONE_SECS
        while (_still_alive(guests) or any(scratch.iterdir())) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _still_alive(guests) == set()
        assert list(scratch.iterdir()) == []
    finally:
        if gg.poll() is None:
            gg.kill()
            gg.wait()
