"""A study ablates by laying `disabledOperations` over its base: the ablated config's cell runs
with the operation withheld (its record says so, its program's call is refused `unavailable`, its
check fails), while the base's cell of the same task and journal solves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.record.store import RunStore
from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.runner import run_study

from .studies import arms_study

pytestmark = pytest.mark.timeout(600)  # a whole study of real runs, on a shared machine

CONFIGS = """
[configs.javascript]

[configs.no-write]
[[configs.no-write.agents]]
slug = "root"
disabledOperations = ["files.write_file"]
"""
JOURNALS = """
[tasks.word-count.journals]
javascript = "tasks/word-count/javascript.jsonl"
no-write = "tasks/word-count/javascript.jsonl"
"""


def test_a_cell_of_a_config_laying_disabled_operations_over_the_base_runs_with_them_withheld(
    tmp_path: Path,
) -> None:
    study_file = arms_study(
        tmp_path / "study", repeats=1, tasks=("word-count",), configs=CONFIGS, journals=False
    )
    study_file.write_text(study_file.read_text() + JOURNALS)
    end = run_study(load_study(study_file), LocalPool(1), tmp_path, QuietProgress())
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        cells = {row.config: row for row in ledger.cells(end.study_id)}
    assert (cells["javascript"].verdict, cells["no-write"].verdict) == ("solved", "missing-file")
    store = RunStore.at(tmp_path, create=False)
    try:
        spawned = {
            config: next(e for e in store.events(row.run_id) if e["type"] == "agent_spawned")
            for config, row in cells.items()
        }
        refused = [
            e["error"]
            for e in store.events(cells["no-write"].run_id)
            if e["type"] == "code_execution" and not e["ok"]
        ]
    finally:
        store.close()
    assert spawned["javascript"]["withheld"] == [] and "files.write_file" in spawned["javascript"]["offered"]
    assert spawned["no-write"]["withheld"] == ["files.write_file"]
    assert "files.write_file" not in spawned["no-write"]["offered"]
    assert any(
        "`gg.files.writeFile` is not available: this agent's profile withholds it" in e for e in refused
    )
