"""Docs and search views: their headings, and the rules that set them apart from text views."""

from __future__ import annotations

import pytest

from gg.errors import ErrorCode
from gg.state.window import MAX_VIEW_BODY_BYTES, DocsView, SearchView, ViewKind, ViewRefusal, ViewSet


def test_a_docs_view_is_headed_by_its_documentation_key() -> None:
    view = DocsView("gg.files.readFile", "readFile(path: string): FileRead")
    assert view.render() == "Documentation: gg.files.readFile\n----\nreadFile(path: string): FileRead"
    assert (view.kind, view.selector) == (ViewKind.DOCS, "gg.files.readFile")


def test_the_search_view_is_the_view_labelled_search_results() -> None:
    view = SearchView("2 entries matched")
    assert view.render() == "View: search results\n----\n2 entries matched"
    assert (view.kind, view.selector) == (ViewKind.SEARCH, "search results")


def test_re_opening_a_docs_key_does_nothing_this_turn_or_any_later_one() -> None:
    views = ViewSet()
    assert views.open_docs("gg.files.readFile", "first") is True
    assert views.open_docs("gg.files.readFile", "second") is False
    [opened] = views.close_turn()
    assert opened == DocsView("gg.files.readFile", "first")
    assert views.open_docs("gg.files.readFile", "third") is False
    assert views.close_turn() == []
    assert views.spent_bytes == 0


def test_each_search_replaces_the_search_view_in_place() -> None:
    views = ViewSet()
    views.open_search("one")
    views.open_text("notes", "x")
    views.open_search("two")
    assert [view.render().splitlines()[-1] for view in views.close_turn()] == ["two", "x"]


def test_a_text_view_labelled_search_results_is_not_the_search_view() -> None:
    views = ViewSet()
    views.open_search("hits")
    views.open_text("search results", "mine")
    assert [view.kind for view in views.close_turn()] == [ViewKind.SEARCH, ViewKind.TEXT]


def test_docs_and_search_bodies_are_held_to_the_body_cap() -> None:
    views = ViewSet()
    for action in (
        lambda: views.open_docs("k", "x" * (MAX_VIEW_BODY_BYTES + 1)),
        lambda: views.open_search("x" * (MAX_VIEW_BODY_BYTES + 1)),
    ):
        with pytest.raises(ViewRefusal) as caught:
            action()
        assert caught.value.code is ErrorCode.LIMIT_EXCEEDED
    assert views.open_docs("k", "fits") is True  # a refused docs view was never opened
