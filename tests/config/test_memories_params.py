"""The memories capability: a strategy, a scope and six caps, every one written when enabled,
`0` switching a cap off; one refusal names every defect."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from gg.cli import main
from gg.config import capability_set_schema
from gg.config.memories import Caps, MemoryProfile, Scope, Strategy

from .documents import at, example, load, refusal, root, write

ENTRY = "agents[0].capabilities[2]"
CAPS = {
    "maxCount": 64,
    "maxLenPerMemory": 4096,
    "maxTotalLen": 0,
    "maxLenIndex": 0,
    "maxLenDescription": 256,
    "maxResults": 0,
}


def with_memories(entry: dict[str, Any]) -> dict[str, Any]:
    document = example()
    root(document)["capabilities"].append({"id": "memories", **entry})
    return document


def complete(**changes: Any) -> dict[str, Any]:
    params = {"scope": "isolated", **CAPS, **changes.pop("params", {})}
    return {"enabled": True, "implementation": "scratchpad", "params": params, **changes}


def test_an_enabled_capability_resolves_to_its_strategy_caps_and_scope(folder: Path) -> None:
    loaded = load(with_memories(complete()), folder)
    assert loaded.root.memories == MemoryProfile(
        "root",
        Strategy.SCRATCHPAD,
        Caps(max_count=64, max_len_per_memory=4096, max_len_description=256),
        Scope.ISOLATED,
    )


def test_markdown_holds_the_count_and_total_caps_as_written(folder: Path) -> None:
    caps = {"maxCount": 2, "maxTotalLen": 150, "maxLenIndex": 4096}
    entry = complete(implementation="markdown", params=caps)
    profile = load(with_memories(entry), folder).root.memories
    assert profile is not None and profile.strategy is Strategy.MARKDOWN
    assert profile.caps == Caps(
        max_count=2, max_total_len=150, max_len_per_memory=4096, max_len_index=4096, max_len_description=256
    )


def test_an_index_or_results_cap_a_strategy_has_nothing_to_apply_to_is_refused_unless_zero(
    folder: Path,
) -> None:
    entry = complete(implementation="scratchpad", params={"maxLenIndex": 4096, "maxResults": 25})
    defects = refusal(with_memories(entry), folder)
    assert [d.path for d in defects] == [f"{ENTRY}.params.maxLenIndex", f"{ENTRY}.params.maxResults"]
    assert at(defects, f"{ENTRY}.params.maxLenIndex").reason == (
        "bounds nothing under `scratchpad` (it applies under `markdown` alone): write 0"
    )
    assert at(defects, f"{ENTRY}.params.maxResults").found == "25"
    markdown = complete(implementation="markdown", params={"maxResults": 25})
    assert [d.path for d in refusal(with_memories(markdown), folder)] == [f"{ENTRY}.params.maxResults"]


def test_gg_check_refuses_a_cap_the_strategy_has_nothing_to_apply_to(folder: Path) -> None:
    entry = complete(implementation="markdown", params={"maxCount": 2, "maxTotalLen": 150, "maxResults": 25})
    checked = CliRunner().invoke(main, ["check", str(write(folder, with_memories(entry)))])
    assert checked.exit_code == 2 and "1 defect" in checked.output
    assert f"{ENTRY}.params.maxResults" in checked.output
    assert "bounds nothing under `markdown`" in checked.output


def test_integral_floats_are_whole_numbers_and_fractions_are_refused(folder: Path) -> None:
    profile = load(with_memories(complete(params={"maxCount": 6.4e1})), folder).root.memories
    assert profile is not None and profile.caps.max_count == 64
    defects = refusal(with_memories(complete(params={"maxCount": 2.5, "maxResults": -1})), folder)
    assert [d.path for d in defects] == [f"{ENTRY}.params.maxCount", f"{ENTRY}.params.maxResults"]
    assert all("whole number" in d.reason and "0 switches it off" in d.reason for d in defects)


def test_an_unknown_strategy_or_scope_is_refused_naming_the_known_ones(folder: Path) -> None:
    defects = refusal(with_memories(complete(implementation="vector", params={"scope": "global"})), folder)
    strategy = at(defects, f"{ENTRY}.implementation")
    scope = at(defects, f"{ENTRY}.params.scope")
    assert all(name in strategy.reason for name in ("scratchpad", "markdown", "keyword-search"))
    assert strategy.found == '"vector"'
    assert all(name in scope.reason for name in ("isolated", "shared", "inherited", "read-only"))


def test_an_enabled_capability_names_every_value_it_leaves_out_at_once(folder: Path) -> None:
    defects = refusal(with_memories({"enabled": True, "params": {"maxCount": 8}}), folder)
    assert [d.path for d in defects] == [  # a key nobody wrote comes after those written beside it
        f"{ENTRY}.params.scope",
        f"{ENTRY}.params.maxLenPerMemory",
        f"{ENTRY}.params.maxTotalLen",
        f"{ENTRY}.params.maxLenIndex",
        f"{ENTRY}.params.maxLenDescription",
        f"{ENTRY}.params.maxResults",
        f"{ENTRY}.implementation",
    ]
    assert all(d.found == "(absent)" and "required when memories is enabled" in d.reason for d in defects)


def test_a_disabled_capability_need_not_be_complete_but_what_it_writes_is_judged(folder: Path) -> None:
    assert load(with_memories({"enabled": False, "params": {"maxCount": 3}}), folder).root.memories is None
    defects = refusal(with_memories({"enabled": False, "params": {"maxCount": "many"}}), folder)
    assert [d.path for d in defects] == [f"{ENTRY}.params.maxCount"]


def test_an_unknown_param_and_an_implementation_on_another_capability_are_refused(folder: Path) -> None:
    document = with_memories(complete(params={"ownership": "owned"}))
    root(document)["capabilities"][1]["implementation"] = "markdown"
    defects = refusal(document, folder)
    assert {d.path for d in defects} == {
        f"{ENTRY}.params.ownership",
        "agents[0].capabilities[1].implementation",
    }


def test_a_profile_without_memories_resolves_none(folder: Path) -> None:
    assert load(example(), folder).root.memories is None


def test_the_json_schema_requires_everything_of_an_enabled_capability() -> None:
    entry = capability_set_schema()["$defs"]["MemoriesCapability"]
    assert entry["properties"]["implementation"]["anyOf"][0]["enum"] == [
        "scratchpad",
        "markdown",
        "keyword-search",
    ]
    assert entry["else"]["required"] == ["implementation", "params"]
    assert entry["else"]["properties"]["params"]["required"] == ["scope", *CAPS]
