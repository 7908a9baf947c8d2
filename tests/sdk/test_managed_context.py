"""`agent-managed-context` through the membrane, on both arms: archiving whole turns and finding them
again (fidelity case 095), evicting file views, and `views.close` / `views.current` (unavailable
without the capability, as case 015 probes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.providers.base import Message, ToolCall
from gg.sandbox.execution import Arm
from gg.state.window import DocsView, FileView, Region, TextView, Window
from support.guest_attempts import JS_SEEN, PY_SEEN, js_attempt, py_attempt

from .moduleworld import module_agent

pytestmark = pytest.mark.arms("javascript", "python")

MARKER = "ZX-QUOKKA-41"

SEARCH_FIRST = {
    "javascript": """import { context } from "gg";
const before = context.searchArchive("quokka");
console.log(JSON.stringify([before.archiveEmpty, before.hits.length]));
""",
    "python": """import gg
import json
before = gg.context.search_archive("quokka")
print(json.dumps([before.archive_empty, len(before.hits)]))
""",
}
ARCHIVE = {
    "javascript": """import { context } from "gg";
"""
    + JS_SEEN
    + js_attempt("code-operation")
    + """const report = context.archiveThread([{ from: 1, to: 1 }]);
const found = context.searchArchive("quokka");
attempt("empty", () => context.archiveThread([]));
attempt("reversed", () => context.archiveThread([{ from: 2, to: 1 }]));
attempt("half", () => context.archiveThread([{ from: 1 }]));
attempt("not-a-span", () => context.archiveThread([7]));
attempt("negative", () => context.archiveThread([{ from: -1, to: 1 }]));
const spans = Array.from({ length: 33 }, (_, i) => ({ from: i + 1, to: i + 1 }));
attempt("too-many", () => context.archiveThread(spans));
attempt("blank-query", () => context.searchArchive(""));
const marked = found.hits.some((h) => h.text.includes("QUOKKA"));
console.log(JSON.stringify([report.items > 0, found.archiveEmpty, marked]));
console.log(JSON.stringify(seen));
console.log(JSON.stringify([report.paths, found.hits[0].seq, found.hits[0].role]));
""",
    "python": """import gg
import json
"""
    + PY_SEEN
    + py_attempt("code-operation")
    + """report = gg.context.archive_thread([{"from": 1, "to": 1}])
found = gg.context.search_archive("quokka")
attempt("empty", lambda: gg.context.archive_thread([]))
attempt("reversed", lambda: gg.context.archive_thread([{"from": 2, "to": 1}]))
attempt("half", lambda: gg.context.archive_thread([{"from": 1}]))
attempt("not-a-span", lambda: gg.context.archive_thread([7]))
attempt("negative", lambda: gg.context.archive_thread([{"from": -1, "to": 1}]))
attempt("too-many", lambda: gg.context.archive_thread([{"from": i + 1, "to": i + 1} for i in range(33)]))
attempt("blank-query", lambda: gg.context.search_archive(""))
print(json.dumps([report.items > 0, found.archive_empty, any("QUOKKA" in h.text for h in found.hits)]))
print(json.dumps(seen))
print(json.dumps([report.paths, found.hits[0].seq, found.hits[0].role]))
""",
}
VIEWS = {
    "javascript": """import { context, views } from "gg";
views.openText("scratch", "pending this turn");
const before = views.current().map((v) => [v.kind, v.selector, v.tokens > 0, v.region ?? null]);
const closed = views.close("notes");
const scratch = views.current().find((v) => v.selector === "scratch").close();
const evicted = context.evictFileView("./a.txt");
const after = views.current().map((v) => v.selector);
let blank = "";
try { views.close(" "); } catch (e) { blank = `${e.code} ${e.operation}`; }
console.log(JSON.stringify([before, closed, scratch, evicted.paths, evicted.items, after, blank]));
""",
    "python": """import gg
import json
gg.views.open_text("scratch", "pending this turn")
def shown(v):
    region = None if v.region is None else {"offset": v.region.offset, "limit": v.region.limit}
    if region is not None and region["limit"] is None:
        region = {"offset": v.region.offset}
    return [v.kind, v.selector, v.tokens > 0, region]
