"""The thread archive (seed 003, "archive"): whole turns moved out of the window and found again, the
entry counter carried across a fork (anchor-state §1.6, §2 worked example 5), the reclaim reported
and what the archive reports."""

from __future__ import annotations

import pytest

from gg.errors import ErrorCode
from gg.providers.base import Message, ToolCall
from gg.state.archive import Archive, ArchiveModule, archive_turns, checked_spans
from gg.state.refusal import Refusal
from gg.state.window import Band, DocsView, FileView, Region, ViewSet, Window
from gg.telemetry.module_events import ArchiveState, ContextManaged

TASK = Message("user", "Task\n----\ncount the quokkas")


def _window(*results: str) -> Window:
    window = Window(system="s")
    window.brief(TASK)
    for turn, result in enumerate(results, start=1):
        window.begin_turn(turn)
        call = ToolCall(f"c{turn}", "submit_program", {"program": "..."})
        window.push(Message("assistant", f"reply {turn}", tool_calls=(call,)))
        window.push(Message("tool", "ok", tool_call_id=f"c{turn}"))
        window.push(Message("user", result))
    window.begin_turn(len(results) + 1)
    return window


def _refused(spans: list[tuple[int, int]]) -> str:
    with pytest.raises(Refusal) as refused:
        checked_spans(spans)
    assert refused.value.code is ErrorCode.INVALID_ARGUMENT
    return str(refused.value)


def test_a_span_list_must_be_non_empty_at_most_32_long_and_never_reversed() -> None:
    assert "at least one" in _refused([])
    assert "33 spans" in _refused([(n, n) for n in range(1, 34)])
    assert "from 2 to 1" in _refused([(2, 1)])
    assert checked_spans([(n, n) for n in range(1, 33)]) == tuple((n, n) for n in range(1, 33))
    assert checked_spans([(0, 4_294_967_295)]) == ((0, 4_294_967_295),)  # a wide span costs nothing


