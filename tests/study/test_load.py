"""Loading a study: the capability set of every config and task, or every defect at its key path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gg.config import Language
from gg.errors import ConfigError
from gg.study.load import load_study, study_schema

from .studies import EXAMPLE, arms_study


def _document(folder: Path) -> dict[str, Any]:
    """The arms study as a JSON-able document, its tasks copied into `folder`."""
    import tomllib

    return tomllib.loads(arms_study(folder).read_text())


def _refusal(folder: Path, document: dict[str, Any]) -> list[tuple[str, str]]:
    file = folder / "study.json"
    (folder / "study.toml").unlink(missing_ok=True)
    file.write_text(json.dumps(document))
    with pytest.raises(ConfigError) as refused:
        load_study(folder)
    return [(defect.path, defect.reason) for defect in refused.value.defects]


def test_every_config_and_task_gets_its_own_capability_set(tmp_path: Path) -> None:
    study = load_study(arms_study(tmp_path))
    assert study.configs == ("javascript", "typescript")
    assert [task.name for task in study.tasks] == ["word-count", "csv-total", "todo-report"]
    assert study.repeats == 2 and study.seed == 3
    typescript = study.sets[("typescript", "csv-total")]
    assert typescript.root.language is Language.TYPESCRIPT
    assert typescript.root.responses_as_code.timeout_secs == 20  # the base's, kept under the override
    assert typescript.root.model.journal == (tmp_path / "tasks/csv-total/typescript.jsonl").resolve()
    assert typescript.root.task == "The task csv-total, as the example words it."
    assert typescript.workspace == (tmp_path / "tasks/csv-total/workspace").resolve()
    assert typescript.limits.max_turns == 8
    assert study.sets[("javascript", "csv-total")].root.language is Language.JAVASCRIPT


def test_the_example_study_is_valid() -> None:
    study = load_study(EXAMPLE)
    assert study.configs == ("javascript", "typescript", "no-library")
    assert study.sets[("no-library", "word-count")].root.program_library is None
    assert study.sets[("javascript", "word-count")].root.program_library is not None


def test_every_defect_is_named_at_once_with_its_key_path(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["repeats"] = 0
    document["configs"]["Bad Name"] = {}
    document["configs"]["typescript"]["agents"][0]["capabilities"][0]["params"]["language"] = "typoscript"
    task = document["tasks"]["csv-total"]
    task["journals"]["rust"] = "tasks/csv-total/javascript.jsonl"
    task["check"] = {"produces": ["../outside.txt"]}
    document["tasks"]["word-count"]["check"] = {"timeoutSecs": 5}
    document["tasks"]["todo-report"]["workspce"] = "x"
    defects = _refusal(tmp_path, document)
    paths = [path for path, _ in defects]
    assert paths == [
        "repeats",
        'configs["Bad Name"]',
        "tasks.word-count.check",
        "tasks.csv-total.check.produces[0]",
        "tasks.csv-total.journals.rust",
        "tasks.todo-report.workspce",
        "configs.typescript.agents[0].capabilities[0].params.language",
        "base.agents[0].model.journal",  # no task names a journal for the config "Bad Name"
    ]
    reasons = dict(defects)
    assert reasons["repeats"] == "must be a whole number from 1 to 1000"
    assert reasons["tasks.todo-report.workspce"].endswith("did you mean workspace?")
    assert (
        reasons["tasks.csv-total.journals.rust"]
        == "names no config of this study (configs: javascript, typescript, Bad Name)"
    )
    assert reasons["configs.typescript.agents[0].capabilities[0].params.language"].startswith(
        "must be one of javascript, typescript"
    )


def test_a_defect_the_base_carries_is_named_once_at_the_base_with_the_configs_it_spoils(
    tmp_path: Path,
) -> None:
    document = _document(tmp_path)
    document["base"]["agents"][0]["capabilities"][1]["params"]["idLength"] = 99
    assert _refusal(tmp_path, document) == [
        (
            "base.agents[0].capabilities[1].params.idLength",
            "must be a whole number from 2 to 32 (with configs javascript, typescript)",
        )
    ]


def test_a_variant_may_not_write_a_key_the_capability_set_lacks(tmp_path: Path) -> None:
    document = _document(tmp_path)
    params = document["configs"]["typescript"]["agents"][0]["capabilities"][0]["params"]
    params["langauge"] = params.pop("language")
    ((path, reason),) = _refusal(tmp_path, document)
    assert path == "configs.typescript.agents[0].capabilities[0].params.langauge"
    assert reason.startswith("is not a key gg knows") and reason.endswith("did you mean language?")


def test_a_task_without_a_journal_for_a_replaying_config_is_named(tmp_path: Path) -> None:
    document = _document(tmp_path)
    del document["tasks"]["todo-report"]["journals"]["typescript"]
    assert _refusal(tmp_path, document) == [
        (
            "base.agents[0].model.journal",
            "is required when the provider is replay: the recorded journal to play (with config typescript)",
        )
    ]


def test_a_journal_that_does_not_exist_is_named_once_at_the_task(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["tasks"]["word-count"]["journals"]["javascript"] = "nowhere.jsonl"
    ((path, reason),) = _refusal(tmp_path, document)
    assert path == "tasks.word-count.journals.javascript"
    assert reason.startswith("must name an existing file")


def test_the_studys_ceilings_are_judged_as_capability_set_ceilings_once(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["limits"]["maxTurns"] = 0
    assert _refusal(tmp_path, document) == [("limits.maxTurns", "must be a whole number, 1 or more")]


def test_a_config_file_is_judged_whole_and_its_defects_name_the_file(tmp_path: Path) -> None:
    document = _document(tmp_path)
    whole = {
        "name": "other",
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay"},
                "capabilities": [{"id": "responses-as-code", "params": {"timeoutSecs": -1}}],
            }
        ],
    }
    (tmp_path / "other.json").write_text(json.dumps(whole))
    document["configs"]["other"] = "other.json"
    for task in document["tasks"].values():
        task["journals"]["other"] = task["journals"]["javascript"]
    assert _refusal(tmp_path, document) == [
        (
            "configs.other.agents[0].capabilities[0].params.timeoutSecs",
            "must be a number of seconds above 0 and at most 86400 (in other.json)",
        )
    ]


def test_a_config_file_that_does_not_exist_is_named(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["configs"]["other"] = "missing.json"
    ((path, reason),) = _refusal(tmp_path, document)
    assert path == "configs.other"
    assert reason == f"names {tmp_path / 'missing.json'}, which does not exist"


def test_a_config_that_is_neither_a_file_nor_an_object_is_named(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["configs"]["other"] = 5
    assert _refusal(tmp_path, document) == [
        ("configs.other", "must be a path to a capability-set file, or an object of capability-set keys")
    ]


def test_a_study_names_at_least_one_config_and_one_task(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["configs"] = {}
    document["tasks"] = {}
    assert _refusal(tmp_path, document) == [
        ("configs", "must name at least one config"),
        ("tasks", "must name at least one task"),
    ]


def test_a_json_study_that_writes_a_key_twice_is_refused(tmp_path: Path) -> None:
    text = json.dumps(_document(tmp_path))
    (tmp_path / "study.toml").unlink()
    (tmp_path / "study.json").write_text(text.replace('"repeats": 2', '"repeats": 2, "repeats": 3'))
    with pytest.raises(ConfigError) as refused:
        load_study(tmp_path / "study.json")
    assert [d.path for d in refused.value.defects] == ["repeats"]


def test_a_folder_must_hold_exactly_one_study_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as neither:
        load_study(tmp_path)
    assert "neither study.toml nor study.json" in neither.value.defects[0].reason
    (tmp_path / "study.toml").write_text("")
    (tmp_path / "study.json").write_text("{}")
    with pytest.raises(ConfigError) as both:
        load_study(tmp_path)
    assert "both study.toml and study.json" in both.value.defects[0].reason


def test_the_fingerprint_follows_what_the_study_file_says(tmp_path: Path) -> None:
    file = arms_study(tmp_path)
    first = load_study(file).fingerprint
    assert load_study(file).fingerprint == first
    file.write_text(file.read_text().replace("repeats = 2", "repeats = 3"))
    assert load_study(file).fingerprint != first


def test_the_study_schema_is_published_with_the_keys_as_written() -> None:
    schema = study_schema()
    assert schema["title"] == "gg study"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(schema["required"]) == {"name", "configs", "tasks"}
    assert {"base", "configs", "tasks", "repeats", "seed", "limits"} <= set(schema["properties"])
    task = schema["$defs"]["TaskDocument"]
    assert set(task["properties"]) == {"workspace", "text", "check", "journals"}
    assert set(schema["$defs"]["CheckDocument"]["properties"]) == {"command", "timeoutSecs", "produces"}


def test_a_study_name_holding_a_control_or_bidi_character_is_refused_naming_it(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["name"] = "arms\u202e\u001b[31m\nFAKE LINE"
    assert _refusal(tmp_path, document) == [
        ("name", "must hold no control or bidi character; U+202E is one"),
    ]
    document["name"] = "arms\u001b[31m"
    assert _refusal(tmp_path, document) == [
        ("name", "must hold no control or bidi character; U+001B is one"),
    ]
