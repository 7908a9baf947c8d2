"""The skills capability: `{"id": "skills", "params": {"dir": ..., "builtIns": {...}}}` (anchor-state
§1.5): both required when enabled; `dir` a folder of the workspace whose catalogue loads whole;
`builtIns` naming which of gg's twelve own skill families are switched off."""

from __future__ import annotations

from pathlib import Path

import pytest

from .documents import at, example, load, refusal, root

PARAMS = "agents[0].capabilities[2].params"
OFF = {"gg-filesystem": False, "gg-session": False}


def with_skills(entry: dict[str, object]) -> dict[str, object]:
    document = example()
    root(document)["capabilities"].append({"id": "skills", **entry})
    return document


def test_the_skills_dir_is_a_folder_of_the_workspace(folder: Path) -> None:
    (folder / "workspace" / ".gg" / "skills").mkdir(parents=True)
    loaded = load(with_skills({"params": {"dir": ".gg/skills", "builtIns": {}}}), folder)
    assert (
        loaded.root.skills_directory(loaded.workspace) == (folder / "workspace" / ".gg" / "skills").resolve()
    )


@pytest.mark.parametrize("missing", ["dir", "builtIns"])
def test_an_enabled_skills_capability_writes_dir_and_builtins(folder: Path, missing: str) -> None:
    (folder / "workspace" / "skills").mkdir(parents=True)
    params = {k: v for k, v in {"dir": "skills", "builtIns": {}}.items() if k != missing}
    defect = at(refusal(with_skills({"params": params}), folder), f"{PARAMS}.{missing}")
    assert "is required when skills is enabled" in defect.reason


def test_a_dir_that_is_not_a_folder_of_the_workspace_refuses_the_launch(folder: Path) -> None:
    (folder / "skills").mkdir()
    absent = at(refusal(with_skills({"params": {"dir": "skills", "builtIns": {}}}), folder), f"{PARAMS}.dir")
    assert "existing folder of the workspace" in absent.reason
    outside = refusal(with_skills({"params": {"dir": "../skills", "builtIns": {}}}), folder)
    assert "leads outside it" in at(outside, f"{PARAMS}.dir").reason


def test_a_skill_given_both_as_a_file_and_as_a_folder_refuses_the_launch(folder: Path) -> None:
    skills = folder / "workspace" / "skills"
    (skills / "guide").mkdir(parents=True)
    (skills / "guide" / "skill.md").write_text("folder\n")
    (skills / "guide.md").write_text("file\n")
    defect = at(refusal(with_skills({"params": {"dir": "skills", "builtIns": {}}}), folder), f"{PARAMS}.dir")
    assert "`guide` twice" in defect.reason


def test_builtins_names_the_families_switched_off_and_refuses_an_unknown_one(folder: Path) -> None:
    (folder / "workspace" / "skills").mkdir(parents=True)
    loaded = load(with_skills({"params": {"dir": "skills", "builtIns": OFF}}), folder)
    (capability,) = [c for c in loaded.root.capabilities if getattr(c, "id", None) == "skills"]
    assert capability.params.built_ins.switched_off == {"gg-filesystem", "gg-session"}  # type: ignore[union-attr]
    unknown = refusal(with_skills({"params": {"dir": "skills", "builtIns": {"gg-gearbox": False}}}), folder)
    assert any("gg-gearbox" in defect.path for defect in unknown)
    loose = refusal(with_skills({"params": {"dir": "skills", "builtIns": {"gg-shell": "no"}}}), folder)
    assert at(loose, f"{PARAMS}.builtIns.gg-shell")


def test_a_profile_without_skills_or_with_them_disabled_has_no_directory(folder: Path) -> None:
    (folder / "workspace" / "skills").mkdir(parents=True)
    loaded = load(example(), folder)
    assert loaded.root.skills_directory(loaded.workspace) is None
    disabled = load(with_skills({"enabled": False}), folder)
    assert disabled.root.skills_directory(disabled.workspace) is None
