"""The mcp-notes example replays offline through the command line: its journal holds the notes
server's declaration and every answer it gave, so the session runs to its end with the server's
script gone and no MCP SDK on the path the server would need."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mcp-notes"


def test_the_example_replays_offline_with_no_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "mcp-notes"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    (copy / "server.py").unlink()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    runner = CliRunner()
    ran = runner.invoke(main, ["run", str(copy), "-v"])
    assert ran.exit_code == 0, ran.output
    assert "answered from the recording: notes" in ran.output
    assert (
        "kept as note 5. Asking for note 99: other: Error executing tool read-note: no note has the id 99"
        in (ran.output)
    )
    report = (copy / "workspace" / "report.md").read_text()
    assert report.startswith("# Release 2.4\n\n## Release 2.4 scope\nShip the importer and the new search.")
    shown = runner.invoke(main, ["show", "latest"])
    assert "the last one this run saw had the shape `string`" in shown.output
