"""Refusals: each rule of a capability set, named at its key path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .documents import at, code_mode, example, library, load, paths, refusal, root


def agent(slug: str, **model: Any) -> dict[str, Any]:
    return {
        "slug": slug,
        "model": model or {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [{"id": "responses-as-code"}],
    }


def test_any_slug_may_be_the_root(folder: Path) -> None:
    document = example()
    root(document)["slug"] = "main"
    assert load(document, folder).root.slug == "main"


def test_slugs_must_be_unique(folder: Path) -> None:
    document = example()
    document["agents"] += [agent("helper"), agent("helper")]
    defect = at(refusal(document, folder), "agents[2].slug")
    assert defect.reason == "repeats the slug of agents[1]; slugs are unique"


def test_an_empty_agent_list_is_refused(folder: Path) -> None:
    document = example()
    document["agents"] = []
    (defect,) = refusal(document, folder)
    assert (defect.path, defect.reason, defect.found) == ("agents", "must list at least one agent", "[]")


@pytest.mark.parametrize(
    "slug", ["Root", "with space", "under_score", "", 7, "-lead", "trail-", "two--hyphens"]
)
def test_slugs_are_lowercase_letters_digits_and_hyphens(folder: Path, slug: object) -> None:
    document = example()
    document["agents"].append({**agent("x"), "slug": slug})
    assert "lowercase letters, digits and hyphens" in at(refusal(document, folder), "agents[1].slug").reason


def test_a_required_key_left_out_is_named_absent(folder: Path) -> None:
    document = example()
    del document["name"]
    del root(document)["model"]
    defects = refusal(document, folder)
    assert sorted(paths(defects)) == ["agents[0].model", "name"]
    assert all(d.found == "(absent)" and d.reason == "is required" for d in defects)


def test_max_error_rate_without_its_window_is_refused(folder: Path) -> None:
    document = example()
    document["limits"]["maxErrorRate"] = 0.5
    defect = at(refusal(document, folder), "limits.errorRateWindow")
    assert defect.found == "(absent)"
    assert defect.reason.startswith("is required when maxErrorRate is written")


def test_an_error_rate_window_without_its_rate_is_refused(folder: Path) -> None:
    document = example()
    document["limits"]["errorRateWindow"] = 10
    assert at(refusal(document, folder), "limits.maxErrorRate").reason.startswith(
        "is required when errorRateWindow is written"
    )


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("maxTurns", 0, "must be a whole number, 1 or more"),
        ("maxTurns", 2.5, "must be a whole number, 1 or more"),
        ("maxRuntimeSecs", 0, "must be a number of seconds above 0"),
        ("maxConsecutiveErrors", "3", "must be a whole number, 1 or more"),
        ("maxCost", -1, "must be an amount in USD above 0"),
        ("maxCost", True, "must be an amount in USD above 0"),
        ("modelCallTimeoutSecs", 0, "must be a number of seconds above 0 and at most 86400"),
        ("modelRetryMaxDelaySecs", 0, "must be a number of seconds above 0 and at most 86400"),
        ("maxModelRetries", -1, "must be a whole number, 0 or more (0 gives up on the first failure)"),
        ("maxModelRetries", 2.5, "must be a whole number, 0 or more (0 gives up on the first failure)"),
    ],
)
def test_each_ceiling_refuses_values_outside_its_range(
    folder: Path, key: str, value: object, reason: str
) -> None:
    document = example()
    document["limits"][key] = value
    assert at(refusal(document, folder), f"limits.{key}").reason == reason


@pytest.mark.parametrize("rate", [0, 1.01, "0.5"])
def test_the_error_rate_is_a_fraction_above_zero_and_at_most_one(folder: Path, rate: object) -> None:
    document = example()
    document["limits"] |= {"maxErrorRate": rate, "errorRateWindow": 10}
    assert (
        at(refusal(document, folder), "limits.maxErrorRate").reason
        == "must be a fraction above 0 and at most 1"
    )


def test_every_agent_must_list_responses_as_code(folder: Path) -> None:
    document = example()
    root(document)["capabilities"] = [library(document)]
    defect = at(refusal(document, folder), "agents[0].capabilities")
    assert defect.reason == "must list responses-as-code, enabled: code mode is the only mode"
    assert defect.found == '["program-library"]'


def test_an_agent_that_lists_no_capabilities_is_refused(folder: Path) -> None:
    document = example()
    del root(document)["capabilities"]
    assert at(refusal(document, folder), "agents[0].capabilities").found == "(absent)"


def test_responses_as_code_cannot_be_switched_off(folder: Path) -> None:
    document = example()
    code_mode(document)["enabled"] = False
    defect = at(refusal(document, folder), "agents[0].capabilities[0].enabled")
    assert defect.reason == "must be true: code mode is the only mode"


def test_a_capability_listed_twice_is_refused(folder: Path) -> None:
    document = example()
    root(document)["capabilities"].append({"id": "program-library", "enabled": False})
    defect = at(refusal(document, folder), "agents[0].capabilities[2].id")
    assert defect.reason == "lists program-library again (first at capabilities[1])"


def test_an_unknown_capability_id_is_refused(folder: Path) -> None:
    document = example()
    root(document)["capabilities"].append({"id": "telepathy", "enabled": True})
    defect = at(refusal(document, folder), "agents[0].capabilities[2].id")
    assert defect.found == '"telepathy"'
    assert defect.reason.startswith("is not a capability gg knows")
    assert "program-library" in defect.reason and "responses-as-code" in defect.reason


def test_a_capability_without_an_id_is_refused(folder: Path) -> None:
    document = example()
    root(document)["capabilities"].append({"enabled": True})
    assert at(refusal(document, folder), "agents[0].capabilities[2].id").found == "(absent)"


@pytest.mark.parametrize(("key", "value"), [("enabled", "yes"), ("enabled", 1), ("params", [1])])
def test_a_capability_entry_is_judged_key_by_key(folder: Path, key: str, value: object) -> None:
    document = example()
    code_mode(document)[key] = value
    assert paths(refusal(document, folder)) == [f"agents[0].capabilities[0].{key}"]


def test_the_language_is_one_of_the_arms(folder: Path) -> None:
    document = example()
    code_mode(document)["params"]["language"] = "rust"
    defect = at(refusal(document, folder), "agents[0].capabilities[0].params.language")
    assert defect.reason == "must be one of javascript, typescript, python, python-typed"


def test_a_replay_model_needs_a_journal(folder: Path) -> None:
    document = example()
    del root(document)["model"]["journal"]
    defect = at(refusal(document, folder), "agents[0].model.journal")
    assert defect.reason == "is required when the provider is replay: the recorded journal to play"


def test_a_journal_that_does_not_exist_is_refused(folder: Path) -> None:
    document = example()
    root(document)["model"]["journal"] = "missing.jsonl"
    defect = at(refusal(document, folder), "agents[0].model.journal")
    assert defect.reason.startswith("must name an existing file; there is none at")
    assert str(folder / "missing.jsonl") in defect.reason


def test_other_providers_need_a_model_id_and_read_no_journal(folder: Path) -> None:
    document = example()
    root(document)["model"]["provider"] = "openrouter"
    defects = refusal(document, folder)
    assert (
        at(defects, "agents[0].model.model").reason
        == "is required when the provider is openrouter: the model's id"
    )
    assert at(defects, "agents[0].model.journal").reason == "is read only by the replay provider"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("provider", "azure"),
        ("maxOutputTokens", 0),
        ("temperature", 2.5),
        ("temperature", -0.1),
        ("cacheLifetime", "2h"),
        ("baseUrl", "ftp://example.com"),
        ("apiKeyEnv", "1KEY"),
    ],
)
def test_model_options_are_checked(folder: Path, key: str, value: object) -> None:
    document = example()
    root(document)["model"][key] = value
    assert f"agents[0].model.{key}" in paths(refusal(document, folder))


@pytest.mark.parametrize(
    ("place", "path"),
    [
        ((), "colour"),
        (("limits",), "limits.colour"),
        (("agents", 0), "agents[0].colour"),
        (("agents", 0, "model"), "agents[0].model.colour"),
        (("agents", 0, "capabilities", 0), "agents[0].capabilities[0].colour"),
        (("agents", 0, "capabilities", 1, "params"), "agents[0].capabilities[1].params.colour"),
    ],
)
def test_unknown_keys_anywhere_are_defects(folder: Path, place: tuple[str | int, ...], path: str) -> None:
    document = example()
    node: Any = document
    for key in place:
        node = node[key]
    node["colour"] = "blue"
    (defect,) = refusal(document, folder)
    assert (defect.path, defect.found) == (path, '"blue"')
    assert defect.reason.startswith("is not a key gg knows")


def test_an_unknown_key_close_to_a_known_one_is_named_with_a_suggestion(folder: Path) -> None:
    document = example()
    document["limits"] = {"maxTurn": 12}
    (defect,) = refusal(document, folder)
    assert defect.path == "limits.maxTurn"
    assert defect.reason.endswith("did you mean maxTurns?")
    assert "known here: maxTurns, maxRuntimeSecs" in defect.reason


def test_snake_case_spellings_of_known_keys_are_refused(folder: Path) -> None:
    document = example()
    document["limits"] = {"max_turns": 12}
    assert paths(refusal(document, folder)) == ["limits.max_turns"]


def test_a_workspace_that_names_a_file_is_refused_as_a_file_not_a_folder(folder: Path) -> None:
    document = example()
    (folder / "notes.md").write_text("a file\n")
    document["workspace"] = "notes.md"
    defect = at(refusal(document, folder), "workspace")
    assert (
        defect.reason
        == f"must name an existing folder; {(folder / 'notes.md').resolve()} is a file, not a folder"
    )
