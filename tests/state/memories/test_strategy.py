"""What each strategy pins and which calls it offers, to a holder that may write and to one that
may only read."""

from __future__ import annotations

from gg.config.memories import Call, Pinned, Strategy, offered_calls


def test_each_strategy_pins_its_own_thing() -> None:
    assert [(s.value, s.pins) for s in Strategy] == [
        ("scratchpad", Pinned.BODIES),
        ("markdown", Pinned.INDEX),
        ("keyword-search", Pinned.NOTHING),
    ]


def test_each_strategy_offers_its_own_calls() -> None:
    assert [call.value for call in Strategy.SCRATCHPAD.calls] == [
        "write_memory",
        "update_memory",
        "delete_memory",
    ]
    assert [call.value for call in Strategy.MARKDOWN.calls] == [
        "create_memory",
        "read_memory",
        "edit_memory",
        "delete_memory",
    ]
    assert [call.value for call in Strategy.KEYWORD_SEARCH.calls] == [
        "create_memory",
        "read_memory",
        "edit_memory",
        "delete_memory",
        "search_memories",
    ]


def test_a_read_only_holder_is_offered_the_reads_alone_and_a_scratchpad_has_none() -> None:
    assert offered_calls(Strategy.SCRATCHPAD, writable=False) == ()
    assert offered_calls(Strategy.MARKDOWN, writable=False) == (Call.READ,)
    assert offered_calls(Strategy.KEYWORD_SEARCH, writable=False) == (Call.READ, Call.SEARCH)
    assert offered_calls(Strategy.MARKDOWN, writable=True) == Strategy.MARKDOWN.calls


def test_the_calls_that_add_and_revise_are_named_by_the_strategy() -> None:
    assert (Strategy.SCRATCHPAD.creates, Strategy.SCRATCHPAD.revises) == (Call.WRITE, Call.UPDATE)
    assert (Strategy.KEYWORD_SEARCH.creates, Strategy.KEYWORD_SEARCH.revises) == (Call.CREATE, Call.EDIT)
