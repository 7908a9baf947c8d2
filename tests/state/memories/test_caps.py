"""The six caps: `0` is off; the count, length, total and description caps bound every strategy,
the index cap markdown's alone and the results cap keyword-search's alone, and either written above
`0` under another strategy is unapplied (refused at launch)."""

from __future__ import annotations

from gg.config.memories import CapName, Caps, Strategy, unapplied

WRITTEN = {
    CapName.MAX_COUNT: 64,
    CapName.MAX_LEN_PER_MEMORY: 4096,
    CapName.MAX_TOTAL_LEN: 9000,
    CapName.MAX_LEN_INDEX: 2000,
    CapName.MAX_LEN_DESCRIPTION: 256,
    CapName.MAX_RESULTS: 25,
}


def test_the_params_are_spelled_as_the_capability_set_spells_them() -> None:
    assert [name.value for name in CapName] == [
        "maxCount",
        "maxLenPerMemory",
        "maxTotalLen",
        "maxLenIndex",
        "maxLenDescription",
        "maxResults",
    ]


def test_each_strategy_puts_in_force_only_the_caps_it_applies() -> None:
    assert Caps.resolve(Strategy.SCRATCHPAD, WRITTEN).to_wire() == {
        "maxCount": 64,
        "maxLenPerMemory": 4096,
        "maxTotalLen": 9000,
        "maxLenIndex": None,
        "maxLenDescription": 256,
        "maxResults": None,
    }
    assert Caps.resolve(Strategy.MARKDOWN, WRITTEN).to_wire() == {
        "maxCount": 64,
        "maxLenPerMemory": 4096,
        "maxTotalLen": 9000,
        "maxLenIndex": 2000,
        "maxLenDescription": 256,
        "maxResults": None,
    }
    assert Caps.resolve(Strategy.KEYWORD_SEARCH, WRITTEN).to_wire() == {
        "maxCount": 64,
        "maxLenPerMemory": 4096,
        "maxTotalLen": 9000,
        "maxLenIndex": None,
        "maxLenDescription": 256,
        "maxResults": 25,
    }


def test_zero_switches_a_cap_off() -> None:
    caps = Caps.resolve(Strategy.SCRATCHPAD, {**WRITTEN, CapName.MAX_COUNT: 0, CapName.MAX_TOTAL_LEN: 0})
    assert caps.max_count is None and caps.max_total_len is None and caps.max_len_per_memory == 4096


def test_an_index_or_results_cap_above_zero_is_unapplied_where_there_is_no_index_or_search() -> None:
    assert unapplied(Strategy.SCRATCHPAD, WRITTEN) == [CapName.MAX_LEN_INDEX, CapName.MAX_RESULTS]
    assert unapplied(Strategy.MARKDOWN, WRITTEN) == [CapName.MAX_RESULTS]
    assert unapplied(Strategy.KEYWORD_SEARCH, WRITTEN) == [CapName.MAX_LEN_INDEX]
    off = {**WRITTEN, CapName.MAX_LEN_INDEX: 0, CapName.MAX_RESULTS: 0}
    assert [unapplied(strategy, off) for strategy in Strategy] == [[], [], []]
