"""Laying a variant over a base: keyed lists merge by identity, the rest is replaced or added."""

from __future__ import annotations

from typing import Any

from gg.study.merge import Layer, layer


def _base() -> dict[str, Any]:
    return {
        "name": "base",
        "limits": {"maxTurns": 5},
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay"},
                "capabilities": [
                    {"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 20}},
                    {"id": "program-library", "params": {"keep": 20, "idLength": 4}},
                ],
            }
        ],
    }


def _layers(variant: dict[str, Any]) -> tuple[Layer, Layer]:
    return (
        Layer(_base(), lambda loc: ("base", *loc)),
        Layer(variant, lambda loc: ("configs", "v", *loc)),
    )


def test_an_override_changes_only_the_key_it_names() -> None:
    variant = {
        "agents": [
            {
                "slug": "root",
                "capabilities": [{"id": "responses-as-code", "params": {"language": "typescript"}}],
            }
        ]
    }
    merged = layer(_layers(variant)).document
    capabilities = merged["agents"][0]["capabilities"]
    assert capabilities[0] == {
        "id": "responses-as-code",
        "params": {"language": "typescript", "timeoutSecs": 20},
    }
    assert capabilities[1] == {"id": "program-library", "params": {"keep": 20, "idLength": 4}}
    assert merged["limits"] == {"maxTurns": 5} and merged["name"] == "base"


def test_agents_merge_by_slug_and_capabilities_by_id_whatever_their_position() -> None:
    variant = {"agents": [{"slug": "root", "capabilities": [{"id": "program-library", "enabled": False}]}]}
    merged = layer(_layers(variant)).document
    library = merged["agents"][0]["capabilities"][1]
    assert library == {"id": "program-library", "params": {"keep": 20, "idLength": 4}, "enabled": False}
    assert len(merged["agents"]) == 1


def test_an_item_the_base_lacks_is_appended() -> None:
    variant = {
        "agents": [
            {"slug": "root", "capabilities": [{"id": "skills", "params": {"dir": "skills", "builtIns": {}}}]}
        ]
    }
    capabilities = layer(_layers(variant)).document["agents"][0]["capabilities"]
    assert [entry["id"] for entry in capabilities] == ["responses-as-code", "program-library", "skills"]


def test_other_lists_and_scalars_are_replaced_whole() -> None:
    base = Layer({"tags": ["a", "b"], "limits": {"maxTurns": 5}}, lambda loc: loc)
    variant = Layer({"tags": ["c"], "limits": {"maxTurns": 9}}, lambda loc: loc)
    assert layer((base, variant)).document == {"tags": ["c"], "limits": {"maxTurns": 9}}


def test_a_merged_node_answers_at_the_key_of_the_layer_that_wrote_it() -> None:
    variant = {
        "agents": [{"slug": "root", "capabilities": [{"id": "program-library", "params": {"keep": -1}}]}]
    }
    layered = layer(_layers(variant))
    written = layered.origin(("agents", 0, "capabilities", 1, "params", "keep"))[1]
    inherited = layered.origin(("agents", 0, "capabilities", 1, "params", "idLength"))[1]
    assert written == ("configs", "v", "agents", 0, "capabilities", 0, "params", "keep")
    assert inherited == ("base", "agents", 0, "capabilities", 1, "params", "idLength")


def test_a_key_nobody_wrote_answers_at_the_deepest_written_node_above_it() -> None:
    layered = layer(_layers({}))
    assert layered.origin(("agents", 0, "model", "journal"))[1] == ("base", "agents", 0, "model", "journal")
