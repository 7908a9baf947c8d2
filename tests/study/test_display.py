"""A study's cells on the terminal: each cell's check output is shown as text (never read as
markup, control characters pictured), its first line cut to 60 characters, then how many lines
more; the whole output stays in `--json`."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from gg.cli import main
from gg.study.display import render_cells
from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.runner import run_study

from .studies import arms_study

pytestmark = pytest.mark.timeout(600)  # a whole study of real runs, on a shared machine

LOUD = """printf '[bold red]loud[/bold red] \\007'
printf 'x%.0s' $(seq 80)
printf '\\nsecond\\n\\nthird\\n'
exit 1
"""


def test_a_cells_check_output_is_shown_as_bounded_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",), check='sh "$GG_STUDY_DIR/loud.sh"')
    (file.parent / "loud.sh").write_text(LOUD)
    end = run_study(load_study(file), LocalPool(1), tmp_path, QuietProgress())
    with Ledger(tmp_path / ".gg" / "runs.db") as ledger:
        cells = ledger.cells(end.study_id)
    terminal = io.StringIO()
    render_cells(cells, Console(file=terminal, width=300, highlight=False))
    first = "[bold red]loud[/bold red] \N{SYMBOL FOR BELL}" + "x" * 80
    said = [line.split("│")[-1].strip() for line in terminal.getvalue().splitlines() if "│" in line]
    assert said == [first[:59] + "… (+2 lines)"] * 2
    assert "\x07" not in terminal.getvalue()
    monkeypatch.chdir(tmp_path)
    as_json = CliRunner().invoke(main, ["study", "show", end.study_id, "--cells", "--json"])
    assert [record["checkDetail"] for record in json.loads(as_json.output)["cells"]] == [
        f"{first}\nsecond\n\nthird\n"
    ] * 2


def test_nothing_a_study_recorded_reaches_the_terminal_raw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store written elsewhere (an older gg, a copy) may hold any text: list and show picture it."""
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    end = run_study(load_study(file), LocalPool(1), tmp_path, QuietProgress())
    raw = "arms\u202e\x1b[31m\nFAKE LINE [bold]x[/bold]"
    with sqlite3.connect(tmp_path / ".gg" / "runs.db") as db:
        db.execute("UPDATE studies SET name = ?, model = ? WHERE id = ?", (raw, raw, end.study_id))
        db.execute("UPDATE study_cells SET status = ? WHERE study_id = ?", (raw, end.study_id))
    monkeypatch.chdir(tmp_path)
    for command in (["list"], ["show", "latest"], ["show", "latest", "--cells"]):
        said = CliRunner().invoke(main, ["study", *command]).output
        assert "\x1b" not in said and "\u202e" not in said and "FAKE LINE" in said, command
        joined = said.replace("\n", "")
        assert "arms\ufffd\N{SYMBOL FOR ESCAPE}[31m\N{SYMBOL FOR LINE FEED}FAKE" in joined, command
        assert "[bold]x[/bold]" in joined, command  # shown, never read as markup
