"""Every hook run is in the record (issue 26): `gg show` prints each under its turn (those before
any turn with the run's), and the console's Activity file lists each under its turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooked import HookedProfile
from rich.console import Console
from session import program, run_session

from console.conftest import console_client
from console.recorded import SESSION_RUN, record_session
from gg.record.transcript import fold_transcript
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.terminal.show import render_transcript

pytestmark = pytest.mark.arms("javascript")

EMPTY = 'import { files } from "gg";\ntry { files.writeFile("a.txt", ""); } catch (e) {}\n'
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
PROFILE = HookedProfile(
    hooks=[{"event": "pre-write", "builtIn": "refuse-empty-write"}],
    session_hooks=[{"event": "session-start", "builtIn": "trace"}],
)


def test_gg_show_prints_each_hook_run(tmp_path: Path, arm: JavaScriptArm) -> None:
    session = run_session(tmp_path, [program(EMPTY), program(FINISH)], PROFILE, arm=arm)
    out = Console(record=True, width=200, color_system=None)
    render_transcript(fold_transcript(session.events), out)
    text = [line.strip() for line in out.export_text().splitlines()]
    blocked = next(line for line in text if line.startswith("hook pre-write"))
    path = (session.workspace / "a.txt").resolve()
    assert blocked.startswith("hook pre-write `refuse-empty-write` block (")
    assert blocked.endswith(f" ms): the write would leave {path} empty")
    assert text.index(blocked) < text.index(next(line for line in text if "turn 2" in line))
    started = next(line for line in text if line.startswith("hook session-start"))
    assert started.startswith("hook session-start `trace` message (")


def test_the_console_activity_file_lists_each_hook_run(tmp_path: Path, arm: JavaScriptArm) -> None:
    store = record_session(tmp_path, [program(EMPTY), program(FINISH)], arm, PROFILE)  # type: ignore[arg-type]
    response = console_client(store).get(f"/runs/{SESSION_RUN}/instances/root/activity")
    assert response.status_code == 200
    assert '<span class="label">hook</span> pre-write `refuse-empty-write` block (' in response.text
    assert "the write would leave " in response.text
