"""Waiting on an MCP server is off the program's clock and within the run's `maxRuntimeSecs`: a call
longer than the program's own timeout answers, and a call that would outlast the run's budget is
cut at it (`limit-exceeded`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gg
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
    result = gg.run(document, model=Acting([PROGRAM], tmp_path / "workspace"), store=tmp_path)
    assert result.status == "completed", result.message
    slow, cut = (result.final_text or "").split(" / ")
    assert slow == "awake"  # two seconds waited on the server, past the program's one-second ceiling
    found = re.fullmatch(
        r"limit-exceeded: the MCP server `fixture` did not answer within ([0-9.]+) s; the call was cancelled",
        cut,
    )
    assert found is not None, cut
    assert float(found.group(1)) < 20  # what was left of the run's 20 s, not the server's 600
