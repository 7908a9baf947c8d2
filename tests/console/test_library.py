"""Each agent's programs and library, folded from the run gg recorded and from small streams."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from console.scenario import Recorder
from gg.console.library import fold_programs, held_after, library_figures, taken_over
from gg.console.source import RunSource


def example_records(store: Path):
    source = RunSource(store)
    (row,) = source.list_runs()
    return source.events(row.id)


def test_every_program_of_the_example_is_kept_with_its_verdict(example_store: Path):
    book = fold_programs(example_records(example_store))["root"]
    assert [(e.turn, e.ok) for e in book.kept()] == [(1, True), (2, False), (3, True), (4, True), (5, True)]
    failed = book.kept()[1]
    assert failed.error is not None and failed.error.startswith(
        "TypeError: Cannot read properties of undefined"
    )
    figures = library_figures(book)
    assert (figures.kept, figures.failed, figures.dropped) == (5, 1, 0)
    assert [(g.turn, g.size) for g in book.grew] == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]


def test_a_fetched_patched_hand_over_diffs_the_failed_source_against_the_one_that_ran(example_store: Path):
    records = example_records(example_store)
    book = fold_programs(records)["root"]
    handed = next(p for p in book.programs if p.handover)
    assert handed.turn == 3 and handed.handover is not None
    failed = book.programs[1]
    assert handed.handover.fetched_id == failed.program_id
    assert handed.handover.links == 2
    assert "programs.rerun(" in handed.handover.submitted  # the first link, as submitted
    first, last = handed.handover.chain  # every link with its own source and verdict
    assert "programs.rerun(" in first.source and first.ok
    assert last.source == handed.source and "read.contents.includes" in last.source
    assert "programs.rerun(" not in handed.source  # the last link, as it ran
    changed = [line for line in handed.handover.diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert changed == [
        '-  if (!read.content.includes("## Rules")) missing.push(name);',
        '+  if (!read.contents.includes("## Rules")) missing.push(name);',
    ]
    with sqlite3.connect(example_store) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM events WHERE type = 'code_execution'").fetchone()
    assert len(book.programs) == count


def test_a_dropped_program_leaves_the_library_and_is_remembered_as_dropped():
    r = Recorder()
    for turn in (1, 2, 3):
        r.turn("root", turn, f"turn {turn}")
    r.emit("program_dropped", "root", 3, programId="root1")
    book = fold_programs(r.records)["root"]
    assert [e.program_id for e in book.kept()] == ["root2", "root3"]
    assert book.entries["root1"].dropped_turn == 3
    assert [(g.turn, g.kept, g.dropped, g.size) for g in book.grew] == [
        (1, ("root1",), (), 1),
        (2, ("root2",), (), 2),
        (3, ("root3",), ("root1",), 2),
    ]


def test_an_agent_without_a_library_still_lists_its_programs():
    r = Recorder()
    r.emit(
        "model_reply",
        "root",
        1,
        text="",
        calls=[{"id": "c1", "name": "submit_program", "arguments": {"program": "1"}}],
        usage={},
    )
    r.emit("receipt", "root", 1, callId="c1", tool="submit_program", body="ok")
    r.emit(
        "code_execution", "root", 1, submission=1, ok=True, toolCalls=0, apiCalls=0, durationMs=1.0, logs=[]
    )
    book = fold_programs(r.records)["root"]
    assert not book.has_library
    (program,) = book.programs
    assert (program.program_id, program.source, program.ok) == (None, "1", True)


def test_a_hand_over_passes_on_what_the_giver_held_once_that_turn_ended():
    r = Recorder()
    for turn, program in ((1, "aa"), (2, "bb"), (3, "cc")):
        r.emit("program_kept", "root", turn, programId=program, lines=1, chars=10, ok=True)
    r.emit("program_dropped", "root", 2, programId="aa")
    giver = fold_programs(r.records)["root"]
    assert [e.program_id for e in held_after(giver, 2)] == ["bb"]  # aa dropped by then, cc not yet kept
    took = taken_over(giver, 2, "exec", keeps_library=True)
    assert took is not None and (took.giver, took.turn, [e.program_id for e in took.entries]) == (
        "root",
        2,
        ["bb"],
    )
    assert taken_over(giver, 2, "exec", keeps_library=False) is None  # keeps none: takes nothing
    assert taken_over(None, 2, "fork", keeps_library=True) is None
