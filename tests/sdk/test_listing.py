"""The `files` listings: a folder a page at a time (`list_dir`), and a recursive glob (`glob`),
called as the membrane calls them and from a real program on every arm."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gg.errors import ErrorCode, OperationError
from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.sdk.listing import LISTING_OPERATIONS
from gg.sdk.registry import Always, ParamType
from gg.sdk.types import Record
from support.guest_world import GuestAgent, spec_agent

from .canary import Canary


def _error(case: Canary, wire: str, **args: object) -> OperationError:
    outcome = case.attempt(wire, **args)
    assert outcome.error is not None, f"expected a refusal, got {outcome.value!r}"
    return outcome.error


def _names(entries: list[dict[str, str]]) -> list[str]:
    return [entry["name"] for entry in entries]


def _folder(case: Canary, name: str, count: int) -> None:
    folder = case.ws / name
    folder.mkdir()
    for index in range(count):
        (folder / f"{index:05}").touch()


# --- declarations --------------------------------------------------------------------------------


def test_both_listings_are_files_operations_paged_by_offset_and_limit() -> None:
    by_key = {op.key: op for op in LISTING_OPERATIONS}
    assert list(by_key) == ["list_dir", "glob"]
    for op in LISTING_OPERATIONS:
        assert op.family == "files" and op.gate == Always() and op.dispatches_tool
    assert [(p.wire, p.type, p.required, p.positional) for p in by_key["list_dir"].params] == [
        ("path", ParamType.STRING, False, True),
        ("offset", ParamType.U32, False, False),
        ("limit", ParamType.U32, False, False),
    ]
    assert [(p.wire, p.type, p.required) for p in by_key["glob"].params] == [
        ("pattern", ParamType.STRING, True),
        ("offset", ParamType.U32, False),
        ("limit", ParamType.U32, False),
    ]
    assert (by_key["list_dir"].returns, by_key["glob"].returns) == ("DirEntry[]", "GlobPage")
    registry = default_registry()
    assert [op.key for op in registry.in_family("files")][-2:] == ["list_dir", "glob"]
    page = registry.types["GlobPage"]
    assert isinstance(page, Record) and [f.name for f in page.fields] == ["matches", "total", "more"]


# --- list_dir ------------------------------------------------------------------------------------


def test_a_listing_without_a_path_is_the_workspace_root(case: Canary) -> None:
    assert case.call("files.list_dir") == [
        {"name": "notes.txt", "kind": "file"},
        {"name": "sub", "kind": "directory"},
    ]
    assert case.call("files.list_dir", path="sub") == [{"name": "inner.txt", "kind": "file"}]


def test_an_empty_directory_lists_as_an_empty_list(case: Canary) -> None:
    (case.ws / "empty").mkdir()
    assert case.call("files.list_dir", path="empty") == []


def test_listing_an_empty_path_is_an_invalid_argument_and_a_missing_one_not_found(case: Canary) -> None:
    assert _error(case, "files.list_dir", path="").to_wire() == {
        "operation": "list_dir",
        "code": "invalid-argument",
        "message": "`path` is empty",
    }
    assert _error(case, "files.list_dir", path="nope").code is ErrorCode.NOT_FOUND


def test_offset_and_limit_page_a_listing_in_name_order(case: Canary) -> None:
    _folder(case, "five", 5)
    assert _names(case.call("files.list_dir", path="five", limit=2)) == ["00000", "00001"]
    assert _names(case.call("files.list_dir", path="five", offset=2, limit=2)) == ["00002", "00003"]
    assert _names(case.call("files.list_dir", path="five", offset=4)) == ["00004"]
    assert case.call("files.list_dir", path="five", offset=5) == []
    assert case.call("files.list_dir", path="five", offset=99, limit=3) == []


def test_a_limit_of_0_or_over_10000_is_refused(case: Canary) -> None:
    for limit in (0, 10_001):
        refused = _error(case, "files.list_dir", limit=limit)
        assert (refused.code, refused.message) == (
            ErrorCode.INVALID_ARGUMENT,
            f"`limit` is {limit}; a page holds 1 to 10000 entries",
        )


def test_a_folder_of_more_than_10000_entries_is_paged_and_unpaged_names_how(case: Canary) -> None:
    _folder(case, "big", 10_001)
    refused = _error(case, "files.list_dir", path="big")
    assert (refused.code, refused.message) == (
        ErrorCode.LIMIT_EXCEEDED,
        "`big` holds 10001 entries, more than the 10000 one listing returns: page it with `offset` and"
        " `limit`, or match what you need with files.glob",
    )
    first = case.call("files.list_dir", path="big", limit=10_000)
    rest = case.call("files.list_dir", path="big", offset=10_000, limit=10_000)
    assert (len(first), _names(rest)) == (10_000, ["10000"])
    assert _names(case.call("files.list_dir", path="big", offset=1)) == [f"{n:05}" for n in range(1, 10_001)]


# --- glob ----------------------------------------------------------------------------------------


def test_a_glob_returns_its_page_the_total_and_whether_more_remain(case: Canary) -> None:
    (case.ws / "sub" / "deeper").mkdir()
    (case.ws / "sub" / "deeper" / "x.txt").write_text("x")
    everything = case.call("files.glob", pattern="**/*.txt")
    assert everything == {
        "matches": [
            {"path": "notes.txt", "kind": "file"},
            {"path": "sub/deeper/x.txt", "kind": "file"},
            {"path": "sub/inner.txt", "kind": "file"},
        ],
        "total": 3,
        "more": False,
    }
    page = case.call("files.glob", pattern="**/*.txt", offset=1, limit=1)
    assert page == {"matches": everything["matches"][1:2], "total": 3, "more": True}
    assert case.call("files.glob", pattern="**/*.txt", offset=3) == {"matches": [], "total": 3, "more": False}


def test_a_glob_without_a_limit_returns_1000_matches_and_says_more_remain(case: Canary) -> None:
    _folder(case, "many", 1001)
    page = case.call("files.glob", pattern="many/*")
    assert (len(page["matches"]), page["total"], page["more"]) == (1000, 1001, True)
    assert case.call("files.glob", pattern="many/*", offset=1000)["matches"] == [
        {"path": "many/01000", "kind": "file"}
    ]


def test_a_glob_of_an_empty_or_outside_pattern_is_refused(case: Canary) -> None:
    assert _error(case, "files.glob", pattern="").message == "`pattern` is empty"
    outside = _error(case, "files.glob", pattern="../**")
    assert (outside.operation, outside.code) == ("glob", ErrorCode.INVALID_ARGUMENT)
    assert outside.message == "`../**` is outside the workspace"
    assert _error(case, "files.glob", pattern="nope/*").code is ErrorCode.NOT_FOUND
    assert _error(case, "files.glob", pattern="*", limit=0).code is ErrorCode.INVALID_ARGUMENT


def test_a_glob_never_reaches_outside_through_the_canarys_links(case: Canary) -> None:
    matched = case.call("files.glob", pattern="**", limit=10_000)
    assert not any(mark in json.dumps(matched) for mark in ("canary-outside-listing-7c1e", "CANARY-"))
    for match in matched["matches"]:
        assert (case.ws / match["path"]).resolve().is_relative_to(case.ws.resolve()) or match[
            "kind"
        ] == "other"


# --- from a real program, on every arm -----------------------------------------------------------

JS_PROGRAM = """import { files, views } from "gg";
const first = files.listDir("specs", { limit: 1 });
const rest = files.listDir("specs", { offset: 1 });
const page = files.glob("**/*.md", { limit: 1 });
const next = files.glob("**/*.md", { offset: 1, limit: 5 });
views.openText("listed", JSON.stringify({
  first: first.map((e) => e.name), rest: rest.map((e) => e.name),
  page: page.matches.map((m) => m.path), total: page.total, more: page.more,
  next: next.matches.map((m) => `${m.path}:${m.kind}`), nextMore: next.more,
}));
"""

PY_PROGRAM = """import json
from gg import files, views

