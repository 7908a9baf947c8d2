"""The skills catalogue and `skills.readSkill`: bodies, code modules, keys and their documentation."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gg.config.catalogue import Role
from gg.config.skills import BUILT_IN_FAMILIES, BuiltInSkills
from gg.errors import ErrorCode
from gg.sandbox.languages import JAVASCRIPT, TYPESCRIPT
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.surface import build_surface
from gg.state.skills import SkillCatalogues, SkillReads, SkillShelf, split_front_matter
from gg.state.window import Band, Window
from support.guest_world import QuietLog

from .docworld import World, world

CSV_JS = """/** Split CSV text into rows of cells. */
export function parse(text) {
  return text.split("\\n").map((line) => line.split(","));
}
export const SEPARATOR = ",";
export const join = (rows) => rows.map((row) => row.join(",")).join("\\n");
"""
CSV_TS = """/** Split CSV text into rows of cells. */
export function parse(text: string): string[][] {
  return text.split("\\n").map((line) => line.split(","));
}
export interface Table { rows: string[][] }
"""


def _skill(root: Path, name: str, text: str, **code: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(text)
    for extension, source in code.items():
        (folder / f"skill.{extension}").write_text(source)


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    _skill(
        root,
        "csv-tools",
        "---\nname: csv-tools\ndescription: Read and write CSV.\n---\nUse parse.\n",
        js=CSV_JS,
        ts=CSV_TS,
    )
    _skill(root, "csv_tools", "Plain body, no front matter.\n", js="export const x = 1;\n")
    _skill(root, "notes", "---\ndescription: How to take notes.\n---\n\nTake notes.\n")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "skill.md").write_text("hidden")
    (root / "empty").mkdir()
    return root


def _agent(tmp_path: Path, skills: Path, language=JAVASCRIPT) -> World:  # type: ignore[no-untyped-def]
    return world(tmp_path, capabilities=frozenset({"skills"}), skills=skills, language=language)


def test_front_matter_is_split_from_the_body() -> None:
    assert split_front_matter("---\ndescription: d\nx: y: z\n---\nbody\n") == (
        {"description": "d", "x": "y: z"},
        "body\n",
    )
    assert split_front_matter("no matter\n---\n") == ({}, "no matter\n---\n")
    assert split_front_matter("---\nunclosed\n") == ({}, "---\nunclosed\n")


def test_the_catalogue_lists_each_folder_holding_skill_md_with_its_description(skills: Path) -> None:
    shelf = SkillShelf(skills, ("js",))
    assert [(skill.name, skill.description) for skill in shelf.skills] == [
        ("csv-tools", "Read and write CSV."),
        ("csv_tools", ""),
        ("notes", "How to take notes."),
    ]


def test_read_skill_returns_the_body_and_loads_the_code_module_for_the_next_program(
    tmp_path: Path, skills: Path
) -> None:
    agent = _agent(tmp_path, skills)
    assert agent.surface.modules.current() == ()
    assert agent.call("skills.read_skill", name="csv-tools") == "Use parse.\n"
    assert agent.surface.modules.current() == (CodeModule("csvTools", CSV_JS, "js"),)
    assert agent.call("skills.read_skill", name="notes") == "\nTake notes.\n"
    assert len(agent.surface.modules.current()) == 1  # a skill without code loads nothing


def test_a_colliding_key_takes_a_suffix_and_reading_again_keeps_the_first_key(
    tmp_path: Path, skills: Path
) -> None:
    agent = _agent(tmp_path, skills)
    agent.call("skills.read_skill", name="csv_tools")
    agent.call("skills.read_skill", name="csv-tools")
    agent.call("skills.read_skill", name="csv_tools")
    assert [module.key for module in agent.surface.modules.current()] == ["csvTools", "csvTools2"]


def test_the_typescript_arm_prefers_skill_ts_and_the_javascript_arm_reads_only_skill_js(
    tmp_path: Path, skills: Path
) -> None:
    typed = _agent(tmp_path, skills, TYPESCRIPT)
    typed.call("skills.read_skill", name="csv-tools")
    assert typed.surface.modules.current() == (CodeModule("csvTools", CSV_TS, "ts"),)
    (skills / "csv-tools" / "skill.js").unlink()
    plain = _agent(tmp_path, skills, JAVASCRIPT)
    plain.call("skills.read_skill", name="csv-tools")
    assert plain.surface.modules.current() == ()


def test_a_loaded_modules_exports_are_documented_from_its_own_declarations(
    tmp_path: Path, skills: Path
) -> None:
    agent = _agent(tmp_path, skills, TYPESCRIPT)
    assert agent.refusal("views.open_docs_view", target="csvTools.parse").code is ErrorCode.NOT_FOUND
    agent.call("skills.read_skill", name="csv-tools")
    found = agent.call("docs.search", modules=["lib:csvTools"])
    assert [(hit["key"], hit["kind"]) for hit in found["hits"]] == [
        ("lib:csvTools", "module"),
        ("lib:csvTools.parse", "function"),
        ("lib:csvTools.Table", "type"),
    ]
    assert found["hits"][1]["summary"] == "Split CSV text into rows of cells."
    agent.call("views.open_docs_view", target="csvTools.parse")
    agent.call("views.open_docs_view", target="lib:csvTools")
    _, function_page, module_page = agent.views.close_turn()
    assert function_page.render().splitlines()[:4] == [
        "Documentation: lib:csvTools.parse",
        "----",
        "function parse(text: string): string[][]",
        "Split CSV text into rows of cells.",
    ]
    assert 'import * as csvTools from "lib:csvTools";' in module_page.render()
    assert "Read and write CSV." in module_page.render()


def test_javascript_exports_of_every_form_are_listed(tmp_path: Path, skills: Path) -> None:
    agent = _agent(tmp_path, skills)
    agent.call("skills.read_skill", name="csv-tools")
    found = agent.call("docs.search", modules=["csvTools"])
    assert [hit["name"] for hit in found["hits"]] == ["csvTools", "parse", "join"]
    agent.call("views.open_docs_view", target="lib:csvTools")
    _, page = agent.views.close_turn()
    assert '- `const SEPARATOR = ",";`' in page.render()
    assert "- `const join = (rows) =>`" in page.render()


def test_an_unknown_skill_is_not_found_and_names_the_skills(tmp_path: Path, skills: Path) -> None:
    error = _agent(tmp_path, skills).refusal("skills.read_skill", name="csv")
    assert error.code is ErrorCode.NOT_FOUND and error.operation == "read_skill"
    assert all(f"`{name}`" in error.message for name in ["csv-tools", "csv_tools", "notes"])
    assert "`.hidden`" not in error.message and "`empty`" not in error.message


def test_read_skill_is_unavailable_without_the_capability(tmp_path: Path) -> None:
    error = world(tmp_path).refusal("skills.read_skill", name="notes")
    assert error.code is ErrorCode.UNAVAILABLE


def test_an_oversized_skill_file_is_refused(tmp_path: Path, skills: Path) -> None:
    (skills / "notes" / "skill.md").write_text("x" * (1024 * 1024 + 1))
    error = _agent(tmp_path, skills).refusal("skills.read_skill", name="notes")
    assert error.code is ErrorCode.LIMIT_EXCEEDED


def test_each_skill_read_joins_the_windows_read_set_once(tmp_path: Path, skills: Path) -> None:
    agent = _agent(tmp_path, skills)
    scope = agent.scope()
    membrane = Membrane(default_registry(), scope, QuietLog(), JAVASCRIPT.id)
    for name in ("notes", "csv-tools", "notes"):
        membrane("skills.read_skill", {"name": name})
    assert scope.skills_read.names == ("notes", "csv-tools")


def test_flat_md_files_are_skills_beside_folders_sorted_by_name(tmp_path: Path, skills: Path) -> None:
    (skills / "bolts.md").write_text("---\nname: bolts\ndescription: Star pattern.\n---\nBOLTS-BODY\n")
    (skills / "readme.txt").write_text("not a skill")
    (skills / ".draft.md").write_text("not a skill either")
    shelf = SkillShelf(skills, ("js",))
    assert [skill.name for skill in shelf.skills] == ["bolts", "csv-tools", "csv_tools", "notes"]
    assert shelf.skills[0].description == "Star pattern."
    assert _agent(tmp_path, skills).call("skills.read_skill", name="bolts") == "BOLTS-BODY\n"


def test_a_read_pins_the_body_in_the_window_once_however_often_it_is_read(
    tmp_path: Path, skills: Path
) -> None:
    agent = _agent(tmp_path, skills)
    window, reads = Window(system="s"), SkillReads()
    scope = replace(agent.scope(), window=window, skills_read=reads)
    membrane = Membrane(default_registry(), scope, QuietLog(), JAVASCRIPT.id)
    for name in ("notes", "csv-tools", "notes"):
        membrane("skills.read_skill", {"name": name})
    pinned = [message.content for mark, message in window.held() if mark.band is Band.SKILL]
    assert pinned == ["Skill `notes`\n----\nTake notes.", "Skill `csv-tools`\n----\nUse parse."]
    assert reads.names == ("notes", "csv-tools")
    window.restart([])  # a compaction keeps every pinned body
    assert [m.content for mark, m in window.held() if mark.pinned] == pinned


def test_two_profiles_naming_one_directory_hold_one_loaded_catalogue(tmp_path: Path, skills: Path) -> None:
    catalogues = SkillCatalogues()
    one = catalogues.shelf(skills, ("js",))
    assert catalogues.shelf(tmp_path / "skills" / ".." / "skills", ("js",)) is one
    (tmp_path / "other").mkdir()
    assert catalogues.shelf(tmp_path / "other", ("js",)) is not one


def test_gg_offers_its_own_skills_for_the_families_the_agent_may_call_each_its_reference_pages(
    tmp_path: Path, skills: Path
) -> None:
    shelf = SkillShelf(skills, ("js",))
    offered = [name for name in BUILT_IN_FAMILIES if name != "gg-session"]
    surface = build_surface(default_registry(), JAVASCRIPT, Role.STANDARD, {"skills"}, shelf, offered)
    assert surface.skills is not None
    names = [skill.name for skill in surface.skills.skills]
    assert names == sorted(names) and "csv-tools" in names
    assert "gg-filesystem" in names and "gg-skills" in names
    assert "gg-session" not in names  # switched off
    assert "gg-shell" not in names and "gg-tasks" not in names  # the agent may call none of theirs
    files = surface.skills.get("gg-filesystem")
    assert files is not None and files.description
    body = surface.skills.read(files).body
    assert "readFile" in body and body.startswith(
        next(page.body for page in surface.docs if page.key == "gg.files")
    )
    assert [skill.name for skill in shelf.skills] == [
        "csv-tools",
        "csv_tools",
        "notes",
    ]  # the directory's own


def test_every_family_a_builtins_object_may_name_is_one_of_ggs_own() -> None:
    written = {field.alias for field in BuiltInSkills.model_fields.values()}
    assert written == set(BUILT_IN_FAMILIES) and len(BUILT_IN_FAMILIES) == 12
    assert set(BUILT_IN_FAMILIES.values()) == {op.family for op in default_registry()}


def test_a_directory_skill_named_like_one_of_ggs_own_replaces_it_and_the_shelf_says_which(
    tmp_path: Path, skills: Path
) -> None:
    (skills / "gg-filesystem.md").write_text("---\ndescription: Our own file rules.\n---\nOURS\n")
    shelf = SkillShelf(skills, ("js",))
    surface = build_surface(
        default_registry(), JAVASCRIPT, Role.STANDARD, {"skills"}, shelf, BUILT_IN_FAMILIES
    )
    assert surface.skills is not None
    names = [skill.name for skill in surface.skills.skills]
    assert names.count("gg-filesystem") == 1 and "gg-views" in names
    files = surface.skills.get("gg-filesystem")
    assert files is not None and files.description == "Our own file rules."
    assert surface.skills.read(files).body == "OURS\n"
    assert surface.skills.replaced == ("gg-filesystem",)
    assert shelf.replaced == ()  # the directory's own catalogue replaces nothing


README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_names_each_of_ggs_own_skills_exactly() -> None:
    names = [
        "gg-filesystem",
        "gg-shell",
        "gg-project",
        "gg-tasks",
        "gg-memory",
        "gg-skills",
        "gg-context",
        "gg-delegation",
        "gg-docs",
        "gg-views",
        "gg-programs",
        "gg-session",
    ]
    assert set(names) == set(BUILT_IN_FAMILIES)
    text = " ".join(README.read_text().split())
    assert [name for name in names if f"`{name}`" not in text] == []
    assert "`gg-<family>`" not in text
    assert "`gg-filesystem` (`gg:files`)" in text and "`gg-memory` (`gg:memories`)" in text
