"""Keyword search: case-insensitive substrings over slug, description and body, ranked by distinct
keywords, then occurrences, then slug; capped by `maxResults`; an excerpt around the first match."""

from __future__ import annotations

import pytest

from gg.config.memories import Strategy
from gg.errors import ErrorCode
from gg.state.memories import MemoryRefusal, MemoryStore

from .world import note, profile


def _store(**caps: int) -> MemoryStore:
    settings = profile(Strategy.KEYWORD_SEARCH, **caps)
    store = MemoryStore(settings.strategy, settings.caps)
    store.create("root", note("kiln-notes", "The KILN runs hot; glaze twice.", "firing"))
    store.create("root", note("glaze", "glaze glaze glaze", "coats"))
    store.create("root", note("unrelated", "nothing here", "misc"))
    return store


def test_hits_rank_by_distinct_keywords_then_occurrences_and_leave_out_memories_that_match_none() -> None:
    hits = _store().search(["kiln", "GLAZE"])
    assert [(h.name, h.matched, h.occurrences) for h in hits] == [("kiln-notes", 2, 3), ("glaze", 1, 4)]


def test_the_slug_and_the_description_are_searched_with_the_body() -> None:
    store = _store()
    assert [h.name for h in store.search(["firing"])] == ["kiln-notes"]
    assert [h.name for h in store.search(["unrel"])] == ["unrelated"]


def test_max_results_caps_the_hits_and_ties_rank_by_slug() -> None:
    store = _store(max_results=1)
    assert [h.name for h in store.search(["e"])] == ["glaze"]


def test_keywords_are_trimmed_and_deduplicated_and_none_left_is_invalid() -> None:
    store = _store()
    assert [h.occurrences for h in store.search([" kiln ", "Kiln", "kiln"])] == [2]
    with pytest.raises(MemoryRefusal) as refused:
        store.search(["  ", ""])
    assert refused.value.code is ErrorCode.INVALID_ARGUMENT


def test_an_excerpt_is_cut_around_the_first_match_in_the_body_on_one_line() -> None:
    settings = profile(Strategy.KEYWORD_SEARCH)
    store = MemoryStore(settings.strategy, settings.caps)
    store.create("root", note("long", "a" * 100 + "\n\nneedle  here" + "b" * 100))
    [hit] = store.search(["needle"])
    assert hit.excerpt == "…" + "a" * 78 + " needle here" + "b" * 68 + "…"
    [by_name] = store.search(["long"])
    assert by_name.excerpt == "a" * 80 + "…"
