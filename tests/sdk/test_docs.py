"""`docs.search` and `views.openDocsView`: what they find, what they refuse, what they open."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.config.catalogue import Role
from gg.errors import ErrorCode
from gg.sandbox.execution import Arm
from gg.sandbox.languages import LANGUAGES
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.state.window import DocsView, SearchView
from support.guest_world import CEILINGS, QuietLog

from .docworld import World, world


@pytest.fixture
def agent(tmp_path: Path) -> World:
    return world(tmp_path)


def test_a_search_hands_back_hits_and_opens_the_search_results_view(agent: World) -> None:
    found = agent.call("docs.search", query="read file")
    assert found["offset"] == 0 and found["total"] >= 2
    assert found["hits"][0] == {
        "key": "gg.files.readFile",
        "kind": "function",
        "module": "files",
        "name": "readFile",
        "summary": "Read a page of a workspace text file, or describe an image file.",
    }
    [view] = agent.views.close_turn()
    assert isinstance(view, SearchView)
    assert view.body.splitlines()[1] == (
        "- `gg.files.readFile` (function): Read a page of a workspace text file, or describe an image file."
    )


def test_a_search_by_filter_alone_lists_entries_in_declaration_order(agent: World) -> None:
    found = agent.call("docs.search", modules=["gg:session"], kind="function")
    assert [hit["key"] for hit in found["hits"]] == ["gg.session.finish"]
    types = agent.call("docs.search", modules=["files"], kind="type")
    assert [hit["name"] for hit in types["hits"]] == [
        "TextFile",
        "ImageFile",
        "FileRead",
        "EntryKind",
        "DirEntry",
        "GlobMatch",
        "GlobPage",
    ]


def test_offset_and_limit_page_through_the_matches(agent: World) -> None:
    everything = agent.call("docs.search", modules=["files"])
    page = agent.call("docs.search", modules=["files"], offset=2, limit=3)
    assert page["total"] == everything["total"]
    assert page["hits"] == everything["hits"][2:5]
    assert agent.call("docs.search", query="file")["hits"].__len__() <= 20


@pytest.mark.parametrize(
    ("args", "fact"),
    [
        ({}, "`query`"),
        ({"query": "   "}, "`query`"),
        ({"modules": []}, "`query`"),
        ({"kind": "method"}, "`kind`"),
        ({"query": "x", "limit": 0}, "`limit`"),
        ({"query": "x", "limit": 101}, "`limit`"),
        ({"modules": ["shell"]}, "no module `shell`"),
    ],
)
def test_a_search_without_query_or_filter_or_with_bad_values_is_refused_and_opens_nothing(
    agent: World, args: dict[str, object], fact: str
) -> None:
    error = agent.refusal("docs.search", **args)
    assert error.code is ErrorCode.INVALID_ARGUMENT and error.operation == "search"
    assert fact in error.message
    assert agent.views.close_turn() == []


def test_results_list_only_calls_this_agent_may_make(tmp_path: Path) -> None:
    standard = world(tmp_path)
    keys = [hit["key"] for hit in standard.call("docs.search", modules=["session"])["hits"]]
    assert keys == ["gg.session", "gg.session.finish"]
    assert not [
        hit for hit in standard.call("docs.search", query="history")["hits"] if "programs" in hit["key"]
    ]
    review = world(tmp_path, role=Role.REVIEW, capabilities=frozenset({"program-library"}))
    keys = [
        hit["key"]
        for hit in review.call("docs.search", kind="function", modules=["session", "programs"])["hits"]
    ]
    assert keys == [
        "gg.programs.history",
        "gg.programs.get",
        "gg.programs.rerun",
        "gg.session.approve",
        "gg.session.requestChanges",
    ]


def test_open_docs_view_files_the_page_under_its_qualified_key_whatever_the_spelling(agent: World) -> None:
    for target in ["gg.files.readFile", "files.readFile", "readFile"]:
        assert agent.call("views.open_docs_view", target=target) is None
    [view] = agent.views.close_turn()
    assert isinstance(view, DocsView) and view.key == "gg.files.readFile"
    body = view.body
    assert body.startswith(
        "files.readFile(path: string, options?: { offset?: number; limit?: number }): FileRead\n"
    )
    assert 'Reach it with `import { files } from "gg";`.' in body
    assert "type FileRead = TextFile | ImageFile;" in body and "interface TextFile {" in body
    assert "  contents: string; // " in body


def test_types_and_modules_have_pages_too(agent: World) -> None:
    agent.call("views.open_docs_view", target="FileRead")
    agent.call("views.open_docs_view", target="files")
    type_page, module_page = agent.views.close_turn()
    assert type_page.selector == "gg.files.FileRead" and "interface ImageFile {" in type_page.render()
    assert module_page.selector == "gg.files"
    assert (
        "- `files.listDir(path?: string, options?: { offset?: number; limit?: number }): DirEntry[]`: "
        in module_page.render()
    )
    assert "- `files.glob(pattern: string, options?: { offset?: number; limit?: number }): GlobPage`: " in (
        module_page.render()
    )


def test_an_unknown_name_is_not_found_with_up_to_three_suggestions_on_an_indented_line(agent: World) -> None:
    error = agent.refusal("views.open_docs_view", target="files.readFiel")
    assert error.code is ErrorCode.NOT_FOUND and error.operation == "open_docs_view"
    first, second = error.message.splitlines()
    assert first == "no documentation for `files.readFiel`"
    assert second.startswith("  did you mean `gg.files.readFile`")
    assert 1 <= second.count("`gg.") <= 3
    assert agent.views.close_turn() == []


def test_a_call_the_agent_may_not_make_has_no_documentation(agent: World) -> None:
    error = agent.refusal("views.open_docs_view", target="session.approve")
    assert error.code is ErrorCode.NOT_FOUND


def test_the_docs_calls_are_bound_for_every_agent(tmp_path: Path) -> None:
    review = world(tmp_path, role=Role.REVIEW)
    assert review.call("views.open_docs_view", target="docs.search") is None
    assert review.call("docs.search", query="documentation")["total"] >= 1


PROGRAMS = {
    "javascript": 'import { files, views } from "gg";\nviews.openDocsView(files.readFile);\n',
    "python": "from gg import files, views\nviews.open_docs_view(files.read_file)\n",
}


@pytest.mark.arms("javascript", "python")
def test_a_pages_declarations_carry_their_doc_lines_as_the_arms_language_writes_a_comment(
    arm: Arm, tmp_path: Path
) -> None:
    agent = world(tmp_path, language=LANGUAGES[arm.language])
    membrane = Membrane(default_registry(), agent.scope(), QuietLog(), arm.language)
    execution = arm.run(PROGRAMS[arm.language], membrane, CEILINGS, ())
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    comments = [line for line in view.body.splitlines() if line.startswith(("#", "//"))]
    mark = {"javascript": "//", "python": "#"}[arm.language]
    assert comments == [
        f"{mark} What a read hands back: text lines or an image's description.",
        f"{mark} A page of a text file's lines.",
        f"{mark} An image file, described rather than read.",
    ]
