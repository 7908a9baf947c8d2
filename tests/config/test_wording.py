"""How a refusal reads: every defect at once, key paths, found values, our own words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gg.config import load_capability_set
from gg.config.defects import MAX_FOUND_CHARS, render_found, render_path
from gg.errors import ConfigError

from .documents import code_mode, example, library, paths, refusal, root, write

JARGON = (
    "Input should",
    "type=",
    "pydantic",
    "Extra inputs",
    "union_tag",
    "Field required",
    "errors.pydantic",
)


def five_mistakes() -> dict[str, Any]:
    document = example()
    document["limits"]["maxTurns"] = 0
    root(document)["role"] = "boss"
    code_mode(document)["params"]["timeoutSecs"] = "30"
    library(document)["params"]["idLength"] = 33
    root(document)["model"]["temprature"] = 1
    return document


def test_five_independent_mistakes_yield_five_defects_at_their_paths(folder: Path) -> None:
    assert paths(refusal(five_mistakes(), folder)) == [
        "limits.maxTurns",
        "agents[0].role",
        "agents[0].model.temprature",
        "agents[0].capabilities[0].params.timeoutSecs",
        "agents[0].capabilities[1].params.idLength",
    ]


def test_shape_defects_and_cross_field_defects_are_refused_together(folder: Path) -> None:
    document = five_mistakes()
    document["agents"].append({**root(document), "role": "standard"})
    document["limits"]["maxErrorRate"] = 0.3
    wanted = {"agents[1].slug", "limits.errorRateWindow", "agents[0].role"}
    assert wanted <= set(paths(refusal(document, folder)))


def test_no_pydantic_jargon_reaches_a_refusal(folder: Path) -> None:
    document = five_mistakes()
    root(document)["capabilities"] += [{"id": "nope"}, {}, 5, {"id": "responses-as-code", "params": "x"}]
    document["agents"].append({"slug": "x", "model": "replay", "capabilities": {}})
    text = str(ConfigError("gg.json", refusal(document, folder)))
    assert not [word for word in JARGON if word in text], text


def test_a_value_of_the_wrong_shape_says_which_shape_is_wanted(folder: Path) -> None:
    document = example()
    root(document)["model"] = "replay"
    root(document)["capabilities"] = {"id": "responses-as-code"}
    defects = refusal(document, folder)
    reasons = {d.path: d.reason for d in defects}
    assert reasons["agents[0].model"] == "must be an object (a table in TOML)"
    assert reasons["agents[0].capabilities"] == "must be a list (an array in TOML)"


def test_a_refusal_names_its_source_and_counts_its_defects(folder: Path) -> None:
    path = write(folder, five_mistakes())
    try:
        load_capability_set(path)
    except ConfigError as error:
        lines = str(error).splitlines()
    else:
        raise AssertionError("the set was not refused")
    assert lines[0] == f"{path}: 5 defects"
    assert lines[1] == "  - limits.maxTurns: must be a whole number, 1 or more (found 0)"
    assert len(lines) == 6


def test_a_found_value_is_rendered_as_json() -> None:
    assert render_found("30") == '"30"'
    assert render_found(True) == "true"
    assert render_found(None) == "null"
    assert render_found({"a": [1, 2]}) == '{"a": [1, 2]}'


def test_a_long_found_value_is_cut_with_an_ellipsis() -> None:
    shown = render_found("x" * 500)
    assert len(shown) == MAX_FOUND_CHARS
    assert shown.endswith("…")
    assert shown.startswith(json.dumps("x" * 10)[:10])


def test_key_paths_read_like_the_document() -> None:
    assert render_path(("agents", 0, "capabilities", 1, "params", "idLength")) == (
        "agents[0].capabilities[1].params.idLength"
    )
    assert render_path(("limits", "max turns")) == 'limits["max turns"]'
    assert render_path(()) == "(document)"


def test_a_capability_whose_id_names_a_key_is_still_located_exactly(folder: Path) -> None:
    document = example()
    library(document)["program-library"] = 1
    assert paths(refusal(document, folder)) == ["agents[0].capabilities[1].program-library"]
