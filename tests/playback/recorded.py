"""Runs of the examples recorded in a test's folder (`gg run --record`), the record they keep, and
`gg replay --verify` asked of them: the command line, in process."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gg.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def gg(base: Path, *argv: str) -> Result:
    """`gg ARGV` run in the folder `base`, with no `PYTHONPATH` (a host family is answered from its
    recording, an MCP server is never started)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        patch.delenv("PYTHONPATH", raising=False)
        return CliRunner().invoke(main, list(argv))


def recorded(base: Path, example: str, *, record: bool = True) -> str:
    """Run a copy of `example` in `base` (recorded, unless told not to) and return its run id."""
    folder = base / example
    shutil.copytree(EXAMPLES / example, folder)
    argv = ["run", str(folder), *(["--record", str(base / f"{example}.jsonl")] if record else [])]
    ran = gg(base, *argv)
    assert ran.exit_code == 0, ran.output
    return only_run(base)


def only_run(base: Path) -> str:
    with sqlite3.connect(base / ".gg" / "runs.db") as db:
        (row,) = db.execute("SELECT id FROM runs ORDER BY started_at DESC LIMIT 1").fetchall()
    return str(row[0])


def events(base: Path, run_id: str, kind: str) -> list[tuple[int, dict[str, Any]]]:
    """The stored events of one type, with their place in the run."""
    with sqlite3.connect(base / ".gg" / "runs.db") as db:
        rows = db.execute(
            "SELECT seq, json FROM events WHERE run_id = ? AND type = ? ORDER BY seq", (run_id, kind)
        ).fetchall()
    return [(int(seq), json.loads(text)) for seq, text in rows]


def rewrite(base: Path, run_id: str, seq: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Change one stored event of the run's record in place."""
    with sqlite3.connect(base / ".gg" / "runs.db") as db:
        (text,) = db.execute("SELECT json FROM events WHERE run_id = ? AND seq = ?", (run_id, seq)).fetchone()
        event = json.loads(text)
        change(event)
        db.execute(
            "UPDATE events SET json = ? WHERE run_id = ? AND seq = ?", (json.dumps(event), run_id, seq)
        )
