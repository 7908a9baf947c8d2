import io

from rich.console import Console

from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import Log
from gg.terminal.display import LiveDisplay

from .sample import RUN_ID, StepClock, emit_sample_run


def live(*, verbose: bool = False, finish: bool = True) -> list[str]:
    out = Console(record=True, width=100, color_system=None)
    emit_sample_run([LiveDisplay(out, verbose=verbose)], finish=finish)
    return [line.rstrip() for line in out.export_text().splitlines()]


def test_the_live_display_prints_a_line_per_turn_receipt_program_and_outcome() -> None:
    text = live()
    assert text[0] == f"gg · spec-audit · gpt-test · javascript · run {RUN_ID}"
    assert text[1:6] == [
        "turn 1",
        "  Reading the spec first.",
        "  ↳ receipt call_1: program k3p9",
        "  ✓ program k3p9 ran in 12 ms — 1 call",
        "  → progressed",
    ]


def test_a_failed_program_line_names_its_type_location_and_the_first_line_of_its_error() -> None:
    assert (
        "  ✗ program m2x8: program_api_error at program.js:2:7 — "
        "`edit_file` failed (conflict): `oldString` matched 3 times in SPEC.md"
    ) in live()
    assert "  → error: program_api_error — its last program threw" in live()


def test_warn_logs_are_shown_and_info_logs_only_when_verbose() -> None:
    assert "  ! warn guest was slow ms=900" in live()
    assert not any("program recorded" in line for line in live())
    assert "  ! info program recorded programId=k3p9" in live(verbose=True)


def test_the_end_shows_status_final_text_run_id_and_how_to_see_it_all() -> None:
    assert live()[-4:] == [
        "",
        "completed · exit 0 · 3 turns · 4.5 s",
        "  │ Audit done: 2 issues.",
        f"run {RUN_ID} — see it all with: gg show {RUN_ID}",
    ]


def test_a_turn_line_names_an_agent_other_than_the_root() -> None:
    out = Console(record=True, width=100, color_system=None)
    Telemetry(RUN_ID, [LiveDisplay(out)], clock=StepClock()).emit(
        "worker-1", 2, Log(level="warn", message="hm")
    )
    assert out.export_text().splitlines()[0] == "worker-1 · turn 2"


def test_without_a_terminal_the_display_writes_plain_lines_without_escape_codes() -> None:
    stream = io.StringIO()
    emit_sample_run([LiveDisplay(Console(file=stream, width=100))])
    text = stream.getvalue()
    assert "\x1b[" not in text
    assert "  ✓ program k3p9 ran in 12 ms — 1 call\n" in text


def test_a_console_that_cannot_encode_the_marks_gets_ascii() -> None:
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    emit_sample_run([LiveDisplay(Console(file=stream, width=100))])
    stream.seek(0)
    text = stream.read()
    assert "  + program k3p9 ran in 12 ms -- 1 call" in text
    assert "  x program m2x8: program_api_error at program.js:2:7 -- " in text


def test_escape_sequences_from_a_run_never_reach_the_terminal() -> None:
    from gg.wire import terminal_safe

    record = {"finalText": "done \x1b[1;32m✓\x1b[0m\rFAKE\n  │ injected", "logs": ["\x1b]0;TITLE\x07"]}
    safe = terminal_safe(record)
    assert "\x1b" not in safe["finalText"] and "\r" not in safe["finalText"] and "\x07" not in safe["logs"][0]
    assert safe["finalText"].count("\n") == 1 and "\u241b[1;32m" in safe["finalText"]


def test_a_programs_live_lines_are_shown_when_verbose_the_dropped_note_first() -> None:
    from gg.telemetry.events import ProgramLog

    for verbose in (False, True):
        out = Console(record=True, width=100, color_system=None)
        telemetry = Telemetry(RUN_ID, [LiveDisplay(out, verbose=verbose)], clock=StepClock())
        telemetry.emit("root", 1, ProgramLog(lines=["first"]))
        telemetry.emit("root", 1, ProgramLog(lines=["later", "last"], dropped=3))
        shown = [line.rstrip() for line in out.export_text().splitlines()]
        expected = ["turn 1", "  log first", "  (3 log lines dropped)", "  log later", "  log last"]
        assert shown == (expected if verbose else ["turn 1"])