first = files.list_dir("specs", limit=1)
rest = files.list_dir("specs", offset=1)
page = files.glob("**/*.md", limit=1)
following = files.glob("**/*.md", offset=1, limit=5)
views.open_text("listed", json.dumps({
    "first": [e.name for e in first], "rest": [e.name for e in rest],
    "page": [m.path for m in page.matches], "total": page.total, "more": page.more,
    "next": [m.path + ":" + m.kind for m in following.matches], "nextMore": following.more,
}))
"""

PROGRAMS = {
    "javascript": JS_PROGRAM,
    "typescript": JS_PROGRAM,
    "python": PY_PROGRAM,
    "python-typed": PY_PROGRAM,
}


pytestmark = pytest.mark.arms(*PROGRAMS)


def test_a_program_pages_a_listing_and_a_glob_on_every_arm(arm: Arm, tmp_path: Path) -> None:
    agent: GuestAgent = spec_agent(arm, tmp_path, "skill.py", "def parse(text):\n    return text\n")
    execution, _ = agent.run(PROGRAMS[arm.language])
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    listed = json.loads(view.render().split("----\n", 1)[1])
    assert listed == {
        "first": ["auth.md"],
        "rest": ["billing.md", "drafts"],
        "page": ["specs/auth.md"],
        "total": 2,
        "more": True,
        "next": ["specs/billing.md:file"],
        "nextMore": False,
    }
