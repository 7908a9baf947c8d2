import json
from dataclasses import replace
from datetime import UTC
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from gg.cli import main
from gg.record.store import RunStore
from gg.record.transcript import fold_transcript
from gg.telemetry.emitter import CollectingSink
from gg.terminal.runs import render_runs
from gg.terminal.show import render_transcript

from .sample import RUN_ID, emit_sample_run, spawn_tree


def console() -> Console:
    return Console(record=True, width=100, color_system=None)


def shown(*, finish: bool = True, full: bool = False) -> str:
    sink = CollectingSink()
    emit_sample_run([sink], finish=finish)
    out = console()
    render_transcript(fold_transcript(sink.wire()), out, full=full)
    return out.export_text()


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_the_transcript_opens_each_turn_with_a_rule() -> None:
    text = lines(shown())
    assert text[0] == f"run {RUN_ID}  spec-audit · gpt-test · javascript"
    assert [line.split(" ─")[0] for line in text if line.startswith("turn ")] == [
        "turn 1",
        "turn 2",
        "turn 3",
    ]


def test_each_program_is_shown_with_line_numbers_after_its_call_and_before_its_verdict() -> None:
    text = lines(shown())
    at = text.index("↳ submit_program call_1 · receipt program k3p9")
    assert text[at + 1 : at + 5] == [
        '  1 import { files } from "gg";',
        '  2 const spec = files.read_file("SPEC.md");',
        "  3 console.log(spec.length);",
        "✓ program k3p9 ran in 12 ms — 1 call",
    ]


def test_a_failed_program_shows_its_type_location_error_and_failed_calls() -> None:
    text = shown()
    assert "✗ program m2x8: program_api_error at program.js:2:7 — `edit_file` failed (conflict)" in text
    assert "  ✗ files.edit_file: conflict" in text
    assert "→ error: program_api_error" in text


def test_the_system_prompt_is_cut_to_its_first_line_unless_full() -> None:
    assert "│ You answer with programs.  … (2 more lines)" in shown()
    assert "│ Use the gg SDK." not in shown()
    assert "│ Use the gg SDK." in shown(full=True)


def test_feedback_the_model_read_is_quoted_in_the_turn_that_read_it() -> None:
    text = lines(shown())
    turn_three = text[next(i for i, line in enumerate(text) if line.startswith("turn 3")) :]
    assert turn_three[1:4] == ["user:", "│ Runtime error", "│ ----"]


def test_echoes_of_the_previous_reply_are_not_shown_twice() -> None:
    text = shown()
    assert text.count("Reading the spec first.") == 1
    assert "assistant:" not in text


def test_operator_logs_and_program_logs_are_shown() -> None:
    text = shown()
    assert "  warn guest was slow ms=900" in text
    assert "  log 4096" in text


def test_the_end_shows_status_totals_and_final_text() -> None:
    text = lines(shown())
    end = text[-3:]
    assert end[0] == (
        "completed · exit 0 · 3 turns · 4.5 s · 4,100 in / 180 out tokens · 3 programs (1 failed)"
    )
    assert end[1:] == ["final text:", "│ Audit done: 2 issues."]


def test_an_unfinished_run_says_so() -> None:
    text = shown(finish=False)
    assert "feedback (never read):" in text
    assert lines(text)[-1].startswith("unfinished · 2 turns")


def test_run_text_is_never_read_as_markup() -> None:
    sink = CollectingSink()
    emit_sample_run([sink])
    records = [
        {**r, "text": "[bold]not markup[/bold]"} if r["type"] == "model_reply" else r for r in sink.wire()
    ]
    out = console()
    render_transcript(fold_transcript(records), out)
    assert "[bold]not markup[/bold]" in out.export_text()


def test_the_runs_table_shows_arm_model_turns_tokens_cost_and_errors(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store])
    out = console()
    render_runs(store.listed(store.list_runs()), out, tz=UTC)
    header, row = lines(out.export_text())
    assert header.split() == [
        "run",
        "name",
        "status",
        "arm",
        "model",
        "turns",
        "tokens",
        "in/out",
        "cost",
        "errors",
        "duration",
        "started",
    ]
    assert row.split() == [
        RUN_ID,
        "spec-audit",
        "completed",
        "javascript",
        "gpt-test",
        "3",
        "4.1k/180",
        "—",
        "1",
        "4.5",
        "s",
        "2026-11-29",
        "20:32:33",
    ]


