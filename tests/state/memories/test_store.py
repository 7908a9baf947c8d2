"""A memory store's mutations: what each checks, what a refusal leaves, the revision log and peaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gg.config.memories import Caps, Strategy
from gg.errors import ErrorCode
from gg.state.memories import MAX_CODE_CHARS, Change, Draft, MemoryRefusal, MemoryStore

from .world import SPELT, note, profile


def _store(strategy: Strategy = Strategy.SCRATCHPAD, **caps: int) -> MemoryStore:
    settings = profile(strategy, **caps)
    return MemoryStore(settings.strategy, settings.caps)


def _refusal(call: Callable[[], Any]) -> MemoryRefusal:
    with pytest.raises(MemoryRefusal) as refused:
        call()
    return refused.value


def _revisions(store: MemoryStore) -> list[tuple[str, int, Change]]:
    return [(r.name, r.revision, r.change) for r in store.log_since(0)]


def test_revision_numbers_count_per_memory_across_a_delete_and_a_rewrite() -> None:
    store = _store()
    store.write("root", note("m", "one"))
    store.update("root", note("m", "two"))
    store.delete("root", "m")
    store.write("root", note("m", "three"))
    store.write("root", note("other"))
    assert _revisions(store) == [
        ("m", 1, Change.WRITTEN),
        ("m", 2, Change.UPDATED),
        ("m", 3, Change.DELETED),
        ("m", 4, Change.WRITTEN),
        ("other", 1, Change.WRITTEN),
    ]


def test_a_revision_records_its_author_and_the_text_as_of_it_and_a_deletion_carries_none() -> None:
    store = _store()
    store.write("root", note("m", "first\nsecond", "what it is"))
    store.delete("helper", "m")
    written, deleted = store.log_since(0)
    assert (written.author, written.description, written.body, written.length, written.lines) == (
        "root",
        "what it is",
        "first\nsecond",
        12,
        2,
    )
    assert (deleted.author, deleted.description, deleted.body, deleted.lines) == ("helper", "", "", 0)


def test_the_caps_and_the_checks_of_a_scratchpad_in_the_order_a_program_meets_them() -> None:
    store = _store(max_count=2, max_len_per_memory=10, max_total_len=15, max_len_description=20)
    seen: list[str] = []
    attempts: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("blank-name", lambda: store.write("root", note("  ", "z"))),
        ("a", lambda: store.write("root", note("a", "0123456789"))),
        ("a-again", lambda: store.write("root", note("a", "z"))),
        ("b-over-total", lambda: store.write("root", note("b", "abcdef"))),
        ("c-over-length", lambda: store.write("root", note("c", "0123456789x"))),
        ("b", lambda: store.write("root", note("b", "abcde"))),
        ("e-over-count", lambda: store.write("root", note("e", "x"))),
        ("update-missing", lambda: store.update("root", note("zz", "z"))),
        ("delete-a", lambda: store.delete("root", "a")),
        ("e", lambda: store.write("root", note("e", "x"))),
    ]
    for label, attempt in attempts:
        try:
            usage = attempt()
            seen.append(f"{label} ok {usage['count']} {usage['totalChars']}")
        except MemoryRefusal as refusal:
            seen.append(f"{label} {refusal.code}")
    assert seen == [
        "blank-name invalid-argument",
        "a ok 1 10",
        "a-again conflict",
        "b-over-total limit-exceeded",
        "c-over-length limit-exceeded",
        "b ok 2 15",
        "e-over-count limit-exceeded",
        "update-missing not-found",
        "delete-a ok 1 5",
        "e ok 2 6",
    ]
    assert [(r.name, r.change) for r in store.log_since(0)] == [
        ("a", Change.WRITTEN),
        ("b", Change.WRITTEN),
        ("a", Change.DELETED),
        ("e", Change.WRITTEN),
    ]
    assert [m.name for m in store.memories] == ["b", "e"]
    assert (store.peak.count, store.peak.total_len) == (2, 15)


def test_a_description_over_its_cap_is_refused_before_the_body_caps_naming_both_figures() -> None:
    store = _store(max_len_per_memory=10, max_len_description=20)
    refusal = _refusal(lambda: store.write("root", note("f", "y" * 50, "x" * 21)))
    assert refusal.code is ErrorCode.LIMIT_EXCEEDED
    said = refusal.said(SPELT)
    assert "description" in said and "21" in said and "20" in said
    assert store.head == 0


def test_every_cap_refuses_and_nothing_is_ever_truncated() -> None:
    store = _store(max_len_per_memory=5)
    _refusal(lambda: store.write("root", note("long", "123456")))
    store.write("root", note("short", "12345"))
    _refusal(lambda: store.update("root", note("short", "123456")))
    assert [m.body for m in store.memories] == ["12345"]


def test_names_are_slugs_of_at_most_64_characters() -> None:
    store = _store()
    store.write("root", note("a" * 64))
    store.write("root", note("Build_notes.v2-final"))
    for name in ("a" * 65, "two words", "path/like", "ünïcode", ""):
        assert _refusal(lambda name=name: store.write("root", note(name))).code is ErrorCode.INVALID_ARGUMENT


def test_a_write_needs_a_description_and_a_body_and_stores_them_trimmed() -> None:
    store = _store()
    assert (
        _refusal(lambda: store.write("root", note("m", "b", " "))).said(SPELT)
        == "`description` must not be empty"
    )
    assert _refusal(lambda: store.write("root", note("m", "\n"))).said(SPELT) == "`body` must not be empty"
    store.write("root", note(" m ", "  body\n", " about "))
    [memory] = store.memories
    assert (memory.name, memory.description, memory.body) == ("m", "about", "body")


def test_a_duplicate_is_a_conflict_naming_the_call_that_revises_it_as_the_arm_spells_it() -> None:
    scratchpad, markdown = _store(), _store(Strategy.MARKDOWN)
    scratchpad.write("root", note("m"))
    markdown.create("root", note("m"))
    assert _refusal(lambda: scratchpad.write("root", note("m"))).said(SPELT) == (
        "memory `m` already exists; revise it with `<update_memory as the arm spells it>`"
    )
    assert _refusal(lambda: markdown.create("root", note("m"))).said(SPELT) == (
        "memory `m` already exists; revise it with `<edit_memory as the arm spells it>`"
    )


def test_a_missing_memory_and_a_full_store_name_the_calls_that_help_as_the_arm_spells_them() -> None:
    store = _store(Strategy.KEYWORD_SEARCH, max_count=1)
    assert _refusal(lambda: store.read("gone")).said(SPELT) == (
        "no memory named `gone`; create one with `<create_memory as the arm spells it>`"
    )
    store.create("root", note("a"))
    assert _refusal(lambda: store.create("root", note("b"))).said(SPELT) == (
        "at the maximum of 1 memories (maxCount); revise one with `<edit_memory as the arm spells it>` "
        "or remove one with `<delete_memory as the arm spells it>`"
    )


def test_code_halves_are_bounded_at_32768_characters_each_and_an_update_that_omits_them_clears_them() -> None:
    store = _store()
    store.write("root", note("m", code="export const x = 1;", on_use="x"))
    assert (store.memories[0].code, store.memories[0].on_use) == ("export const x = 1;", "x")
    store.update("root", note("m", "new body"))
    assert (store.memories[0].code, store.memories[0].on_use) == (None, None)
    store.update("root", note("m", code="y" * MAX_CODE_CHARS))
    refused = _refusal(lambda: store.update("root", note("m", on_use="y" * (MAX_CODE_CHARS + 1))))
    assert refused.code is ErrorCode.LIMIT_EXCEEDED
    assert refused.said(SPELT) == (
        "the `<on_use as the arm writes it>` of memory `m` is 32769 characters, over the 32768 allowed"
    )
    assert store.memories[0].on_use is None


def test_markdown_requires_a_description_for_its_index_line_and_keyword_search_does_not() -> None:
    markdown, search = _store(Strategy.MARKDOWN), _store(Strategy.KEYWORD_SEARCH)
    refusal = _refusal(lambda: markdown.create("root", Draft("bare", "  ", "x")))
    assert refusal.code is ErrorCode.INVALID_ARGUMENT
    search.create("root", Draft("bare", None, "x"))
    assert search.memories[0].description == ""


def test_the_index_cap_counts_the_line_a_create_would_add_with_its_newline() -> None:
    store = _store(Strategy.MARKDOWN, max_len_index=30)
    store.create("root", note("a", description="d"))  # "- `a` — d" is 9 characters
    assert store.index() == "- `a` — d" and store.usage()["indexChars"] == 9
    store.create("root", note("b", description="x" * 10))  # 9 + 1 + 18 = 28
    refused = _refusal(lambda: store.create("root", note("c", description="d")))  # 28 + 1 + 9 = 38
    said = refused.said(SPELT)
    assert refused.code is ErrorCode.LIMIT_EXCEEDED and "38" in said and "30" in said


@pytest.mark.parametrize("strategy", [Strategy.MARKDOWN, Strategy.KEYWORD_SEARCH])
def test_the_file_shaped_strategies_hold_the_count_and_total_caps_too(strategy: Strategy) -> None:
    """Under caps of 2 memories and 150 characters: a third memory, and a second body that would
    bring the total to 160, are refused; an edit past the total as well."""
    by_count, by_total = _store(strategy, max_count=2), _store(strategy, max_total_len=150)
    by_count.create("root", note("a"))
    by_count.create("root", note("b"))
    full = _refusal(lambda: by_count.create("root", note("c")))
    assert full.code is ErrorCode.LIMIT_EXCEEDED and "maxCount" in full.said(SPELT)
    by_total.create("root", note("a", "x" * 80))
    over = _refusal(lambda: by_total.create("root", note("b", "y" * 80)))
    assert over.code is ErrorCode.LIMIT_EXCEEDED and all(fact in over.said(SPELT) for fact in ("160", "150"))
    by_total.create("root", note("b", "y" * 69 + "z"))
    assert _refusal(lambda: by_total.edit("root", "b", "z", "zz")).code is ErrorCode.LIMIT_EXCEEDED
    assert [m.name for m in by_count.memories] == ["a", "b"] and by_total.total_len == 150


def test_an_edit_replaces_exactly_one_occurrence_and_refuses_to_empty_a_memory() -> None:
    store = _store(Strategy.MARKDOWN)
    store.create("root", note("echo", "same same"))
    assert _refusal(lambda: store.edit("root", "echo", "same", "other")).code is ErrorCode.CONFLICT
    assert _refusal(lambda: store.edit("root", "echo", "absent", "x")).code is ErrorCode.NOT_FOUND
    emptied = _refusal(lambda: store.edit("root", "echo", "same same", "   "))
    assert emptied.code is ErrorCode.INVALID_ARGUMENT and "delete" in emptied.said(SPELT)
    assert _refusal(lambda: store.edit("root", "echo", "", "x")).code is ErrorCode.INVALID_ARGUMENT
    assert _refusal(lambda: store.edit("root", "nope", "a", "b")).code is ErrorCode.NOT_FOUND
    store.edit("root", "echo", "same same", "said once")
    assert store.read("echo").body == "said once"
    assert [(r.revision, r.change) for r in store.log_since(0)] == [(1, Change.WRITTEN), (2, Change.UPDATED)]


def test_usage_names_the_caps_in_force_and_the_index_only_where_there_is_one() -> None:
    pad = _store(max_count=8, max_total_len=100)
    pad.write("root", note("m", "abc"))
    assert pad.usage() == {"count": 1, "totalChars": 3, "maxCount": 8, "maxTotalChars": 100}
    index = _store(Strategy.MARKDOWN, max_len_index=50)
    assert index.usage() == {"count": 0, "totalChars": 0, "indexChars": 0, "maxIndexChars": 50}


def test_peaks_keep_the_most_held_at_once() -> None:
    store = _store()
    store.write("root", note("a", "1\n2\n3"))
    store.write("root", note("b", "xy"))
    store.delete("root", "a")
    assert store.peak.count == 2 and store.peak.total_len == 7 and store.peak.total_lines == 4
    assert (len(store.memories), store.total_len, store.total_lines) == (1, 2, 1)


def test_caps_repointed_tighter_keep_what_is_held_and_refuse_the_next_write_over_them() -> None:
    store = _store(max_len_per_memory=0)
    for name in ("a", "b", "c"):
        store.write("root", note(name, "x" * 5000))
    store.repoint(Caps(max_len_per_memory=4096))
    assert [m.length for m in store.memories] == [5000, 5000, 5000]
    assert _refusal(lambda: store.write("root", note("d", "x" * 4097))).code is ErrorCode.LIMIT_EXCEEDED
    store.write("root", note("d", "x" * 4096))


def test_a_copy_carries_the_contents_revision_numbers_and_peaks_and_owes_nothing_of_the_log() -> None:
    store = _store()
    store.write("root", note("m", "one"))
    store.update("root", note("m", "two"))
    twin = store.copy()
    assert twin.head == store.head and twin.log_since(0) == ()
    assert twin.peak == store.peak and twin.caps == store.caps and twin.strategy is store.strategy
    twin.update("copy", note("m", "three"))
    store.update("root", note("m", "three too"))
    assert twin.log_since(0)[0].revision == store.log_since(2)[0].revision == 3
    assert twin.read("m").body == "three" and store.read("m").body == "three too"
