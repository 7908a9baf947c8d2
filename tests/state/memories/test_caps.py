"""The six caps: `0` is off, a cap the strategy does not apply is accepted and not in force."""

from __future__ import annotations

from gg.state.memories import CapName, Caps, Strategy

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
        "maxCount": None,
        "maxLenPerMemory": 4096,
        "maxTotalLen": None,
        "maxLenIndex": 2000,
        "maxLenDescription": 256,
        "maxResults": None,
    }
    assert Caps.resolve(Strategy.KEYWORD_SEARCH, WRITTEN).to_wire() == {
        "maxCount": 64,
        "maxLenPerMemory": 4096,
        "maxTotalLen": None,
        "maxLenIndex": None,
        "maxLenDescription": 256,
        "maxResults": 25,
    }


def test_zero_switches_a_cap_off() -> None:
    caps = Caps.resolve(Strategy.SCRATCHPAD, {**WRITTEN, CapName.MAX_COUNT: 0, CapName.MAX_TOTAL_LEN: 0})
    assert caps.max_count is None and caps.max_total_len is None and caps.max_len_per_memory == 4096
