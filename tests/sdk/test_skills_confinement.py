"""The skills catalogue reads inside the workspace only: a link is not a skill, and a file a link
leads out of the workspace through is refused `io-error`, never read, whenever it was planted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gg.errors import ErrorCode, OperationError
from gg.state.skills import SkillCatalogues, SkillShelf

from .docworld import world

SECRET = "HOST-SECRET-7f3a"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "secret.txt").write_text(SECRET)
    (tmp_path / "host.js").write_text(f'export const secret = "{SECRET}";\n')
    skills = tmp_path / "ws" / "skills"
    (skills / "notes").mkdir(parents=True)
    (skills / "notes" / "skill.md").write_text("---\ndescription: Take notes.\n---\nTake notes.")
    (skills / "plain.md").write_text("A plain skill.")
    return tmp_path / "ws"


def _shelf(workspace: Path) -> SkillShelf:
    return SkillCatalogues().shelf(workspace / "skills", ("js",), workspace)


def _refusal(shelf: SkillShelf, name: str) -> OperationError:
    skill = shelf.get(name)
    assert skill is not None
    with pytest.raises(OperationError) as refused:
        shelf.read(skill)
    assert refused.value.code is ErrorCode.IO_ERROR
    assert SECRET not in refused.value.message and str(workspace) not in refused.value.message
    return refused.value


def test_a_link_planted_before_the_run_is_not_a_skill(workspace: Path) -> None:
    skills = workspace / "skills"
    (skills / "shadow.md").symlink_to(workspace.parent / "secret.txt")
    (skills / "away").symlink_to(workspace.parent)
    (skills / "inside.md").symlink_to(skills / "plain.md")
    assert [skill.name for skill in _shelf(workspace).skills] == ["notes", "plain"]


def test_a_skill_file_swapped_for_a_link_out_during_the_run_is_refused_unread(workspace: Path) -> None:
    shelf = _shelf(workspace)
    for name, path in (("plain", "plain.md"), ("notes", "notes/skill.md")):
        target = workspace / "skills" / path
        target.unlink()
        target.symlink_to(workspace.parent / "secret.txt")
        refused = _refusal(shelf, name)
        assert f"`skills/{path}` is outside the workspace" in refused.message


def test_a_code_module_linking_out_is_refused_and_one_linking_inside_is_read(workspace: Path) -> None:
    shelf = _shelf(workspace)
    code = workspace / "skills" / "notes" / "skill.js"
    code.symlink_to(workspace.parent / "host.js")
    _refusal(shelf, "notes")
    code.unlink()
    (workspace / "lib.js").write_text("export const x = 1;\n")
    code.symlink_to(Path("..") / ".." / "lib.js")
    skill = shelf.get("notes")
    assert skill is not None and shelf.read(skill).code == ("export const x = 1;\n", "js")


def test_a_program_reading_a_skill_swapped_for_a_link_out_gets_io_error(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    skills.mkdir()
    (skills / "leak.md").write_text("harmless")
    agent = world(tmp_path, capabilities=frozenset({"skills"}), skills=skills)
    os.unlink(skills / "leak.md")
    (skills / "leak.md").symlink_to(tmp_path / "outside.txt")
    (tmp_path / "outside.txt").write_text(SECRET)
    with pytest.raises(OperationError) as refused:
        agent.call("skills.read_skill", name="leak")
    assert refused.value.code is ErrorCode.IO_ERROR and SECRET not in refused.value.message
