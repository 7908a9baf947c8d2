"""The review-loop example, replayed offline through the command line: the author writes a change,
a reviewer asks for changes, the author makes them, a second reviewer approves. Both reviewers
replay the one reviewer script and judge the module as it stands, so their verdicts differ."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.store import RunStore

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "review-loop"


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "review-loop"
    shutil.copytree(EXAMPLE, copy)
    monkeypatch.chdir(tmp_path)
    return copy


def test_the_review_loop_replays_offline_to_an_approved_change(example: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(example)])
    assert result.exit_code == 0, result.output
    assert "root.1 · finished: completed — Changes requested:" in result.output
    assert "root.2 · finished: completed — Approved." in result.output
    source = (example / "workspace" / "src" / "restock.js").read_text()
    assert "items.map((item) => ({ ...item, count: item.count + n }))" in source
    assert "RangeError" in source and "item.count += n" not in source
    assert "restock" not in (example / "workspace" / "src" / "stock.js").read_text()  # the example's own file
    assert runner.invoke(main, ["run", str(example)]).exit_code == 0  # a second run replays the same
    assert (example / "workspace" / "src" / "restock.js").read_text() == source
    store = RunStore.at(example.parent, create=False)
    run, _ = store.list_runs()
    events = store.events(run.id)
    finished = {e["agentId"]: e for e in events if e["type"] == "agent_finished"}
    assert finished["root.1"]["summary"].count("\n") == 2  # two changes asked for
    assert finished["root.2"]["summary"] == "Approved."
    spawned = [(e["agentId"], e["profileId"], e["depth"]) for e in events if e["type"] == "agent_spawned"]
    assert spawned == [("root", "root", 0), ("root.1", "reviewer", 1), ("root.2", "reviewer", 1)]
    shown = runner.invoke(main, ["show", "latest"])
    assert shown.exit_code == 0
    assert "root.1 · reviewer · subagent · depth 1 · completed" in shown.output
    assert "agent root.2 · reviewer" in shown.output


def test_the_review_loop_checks_clean(example: Path) -> None:
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 0, checked.output
    assert "reviewer (review, javascript, replay journal.jsonl)" in checked.output