def test_archiving_moves_whole_turns_out_keeps_their_results_and_drops_the_replies() -> None:
    window = _window("Runtime error\n----\nZX-QUOKKA-41", "second result")
    archive = Archive()
    done = archive_turns(archive, window, [(1, 1)])
    assert done.items == 3 and [entry.text for entry in done.entries] == ["Runtime error\n----\nZX-QUOKKA-41"]
    assert all("QUOKKA" not in m.content for m in window.messages)
    assert [m.content for m in window.messages] == [TASK.content, "reply 2", "ok", "second result"]
    assert done.reclaimed_tokens == -(-len("reply 1" + "ok" + "Runtime error\n----\nZX-QUOKKA-41") // 4)
    assert done.earliest == 1


def test_the_turn_in_progress_the_brief_the_pins_and_docs_views_are_never_archived() -> None:
    window = _window("one")
    window.begin_turn(1)
    window.push_view(DocsView("gg.files.readFile", "docs"))
    window.pin(Band.TASKS, "Tasks\n----\nlist")
    window.begin_turn(2)
    window.push(Message("assistant", "reply 2"))
    done = archive_turns(Archive(), window, [(0, 2)])
    assert [m.content for m in window.messages] == [
        TASK.content,
        "Documentation: gg.files.readFile\n----\ndocs",
        "Tasks\n----\nlist",
        "reply 2",
    ]
    assert done.items == 3


def test_search_finds_entries_case_insensitively_newest_first_at_most_eight() -> None:
    window = _window(*[f"quokka {n}" for n in range(1, 11)], "wombat")
    archive = Archive()
    archive_turns(archive, window, [(1, 5)])
    archive_turns(archive, window, [(6, 11)])
    hits = archive.search("QUOKKA")
    assert [hit.text for hit in hits] == [f"quokka {n}" for n in range(10, 2, -1)]
    assert [hit.seq for hit in hits] == list(range(9, 1, -1))  # ordinals count on across archivals
    assert archive.search("numbat") == []
    with pytest.raises(Refusal) as refused:
        archive.search("  ")
    assert refused.value.code is ErrorCode.INVALID_ARGUMENT


def test_an_empty_archive_is_told_apart_from_a_search_that_matched_nothing() -> None:
    module = ArchiveModule(Archive())
    assert module.search("quokka") == {"archiveEmpty": True, "hits": []}
    window = _window("wombat")
    module.archive_thread(window, [(1, 1)])
    assert module.search("quokka") == {"archiveEmpty": False, "hits": []}
    assert module.search("WOMBAT") == {
        "archiveEmpty": False,
        "hits": [{"seq": 0, "role": "user", "text": "wombat"}],
    }


def test_a_fork_of_an_archive_holding_0_to_4_hands_out_5_next_in_both_copies() -> None:
    original = ArchiveModule(Archive())
    original.archive_thread(_window(*[f"result {n}" for n in range(5)]), [(1, 5)])
    assert [entry.seq for entry in original.archive.entries] == [0, 1, 2, 3, 4]
    copy = original.copy()
    copy.archive_thread(_window("copy's"), [(1, 1)])
    original.archive_thread(_window("original's"), [(1, 1)])
    assert copy.archive.entries[-1].seq == 5 and copy.archive.entries[-1].text == "copy's"
    assert original.archive.entries[-1].seq == 5 and original.archive.entries[-1].text == "original's"
    assert len(copy.archive.entries) == len(original.archive.entries) == 6
    assert copy.drain("archive-1")[0].to_wire()["items"] == 3  # its own archival only, none of the original's


def test_the_report_says_what_left_and_that_its_tokens_are_estimated() -> None:
    module = ArchiveModule(Archive())
    report = module.archive_thread(_window("a result"), [(1, 1)])
    assert report["items"] == 3 and report["paths"] == []
    assert report["reclaimedTokens"] == -(-len("reply 1" + "ok" + "a result") // 4)
    assert report["detail"] == (
        "Archived turns: 1. Messages out of the window: 3, of which 1 kept in the archive (#0). "
        f"Tokens freed: about {report['reclaimedTokens']}, estimated at 4 characters a token. "
        "Entries now in the archive: 1."
    )
    nothing = module.archive_thread(_window("x"), [(7, 9)])
    assert nothing["items"] == 0 and nothing["reclaimedTokens"] == 0
    assert nothing["detail"].startswith("Turns 7–9 hold nothing that can be archived")


def test_it_opens_with_an_empty_snapshot_and_reports_each_archival_beside_context_managed() -> None:
    module = ArchiveModule(Archive())
    assert module.restate("archive-0") == [
        ArchiveState(module_id="archive-0", entries=[], count=0, total_len=0)
    ]
    long_result = "q" * 300
    module.archive_thread(_window(long_result), [(1, 1)])
    managed, state = module.drain("archive-0")
    assert isinstance(managed, ContextManaged) and isinstance(state, ArchiveState)
    assert managed.to_wire() | {"detail": ""} == {
        "action": "archive_thread",
        "reclaimedTokens": -(-(len("reply 1ok") + 300) // 4),
        "items": 3,
        "detail": "",
        "earliestRemoved": 1,
    }
    assert state.to_wire() == {
        "moduleId": "archive-0",
        "entries": [{"seq": 0, "source": "thread", "role": "user", "len": 300, "preview": "q" * 200}],
        "count": 1,
        "totalLen": 300,
    }
    assert module.drain("archive-0") == []


def test_evicting_file_views_closes_them_in_the_window_and_this_turn_and_names_their_paths() -> None:
    window = _window("r")
    window.push_view(FileView("a.txt", Region(), 1, 2, 2, "x\ny\n"))
    window.push_view(FileView("b.txt", Region(), 1, 1, 1, "z\n"))
    views = ViewSet()
    views.open_file(FileView("a.txt", Region(3, None), 4, 4, 4, "w\n"))
    views.open_text("keep", "me")
    module = ArchiveModule(Archive())
    report = module.evict_file_views(window, views, "a.txt")
    assert report["items"] == 2 and report["paths"] == ["a.txt"]
    assert [view.selector for view in views.current()] == ["keep"]
    assert module.evict_file_views(window, views, None)["paths"] == ["b.txt"]
    assert (
        module.evict_file_views(window, views, None)["detail"]
        == "No file view is open, so nothing left the window."
    )
    assert [event.to_wire()["action"] for event in module.drain("archive-0")] == ["evict_file_view"] * 3