def test_the_runs_table_names_the_roots_model_and_how_many_others_answered_the_tree(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    spawn_tree(emit_sample_run([store]), "gpt-test", "anthropic:claude-x", "gpt-test", "openai:gpt-5")
    out = console()
    render_runs(store.listed(store.list_runs()), out, tz=UTC)
    _, row = lines(out.export_text())
    assert row.split()[3:6] == ["javascript", "gpt-test", "+2"]


def test_the_runs_table_is_never_cut_short_on_a_narrow_console(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store])
    out = Console(record=True, width=40, color_system=None)
    render_runs(store.listed(store.list_runs()), out, tz=UTC)
    text = out.export_text()
    assert RUN_ID in text and "…" not in text


def test_a_cost_some_replies_lack_is_shown_as_a_lower_bound(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store])
    (listed,) = store.listed(store.list_runs())
    out = console()
    render_runs([replace(listed, tally=replace(listed.tally, cost_usd=0.0123, unpriced=1))], out, tz=UTC)
    assert "≥$0.0123" in out.export_text()
    out = console()
    render_runs([replace(listed, tally=replace(listed.tally, cost_usd=0.0123, unpriced=0))], out, tz=UTC)
    text = out.export_text()
    assert " $0.0123" in text and "≥" not in text


def test_a_run_whose_process_is_gone_without_an_end_is_listed_as_unfinished(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store], finish=False)
    row = store.find_run(RUN_ID)
    gone = store.listed([row, replace(row, id="run-alive")], alive=lambda pid: False)
    assert [run.status for run in gone] == ["unfinished", "unfinished"]
    out = console()
    render_runs(gone, out, tz=UTC)
    assert "unfinished" in out.export_text()
    out = console()
    render_runs(store.listed([row], alive=lambda pid: True), out, tz=UTC)
    assert "running" in out.export_text()


def test_an_empty_store_lists_no_runs() -> None:
    out = console()
    render_runs([], out)
    assert out.export_text().strip() == "no runs yet"


def test_a_runs_name_and_model_are_never_read_as_markup(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store])
    (listed,) = store.listed(store.list_runs())
    row = replace(listed.row, name="[bold]audit[/bold]", model="[red]m[/red]")
    out = console()
    render_runs([replace(listed, row=row)], out, tz=UTC)
    text = out.export_text()
    assert "[bold]audit[/bold]" in text and "[red]m[/red]" in text


def test_the_runs_table_prints_no_control_or_bidi_character_a_run_recorded(tmp_path: Path) -> None:
    store = RunStore.at(tmp_path)
    emit_sample_run([store])
    (listed,) = store.listed(store.list_runs())
    row = replace(listed.row, name="audit\u202egnp.exe\x1b[2J", model="m\x85\u2066")
    out = console()
    render_runs([replace(listed, row=row)], out, tz=UTC)
    text = out.export_text()
    assert not {"\u202e", "\x1b", "\x85", "\u2066"} & set(text)
    assert "audit\ufffdgnp.exe\u241b[2J" in text and "m\ufffd\ufffd" in text


def test_a_program_of_one_megabyte_line_is_shown_cut_so_showing_it_costs_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wrapping one line costs the square of its length: the line is cut at 2,000 characters
    before it is wrapped, and the whole program stays in `--json`."""
    (tmp_path / "workspace").mkdir()
    config = {
        "name": "big-program",
        "workspace": "workspace",
        "agents": [
            {
                "slug": "root",
                "task": "t",
                "model": {"provider": "replay", "journal": "j.jsonl"},
                "capabilities": [{"id": "responses-as-code", "params": {"language": "javascript"}}],
            }
        ],
    }
    (tmp_path / "gg.json").write_text(json.dumps(config))
    program = 'import { session } from "gg";\n// ' + "x" * 1_000_000 + '\nsession.finish("ok");'
    reply = {"text": "x", "calls": [{"name": "submit_program", "arguments": {"program": program}}]}
    (tmp_path / "j.jsonl").write_text(json.dumps(reply) + "\n")
    monkeypatch.chdir(tmp_path)
    ran = CliRunner().invoke(main, ["run", "."])
    assert ran.exit_code == 0, ran.output
    shown = CliRunner().invoke(main, ["show", "latest"], terminal_width=100)
    assert shown.exit_code == 0, shown.output
    assert len(shown.output) < 20_000  # the line's first 2,000 characters, never its million
    marker = "… (+998,003 characters; gg show --json holds the whole program)"
    assert "".join(marker.split()) in "".join(shown.output.split())  # wrapped where the width says
    as_json = CliRunner().invoke(main, ["show", "latest", "--json"])
    assert "x" * 1_000_000 in as_json.output
