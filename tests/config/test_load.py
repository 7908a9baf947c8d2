"""Loading a valid capability set: typed accessors, defaults, resolved paths, immutability."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from gg.config import (
    CapabilityId,
    ErrorRateCeiling,
    Language,
    LibrarySettings,
    ModelCallLimits,
    Provider,
    Role,
    load_capability_set,
)
from gg.config.ceilings import Ceilings

from .documents import EXAMPLE_TOML, at, code_mode, example, library, load, paths, refusal, root, write


def test_the_example_loads_with_typed_accessors(folder: Path) -> None:
    loaded = load_capability_set(write(folder, example()))
    agent = loaded.root
    assert loaded.name == "spec-audit"
    assert agent.slug == "root" and agent.role is Role.STANDARD
    assert agent.model.provider is Provider.REPLAY
    assert agent.responses_as_code.language is Language.JAVASCRIPT
    assert agent.language is Language.JAVASCRIPT
    assert agent.program_library == LibrarySettings(keep=20, id_length=4)
    assert agent.enabled(CapabilityId.PROGRAM_LIBRARY)
    assert loaded.limits.max_turns == 12


def test_json_and_toml_documents_load_to_the_same_capability_set(folder: Path) -> None:
    (folder / "gg.toml").write_text(EXAMPLE_TOML)
    from_toml = load_capability_set(folder / "gg.toml")
    from_json = load_capability_set(write(folder, example()))
    assert from_toml == from_json


def test_defaults_fill_what_a_document_leaves_out(folder: Path) -> None:
    document = example()
    root(document)["capabilities"] = [{"id": "responses-as-code"}]
    del root(document)["role"]
    del document["workspace"]
    agent = load(document, folder).root
    params = agent.responses_as_code
    assert agent.role is Role.STANDARD
    assert (params.language, params.timeout_secs, params.max_memory_bytes) == ("javascript", 30.0, 268435456)
    assert agent.program_library is None


def test_the_workspace_defaults_to_the_folder_workspace_beside_the_config(folder: Path) -> None:
    document = example()
    del document["workspace"]
    assert load(document, folder).workspace == (folder / "workspace").resolve()


def test_a_missing_default_workspace_is_refused_as_absent(tmp_path: Path) -> None:
    (tmp_path / "journal.jsonl").write_text("")
    document = example()
    del document["workspace"]
    (defect,) = refusal(document, tmp_path)
    assert defect.path == "workspace"
    assert defect.found == "(absent)"
    assert str(tmp_path / "workspace") in defect.reason


def test_a_workspace_that_is_a_file_is_refused(folder: Path) -> None:
    document = example()
    document["workspace"] = "journal.jsonl"
    assert paths(refusal(document, folder)) == ["workspace"]


def test_the_loaded_capability_set_is_frozen(folder: Path) -> None:
    loaded = load(example(), folder)
    with pytest.raises(ValidationError):
        loaded.name = "other"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        loaded.root.model.provider = Provider.OPENAI  # type: ignore[misc]
    assert isinstance(loaded.agents, tuple)
    assert isinstance(loaded.root.capabilities, tuple)


def test_paths_are_absolute_after_loading(folder: Path) -> None:
    loaded = load(example(), folder)
    journal = loaded.root.model.journal
    assert loaded.workspace.is_absolute()
    assert journal is not None and journal.is_absolute()


def test_a_ceiling_nobody_wrote_is_not_armed(folder: Path) -> None:
    document = example()
    del document["limits"]
    limits = load(document, folder).limits
    assert all(value is None for _, value in limits)
    assert limits.error_rate is None


def test_a_ceiling_written_as_null_is_not_armed(folder: Path) -> None:
    document = example()
    document["limits"] = {"maxTurns": None, "maxCost": None}
    assert load(document, folder).limits.max_turns is None


def test_every_ceiling_can_be_armed(folder: Path) -> None:
    document = example()
    document["limits"] = {
        "maxTurns": 40,
        "maxRuntimeSecs": 90.5,
        "maxConsecutiveErrors": 3,
        "maxErrorRate": 0.5,
        "errorRateWindow": 10,
        "maxCost": 2.25,
    }
    limits = load(document, folder).limits
    assert (limits.max_turns, limits.max_runtime_secs, limits.max_consecutive_errors) == (40, 90.5, 3)
    assert limits.max_cost == 2.25
    assert limits.error_rate == ErrorRateCeiling(threshold=0.5, window=10)


def test_every_model_request_is_bounded_by_its_limits_their_defaults_unless_written(folder: Path) -> None:
    document = example()
    assert load(document, folder).limits.model_calls == ModelCallLimits(900.0, 10, 60.0)
    document["limits"] = {"modelCallTimeoutSecs": 120, "maxModelRetries": 0, "modelRetryMaxDelaySecs": 2.5}
    assert load(document, folder).limits.model_calls == ModelCallLimits(120.0, 0, 2.5)


def test_timeout_fractions_are_honoured_and_neither_ceiling_is_clamped(folder: Path) -> None:
    document = example()
    code_mode(document)["params"] = {"timeoutSecs": 0.25, "maxMemoryBytes": 5e11}
    params = load(document, folder).root.responses_as_code
    assert params.timeout_secs == 0.25
    assert params.max_memory_bytes == 500_000_000_000
    assert params.ceilings == Ceilings(timeout_secs=0.25, max_memory_bytes=500_000_000_000)


def test_max_memory_bytes_written_as_5e8_is_accepted(folder: Path) -> None:
    document = example()
    code_mode(document)["params"]["maxMemoryBytes"] = 5e8
    assert load(document, folder).root.responses_as_code.max_memory_bytes == 500_000_000


@pytest.mark.parametrize("value", [500000000.5, True, "268435456", 0, -1, 1_000_000])
def test_max_memory_bytes_must_be_a_whole_number_the_engines_can_run_in(folder: Path, value: object) -> None:
    document = example()
    code_mode(document)["params"]["maxMemoryBytes"] = value
    (defect,) = refusal(document, folder)
    assert defect.path == "agents[0].capabilities[0].params.maxMemoryBytes"
    assert defect.reason == (
        "must be a whole number of bytes from 16777216 to 1099511627776 "
        "(the engines need 16 MiB and are given at most 1 TiB)"
    )


@pytest.mark.parametrize(
    ("key", "value"), [("timeoutSecs", 1e308), ("timeoutSecs", 86_400.5), ("maxMemoryBytes", 2**62)]
)
def test_ceilings_no_engine_can_arm_are_refused_not_capped(folder: Path, key: str, value: object) -> None:
    document = example()
    code_mode(document)["params"][key] = value
    (defect,) = refusal(document, folder)
    assert defect.path == f"agents[0].capabilities[0].params.{key}"


def test_a_disabled_program_library_is_treated_as_absent(folder: Path) -> None:
    document = example()
    library(document)["enabled"] = False
    agent = load(document, folder).root
    assert agent.program_library is None
    assert not agent.enabled(CapabilityId.PROGRAM_LIBRARY)


def test_each_agent_resolves_its_own_settings(folder: Path) -> None:
    document = example()
    reviewer = {
        "slug": "reviewer",
        "role": "review",
        "model": {"provider": "openai", "model": "gpt-4o", "temperature": 0, "maxOutputTokens": 4096},
        "capabilities": [{"id": "responses-as-code", "params": {"language": "python"}}],
    }
    document["agents"].append(reviewer)
    loaded = load(document, folder)
    agent = loaded.agent("reviewer")
    assert agent.role is Role.REVIEW and agent.language is Language.PYTHON
    assert agent.model.model == "gpt-4o" and agent.model.max_output_tokens == 4096
    assert agent.program_library is None
    assert loaded.root.program_library is not None
    with pytest.raises(KeyError):
        loaded.agent("nobody")


def test_the_root_is_the_first_agent_listed_whatever_its_slug(folder: Path) -> None:
    document = example()
    helper: dict[str, Any] = {
        "slug": "helper",
        "name": "The helper",
        "model": {"provider": "anthropic", "model": "claude", "cacheLifetime": "1h"},
    }
    helper["capabilities"] = [{"id": "responses-as-code"}]
    document["agents"].insert(0, helper)
    loaded = load(document, folder)
    assert loaded.root.slug == "helper" and loaded.root.name == "The helper"
    assert loaded.agent("helper").binding.cache_lifetime == "1h"


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u2066", "\u2028"])
def test_a_name_holding_a_control_or_bidi_character_is_refused_naming_the_field_and_code_point(
    folder: Path, char: str
) -> None:
    document = example()
    document["name"] = f"audit{char}gnp.exe"
    root(document)["name"] = f"Ro{char}ot"
    document["limits"]["maxTurns"] = -1  # every defect at once
    defects = refusal(document, folder)
    assert paths(defects) == ["name", "limits.maxTurns", "agents[0].name"]
    code_point = f"U+{ord(char):04X}"
    for defect in (at(defects, "name"), at(defects, "agents[0].name")):
        assert defect.reason == f"must hold no control or bidi character; {code_point} is one"
        assert char not in defect.render() and f"\\u{ord(char):04x}" in defect.render()


def test_a_name_of_any_script_is_accepted(folder: Path) -> None:
    document = example()
    document["name"] = "Prüfung der Spezifikationen — 規格"
    root(document)["name"] = "Ελεγκτής"
    loaded = load(document, folder)
    assert loaded.name == "Prüfung der Spezifikationen — 規格" and loaded.root.name == "Ελεγκτής"


def test_a_name_holding_a_lone_surrogate_is_refused_as_one(folder: Path) -> None:
    document = example()
    document["name"] = "audit\ud800x"
    root(document)["name"] = "Ro\udfffot"
    defects = refusal(document, folder)
    assert at(defects, "name").reason == "must be well-formed Unicode; U+D800 is a lone surrogate"
    assert at(defects, "agents[0].name").reason == "must be well-formed Unicode; U+DFFF is a lone surrogate"
    assert at(defects, "name").render() == (
        'name: must be well-formed Unicode; U+D800 is a lone surrogate (found "audit\\ud800x")'
    )
