"""Waiting on an MCP server is off the program's clock and within the run's `maxRuntimeSecs`: a call
longer than the program's own timeout answers, and a call that would outlast the run's budget is
cut at it, where the run's time ceiling ends the run (`timed_out`), never at the server's 600 s
nor the call's 120 s."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import gg
from gg.telemetry.events import ApiResult
from with_mcp.served import STDIO_SERVER, Acting, config

pytestmark = pytest.mark.timeout(300)

PROGRAM = """import { fixture, session } from "gg";
const slow = fixture.nap(2).result;
let cut = "";
try { fixture.nap(120); } catch (e) { cut = `${e.code}: ${e.message}`; }
session.finish(`${slow} / ${cut}`);
"""


def test_a_call_is_off_the_programs_clock_and_within_the_runs_budget(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", STDIO_SERVER, timeout_secs=600)
    document["agents"][0]["capabilities"][0]["params"]["timeoutSecs"] = 1
    document["limits"]["maxRuntimeSecs"] = 20
    results: list[ApiResult] = []
    started = time.monotonic()
    result = gg.run(
        document,
        model=Acting([PROGRAM], tmp_path / "workspace"),
        store=tmp_path,
        on_event=lambda event: (
            results.append(event.payload) if isinstance(event.payload, ApiResult) else None
        ),
    )
    assert result.status == "timed_out", result.message
    naps = [answer for answer in results if answer.operation.endswith("nap")]
    assert naps[0].ok  # two seconds waited on the server, past the program's one-second ceiling
    assert len(naps) == 1 or not naps[1].ok  # the second never answered within the run's budget
    assert time.monotonic() - started < 60  # at the run's 20 s, never the call's 120 nor the server's 600
