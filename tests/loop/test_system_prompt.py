"""The system prompt names modules, never their functions; each arm's segment is its own."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

import pytest

from gg.config.catalogue import Role
from gg.loop.system import system_prompt
from gg.prompts import render
from gg.sandbox.languages import LANGUAGES
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import Ending
from gg.state.skills import Skill

REGISTRY = default_registry()
DISCOVERY = {"docs.search", "views.open_docs_view"}


def _named_functions(text: str, *, allowed: Collection[str] = ()) -> list[str]:
    """The SDK functions `text` names (as `name(` or `.name`), apart from `allowed` wire keys."""
    return [
        op.wire
        for op in REGISTRY
        if op.wire not in allowed and re.search(rf"(\.{op.js_name}\b|\b{op.js_name}\()", text)
    ]


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_the_module_list_gives_path_brief_and_import_line_and_names_no_function(language: str) -> None:
    spec = LANGUAGES[language]
    prompt = system_prompt(REGISTRY, spec, Role.STANDARD, frozenset())
    modules = prompt.split("The SDK's modules, each with the line that brings it into scope:\n", 1)[1]
    listing = [line for line in modules.splitlines() if line.startswith("- ")]
    assert listing[0] == (
        '- `gg.files`: read, write, edit and list the files of your workspace. `import { files } from "gg";`'
    )
    assert [line.split("`")[1] for line in listing] == [
        "gg.files",
        "gg.views",
        "gg.docs",
        "gg.context",
        "gg.session",
    ]
    endings = {op.wire for op in REGISTRY if isinstance(op.gate, Ending)}
    assert _named_functions(prompt, allowed=DISCOVERY | endings) == []
    assert "`gg.docs.search`" in prompt and "`gg.views.openDocsView`" in prompt
    assert "FileRead" not in prompt and "readFile" not in prompt


def test_a_module_the_agent_may_not_call_is_not_listed() -> None:
    listed = system_prompt(
        REGISTRY, LANGUAGES["javascript"], Role.REVIEW, frozenset({"program-library", "skills"})
    )
    assert "- `gg.programs`:" in listed and "- `gg.skills`:" in listed
    assert "- `gg.skills`:" not in system_prompt(REGISTRY, LANGUAGES["javascript"], Role.REVIEW, frozenset())


def test_the_skills_an_agent_may_read_are_listed_by_name_and_description() -> None:
    skills = [Skill("csv-tools", "Read and write CSV.", Path("csv-tools")), Skill("notes", "", Path("notes"))]
    prompt = system_prompt(
        REGISTRY, LANGUAGES["typescript"], Role.STANDARD, frozenset({"skills"}), skills=skills
    )
    assert prompt.endswith("Skills you can read, by name:\n- `csv-tools`: Read and write CSV.\n- `notes`")


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_each_arm_has_its_own_segment_of_at_most_two_paragraphs_naming_no_function(language: str) -> None:
    segment = render(LANGUAGES[language].segment_template)
    assert 1 <= len(segment.split("\n\n")) <= 2
    assert _named_functions(segment) == []
    assert f"program.{'ts' if language == 'typescript' else 'js'}" in segment
    assert ("type-checked" in segment) is (language == "typescript")
