"""`gg.load`: a capability set from a path, a document or one built in code, every defect at once."""

from __future__ import annotations

from pathlib import Path

import pytest

import gg

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"


def test_a_path_a_folder_a_document_and_a_capability_set_load_to_the_same_value() -> None:
    from_folder = gg.load(EXAMPLE)
    assert gg.load(str(EXAMPLE / "gg.json")) == from_folder
    document = from_folder.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert gg.load(document) == from_folder
    assert gg.load(from_folder) == from_folder
    assert isinstance(from_folder, gg.CapabilitySet) and from_folder.root.slug == "root"


def test_a_document_resolves_its_relative_paths_against_base(tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "j.jsonl").write_text("{}\n")
    document = {
        "name": "based",
        "workspace": "here",
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay", "journal": "j.jsonl"},
                "capabilities": [{"id": "responses-as-code"}],
            }
        ],
    }
    loaded = gg.load(document, base=tmp_path)
    assert loaded.workspace == tmp_path / "here" and loaded.root.model.journal == tmp_path / "j.jsonl"


def test_a_capability_set_changed_in_code_is_judged_again_whole() -> None:
    loaded = gg.load(EXAMPLE)
    limits = loaded.limits.model_copy(update={"max_turns": 0})
    with pytest.raises(gg.ConfigError) as refused:
        gg.load(loaded.model_copy(update={"limits": limits}))
    assert [d.path for d in refused.value.defects] == ["limits.maxTurns"]


def test_a_refused_document_names_every_defect_in_one_error() -> None:
    with pytest.raises(gg.ConfigError) as refused:
        gg.load({"name": "", "agents": [{"slug": "x", "model": {"provider": "replay"}}]})
    assert "4 defects" in str(refused.value)
    assert [d.path for d in refused.value.defects] == [
        "name",
        "agents[0].model.journal",
        "agents[0].capabilities",
        "workspace",
    ]


def test_a_value_that_is_no_capability_set_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"gg\.load takes a path, a mapping or a CapabilitySet, not int"):
        gg.load(42)  # type: ignore[arg-type]


def test_an_ablation_naming_none_of_ggs_operations_is_one_defect_among_the_others() -> None:
    document = gg.load(EXAMPLE).model_dump(mode="json", by_alias=True, exclude_none=True)
    document["agents"][0]["disabledOperations"] = ["files.*", "shell.shel"]
    document["limits"] = {"maxTurns": 0}
    with pytest.raises(gg.ConfigError) as refused:
        gg.load(document)
    paths = [defect.path for defect in refused.value.defects]
    assert "limits.maxTurns" in paths and "agents[0].disabledOperations[1]" in paths and len(paths) == 2
