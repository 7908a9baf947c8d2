"""What memories put in the prompt: the pinned block per strategy and when it is built, the notice
of co-holders' writes, the strategy mismatch reason, and the system prompt's section."""

from __future__ import annotations

from gg.config.memories import Call, Scope, Strategy
from gg.state.memories import BlockMoment, block_at, guide, mismatch_reason, notice_text, pinned_block

from .world import Run, note, profile

NAMES = {call: f"gg.memories.{call.value}" for call in Call}


def _without(withheld: Call) -> dict[Call, str]:
    """The names of a holder whose profile withholds `withheld` (`call_names` leaves it out)."""
    return {call: name for call, name in NAMES.items() if call is not withheld}


def test_a_scratchpad_pins_every_body_with_its_description() -> None:
    holder = Run().open(profile(), "root")
    assert pinned_block(holder) is None
    holder.store.write("root", note("gearbox", "third gear slips under load", "gear-ratio-note"))
    block = pinned_block(holder)
    assert block is not None and "third gear slips under load" in block and "gear-ratio-note" in block


def test_markdown_pins_one_index_line_per_memory_and_no_body() -> None:
    holder = Run().open(profile(Strategy.MARKDOWN), "root")
    holder.store.create("root", note("build-commands", "run-the-kiln-at-900", "how to build and test"))
    holder.store.create("root", note("echo", "said once", "two words twice"))
    block = pinned_block(holder)
    assert block is not None
    assert "- `build-commands` — how to build and test\n- `echo` — two words twice" in block
    assert "run-the-kiln-at-900" not in block and "said once" not in block


def test_keyword_search_pins_nothing() -> None:
    holder = Run().open(profile(Strategy.KEYWORD_SEARCH), "root")
    holder.store.create("root", note("m", "body"))
    assert pinned_block(holder) is None and block_at(holder, BlockMoment.COMPACTION) is None


def test_the_block_is_built_at_a_boundary_and_at_the_first_turn_of_a_holder_of_a_filled_store() -> None:
    run = Run()
    root = run.open(profile(), "root")
    root.store.write("root", note("the-plan", "a canvas game"))
    reader = run.open(profile(scope=Scope.READ_ONLY, slug="reader"), "reader", root)
    own = run.open(profile(), "other")
    own.store.write("other", note("x"))
    assert block_at(root, BlockMoment.FIRST_TURN) is None
    assert block_at(own, BlockMoment.FIRST_TURN) is None
    assert "a canvas game" in (block_at(reader, BlockMoment.FIRST_TURN) or "")
    assert "a canvas game" in (block_at(root, BlockMoment.COMPACTION) or "")


def test_a_co_holders_write_reaches_the_next_prompt_once_with_the_body_under_a_scratchpad() -> None:
    run = Run()
    r = run.open(profile(scope=Scope.SHARED, slug="curator"), "R")
    r.store.write("R", note("m1", "kiln runs hot", "root-note"))
    c = run.open(profile(scope=Scope.SHARED, slug="curator"), "C")
    assert notice_text(c, NAMES) is None
    c.store.write("C", note("m2", "glaze needs two coats", "helper-note"))
    text = notice_text(r, NAMES)
    assert text is not None
    assert "`m2`" in text and "helper-note" in text and "glaze needs two coats" in text
    assert "kiln runs hot" not in text and "read_memory" not in text
    assert notice_text(r, NAMES) is None and notice_text(c, NAMES) is None


def test_a_notice_gives_each_memory_one_line_in_its_final_state_and_names_the_read_call() -> None:
    run = Run()
    r = run.open(profile(Strategy.MARKDOWN, Scope.SHARED, slug="team"), "R")
    c = run.open(profile(Strategy.MARKDOWN, Scope.SHARED, slug="team"), "C")
    r.store.create("R", note("old", "x", "kept"))
    r.store.create("R", note("gone", "x", "soon"))
    c.take_news()
    c.store.create("C", note("fresh", "body", "first"))
    c.store.edit("C", "fresh", "body", "new body")
    c.store.edit("C", "old", "x", "y")
    c.store.delete("C", "gone")
    text = notice_text(r, NAMES)
    assert text is not None
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines == ["- added `fresh` — first", "- updated `old` — kept", "- deleted `gone`"]
    assert "`gg.memories.read_memory`" in text and "new body" not in text


def test_the_mismatch_reason_names_both_strategies() -> None:
    reason = mismatch_reason(Strategy.SCRATCHPAD, Strategy.MARKDOWN)
    assert "`scratchpad`" in reason and "`markdown`" in reason


def test_the_guide_names_the_holders_calls_and_caps_or_says_the_memories_are_another_agents() -> None:
    run = Run()
    root = run.open(profile(Strategy.MARKDOWN, max_len_index=4096), "root")
    reader = run.open(profile(Strategy.MARKDOWN, Scope.READ_ONLY, slug="reader"), "reader", root)
    own = guide(root, NAMES)
    assert "`markdown`" in own and "gg.memories.create_memory" in own and "4096" in own
    assert "notice" not in own
    theirs = guide(reader, NAMES)
    assert (
        "another agent keeps" in theirs and "gg.memories.create_memory" not in theirs and "notice" in theirs
    )


def test_the_guide_never_names_a_withheld_read_or_search_call() -> None:
    run = Run()
    indexed = run.open(profile(Strategy.MARKDOWN), "root")
    searched = run.open(profile(Strategy.KEYWORD_SEARCH, slug="searcher"), "searcher")
    without_read = guide(indexed, _without(Call.READ))
    assert "read_memory" not in without_read and "bodies cannot be read in this session" in without_read
    only_search = guide(searched, _without(Call.READ))
    assert "read_memory" not in only_search and "find them with `gg.memories.search_memories`" in only_search
    only_read = guide(searched, _without(Call.SEARCH))
    assert "search_memories" not in only_read
    assert "read one by its name with `gg.memories.read_memory`" in only_read
    assert "read a body with `gg.memories.read_memory`" in guide(indexed, NAMES)
