"""How a run of many agents reads on the terminal: `gg show` prints the agent tree, then each
agent's turns under its own heading; the live display starts every line of an agent other than
the root with its id, so agents taking turns at once stay legible."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from crew import EXEC, line, profile, run_crew, subagents
from rich.console import Console

from gg.record.transcript import fold_transcript
from gg.sandbox.execution import Arm
from gg.terminal.display import LiveDisplay
from gg.terminal.show import render_transcript

pytestmark = pytest.mark.arms("javascript")

ROOT = """import { delegation } from "gg";
const child = delegation.spawnSubagent({ agent: "worker", prompt: "count the bolts" });
delegation.waitForSubagents([child.id]);
delegation.exec("closer", "wrap it up");
"""
DONE = 'import { session } from "gg";\nsession.finish("{text}");\n'


@dataclass
class Shown:
    events: list[dict[str, object]]
    live: list[str]


@pytest.fixture
def shown(tmp_path: Path, arm: Arm) -> Shown:
    live = Console(record=True, width=120, color_system=None)
    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(), EXEC, roster=["worker", "closer"]),
            profile("worker"),
            profile("closer"),
        ],
        [
            line(ROOT),
            line(DONE.replace("{text}", "41 bolts"), profile="worker"),
            line(DONE.replace("{text}", "wrapped"), profile="closer"),
        ],
        arm=arm,
        task="Count the bolts.",
        sinks=[LiveDisplay(live)],
    )
    return Shown(crew.events, _lines(live))


def _lines(console: Console) -> list[str]:
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_gg_show_prints_the_agent_tree_then_each_agents_turns(shown: Shown) -> None:
    out = Console(record=True, width=120, color_system=None)
    render_transcript(fold_transcript(shown.events), out)
    text = _lines(out)
    tree = text[text.index("agents:") + 1 : text.index("agents:") + 4]
    assert tree == [
        "  root · root · root · depth 0 · handed over — Count the bolts.",
        "    root@2 · closer · exec · depth 0 · completed — wrapped",
        "    root.1 · worker · subagent · depth 1 · completed — 41 bolts",
    ]
    headings = [line.split(" ═")[0] for line in text if line.startswith("agent ")]
    assert headings == ["agent root · root", "agent root@2 · closer", "agent root.1 · worker"]


def test_the_live_display_prefixes_every_line_of_an_agent_other_than_the_root(shown: Shown) -> None:
    child = [line for line in shown.live if line.startswith("root.1 · ")]
    assert child[:2] == ["root.1 · started by root: worker, depth 1 — count the bolts", "root.1 · turn 1"]
    assert "root.1 · finished: completed — 41 bolts" in child
    assert not any("41 bolts" in line and not line.startswith("root.1 · ") for line in shown.live)
    assert "exec → root@2 (closer)" in shown.live
    assert "root@2 · took over from root: closer, depth 0 — wrap it up" in shown.live
    assert "root@2 · turn 2" in shown.live
