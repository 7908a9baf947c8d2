"""Each agent's window as every request sent it, and the views each turn opened."""

from __future__ import annotations

from console.conftest import Records
from console.scenario import Recorder
from console.test_library import example_records
from gg.console.context import estimated_turns
from gg.console.window import fold_windows


def test_every_request_sends_the_system_prompt_then_the_whole_thread(example_store):
    window = fold_windows(example_records(example_store))["root"]
    assert len(window.systems) == 1 and window.system is not None
    assert window.system.startswith("You are an agent that works by writing programs.")
    assert [(r.turn, r.start, r.end) for r in window.requests] == [
        (1, 0, 1),
        (2, 0, 7),
        (3, 0, 10),
        (4, 0, 13),
        (5, 0, 17),
    ]
    assert window.window(window.requests[0])[0].content.startswith("Task\n----\n")


def test_the_views_a_turn_opened_are_what_the_next_request_added_less_the_feedback(example_store):
    records = example_records(example_store)
    window = fold_windows(records)["root"]
    views = window.views_of(1, [])
    assert views is not None
    assert [v.heading for v in views] == [
        "Documentation: gg.files.listDir",
        "Documentation: gg.files.readFile",
        "Documentation: gg.files.writeFile",
        "View: workspace",
    ]
    feedback = next(r["feedback"] for r in records if r["type"] == "turn_outcome" and r["turn"] == 2)
    assert window.views_of(2, feedback) == []  # turn 2 failed: the model read only the error
    assert window.views_of(5, []) is None  # the last turn's views were never sent


def test_a_compaction_restarts_the_window_at_the_next_request():
    r = Recorder()
    r.turn("root", 1, "one", system="sys")
    r.emit("compaction", "root", 1, summary="all so far", files=["a.md"], messagesBefore=4, messagesAfter=2)
    r.emit(
        "model_request",
        "root",
        2,
        messages=[{"role": "user", "content": "Task"}, {"role": "user", "content": "Summary"}],
        requestIndex=2,
    )
    window = fold_windows(r.records)["root"]
    second = window.requests[1]
    assert second.after_compaction
    assert [m.content for m in window.window(second)] == ["Task", "Summary"]
    assert window.views_of(1, []) is None
    (compaction,) = window.compactions
    assert (compaction.summary, compaction.files, compaction.messages_before) == ("all so far", ("a.md",), 4)


def test_messages_taken_out_of_the_window_restart_it_at_the_next_request_and_nothing_else_does(
    crew_records: Records,
):
    root = fold_windows(crew_records)["root"]
    fourth, fifth = root.request_for(4), root.request_for(5)
    assert fourth is not None and fifth is not None
    assert fourth.restarted is None
    # turn 4 archived turn 2 (its failed program, its receipt and the error it read): gg records
    # the whole window again, which is the window itself, not its tail on the log
    assert fifth.restarted == "archive_thread" and not fifth.after_compaction
    sent = root.window(fifth)
    assert [m.content for m in sent] == [m.content for m in fifth.added]
    # in: turn 4's reply, its receipt, its view and the notice of the issue it waited on; out: turn 2's three
    assert len(sent) == len(root.window(fourth)) + 4 - 3
    assert not any(m.content.startswith("Runtime error") for m in sent)
    assert root.views_of(4, []) is None  # restated with the rest: which it opened is not known
    r = Recorder()
    r.turn("root", 1, "one", system="sys")
    r.emit("context_managed", "root", 1, action="close_views", reclaimedTokens=0, items=0, detail="none")
    r.turn("root", 2, "two")
    (_, second) = fold_windows(r.records)["root"].requests
    assert second.restarted is None  # nothing left the window


def test_the_estimated_bands_measure_the_window_in_characters(example_store):
    records = example_records(example_store)
    window = fold_windows(records)["root"]
    feedback = [t for r in records if r["type"] == "turn_outcome" for t in r.get("feedback") or []]
    turns = estimated_turns(window, feedback)
    first, third = turns[1], turns[3]
    assert first.unit == "chars" and not first.measured
    assert [b.name for b in first.bands] == ["System", "Task"]
    assert first.band("System") == len(window.systems[0])
    assert third.band("Feedback") == len(feedback[0])
