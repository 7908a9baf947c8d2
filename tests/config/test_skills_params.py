"""The skills capability: `{"id": "skills", "params": {"directory": ...}}`, resolved beside the config."""

from __future__ import annotations

from pathlib import Path

from .documents import at, example, load, refusal, root

DIRECTORY = "agents[0].capabilities[2].params.directory"


def with_skills(entry: dict[str, object]) -> dict[str, object]:
    document = example()
    root(document)["capabilities"].append({"id": "skills", **entry})
    return document


def test_the_skills_directory_resolves_against_the_config_files_folder(folder: Path) -> None:
    (folder / "team-skills").mkdir()
    loaded = load(with_skills({"enabled": True, "params": {"directory": "team-skills"}}), folder)
    assert loaded.root.skills_directory == (folder / "team-skills").resolve()


def test_the_directory_defaults_to_skills_beside_the_config_file(folder: Path) -> None:
    (folder / "skills").mkdir()
    assert load(with_skills({}), folder).root.skills_directory == (folder / "skills").resolve()


def test_a_missing_skills_directory_refuses_the_launch(folder: Path) -> None:
    defect = at(refusal(with_skills({"params": {"directory": "nowhere"}}), folder), DIRECTORY)
    assert "existing folder" in defect.reason


def test_a_profile_without_skills_or_with_them_disabled_has_no_directory(folder: Path) -> None:
    (folder / "skills").mkdir()
    assert load(example(), folder).root.skills_directory is None
    assert load(with_skills({"enabled": False}), folder).root.skills_directory is None
