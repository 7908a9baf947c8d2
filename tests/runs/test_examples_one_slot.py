"""Every example `gg run` runs, replayed at `maxParallel` 1 (issue 21, item 6): a slot is held for a
turn, never for a life, so agents in line take turns in order and every run reaches its end with
the turns it takes under the example's own bound (no program stopped at its timeout while it
waited on an agent that had no slot), the same agents ending the same way."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.store import RunStore

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RUN = ["spec-audit", "review-loop", "planner", "python-api"]


def _events(base: Path, example: str, parallel: int | None) -> list[dict[str, Any]]:
    """The events of a run of `example` in a copy of its folder (at `parallel` slots when given)."""
    folder = base / example
    shutil.copytree(EXAMPLES / example, folder)
    config = folder / "gg.json"
    document = json.loads(config.read_text())
    if parallel is not None:
        document.setdefault("limits", {})["maxParallel"] = parallel
    config.write_text(json.dumps(document))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        patch.delenv("PYTHONPATH", raising=False)  # a host family is answered from the recording
        result = CliRunner().invoke(main, ["run", str(folder)])
    assert result.exit_code == 0, result.output
    store = RunStore.at(base, create=False)
    (row,) = store.list_runs()
    return store.events(row.id)


def _ends(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return sorted((e["agentId"], e["status"]) for e in events if e["type"] == "agent_finished")


def _outcomes(events: list[dict[str, Any]]) -> list[tuple[str, int, str, str | None]]:
    """Every turn's outcome, by agent and turn, with its error type when it was an error turn."""
    return sorted(
        (e["agentId"], e["turn"], e["outcome"], e.get("errorType"))
        for e in events
        if e["type"] == "turn_outcome"
    )


@pytest.mark.parametrize("example", RUN)
def test_the_example_runs_to_its_end_at_one_slot_with_the_turns_of_its_own_bound(
    tmp_path: Path, example: str
) -> None:
    one = _events(tmp_path / "one", example, 1)
    default = _events(tmp_path / "default", example, None)
    (finished,) = [e for e in one if e["type"] == "run_finished"]
    assert finished["status"] == "completed"
    assert _outcomes(one) == _outcomes(default)
    assert _ends(one) == _ends(default) and all(status == "completed" for _, status in _ends(one))