before = [shown(v) for v in gg.views.current()]
closed = gg.views.close("notes")
scratch = [v for v in gg.views.current() if v.selector == "scratch"][0].close()
evicted = gg.context.evict_file_view("./a.txt")
after = [v.selector for v in gg.views.current()]
blank = ""
try:
    gg.views.close(" ")
except gg.ApiError as e:
    d = gg.core.details(e)
    blank = d.code + " " + d.operation
print(json.dumps([before, closed, scratch, evicted.paths, evicted.items, after, blank]))
""",
}
CLOSE_WITHOUT = {
    "javascript": """import { views } from "gg";
let seen = "";
try { views.close("nothing"); } catch (e) { seen = `${e.code} ${e.operation}`; }
console.log(JSON.stringify(seen));
""",
    "python": """import gg
import json
seen = ""
try:
    gg.views.close("nothing")
except gg.ApiError as e:
    d = gg.core.details(e)
    seen = d.code + " " + d.operation
print(json.dumps(seen))
""",
}


def _thread(window: Window, turns: int, results: dict[int, str]) -> None:
    for turn in range(1, turns + 1):
        window.begin_turn(turn)
        call = ToolCall(f"c{turn}", "submit_program", {"program": "..."})
        window.push(Message("assistant", "", tool_calls=(call,)))
        window.push(Message("tool", "ok", tool_call_id=f"c{turn}"))
        if turn in results:
            window.push(Message("user", results[turn]))


def test_what_turn_one_showed_is_archived_out_of_the_window_and_found_again(arm: Arm, tmp_path: Path) -> None:
    window = Window(system="s")
    window.brief(Message("user", "Task\n----\nfind the quokka"))
    agent = module_agent(arm, tmp_path, window=window)
    assert agent.logged(SEARCH_FIRST[arm.language]) == [[True, 0]]  # nothing archived yet, not "no match"
    _thread(window, 2, {1: f"Runtime error\n----\nError: {MARKER}"})
    assert any(MARKER in m.content for m in window.messages)
    found, seen, detail = agent.logged(ARCHIVE[arm.language])
    assert found == [True, False, True]
    assert seen == [
        "empty invalid-argument archive_thread",
        "reversed invalid-argument archive_thread",
        "half invalid-argument archive_thread",  # these three refused by the SDK itself
        "not-a-span invalid-argument archive_thread",
        "negative invalid-argument archive_thread",
        "too-many invalid-argument archive_thread",
        "blank-query invalid-argument search_archive",
    ]
    assert detail == [[], 0, "user"]
    assert all(MARKER not in m.content for m in window.messages)
    archive = agent.scope.archive
    assert archive is not None
    managed, state = archive.drain("archive-0")
    assert managed.to_wire()["action"] == "archive_thread" and managed.to_wire()["items"] == 3
    assert state.to_wire()["count"] == 1 and state.to_wire()["entries"][0]["seq"] == 0


def test_views_are_listed_closed_by_selector_and_file_views_evicted_but_docs_stay(
    arm: Arm, tmp_path: Path
) -> None:
    window = Window(system="s")
    window.push_view(TextView("notes", "earlier notes"))
    window.push_view(FileView("a.txt", Region(2, 5), 3, 7, 9, "lines\n"))
    window.push_view(DocsView("gg.files.readFile", "docs"))
    agent = module_agent(arm, tmp_path, window=window)
    (shown,) = agent.logged(VIEWS[arm.language])
    before, closed, scratch, paths, items, after, blank = shown
    assert before == [
        ["text", "notes", True, None],
        ["file", "a.txt", True, {"offset": 2, "limit": 5}],
        ["docs", "gg.files.readFile", True, None],
        ["text", "scratch", True, None],
    ]
    assert (closed, scratch, paths, items) == (1, 1, ["a.txt"], 1)
    assert after == ["gg.files.readFile"]
    assert blank == "invalid-argument close"
    assert agent.scope.views.current() == []


def test_closing_a_view_is_unavailable_without_agent_managed_context(arm: Arm, tmp_path: Path) -> None:
    agent = module_agent(arm, tmp_path, frozenset({"tasks"}))
    assert agent.logged(CLOSE_WITHOUT[arm.language]) == ["unavailable close"]
