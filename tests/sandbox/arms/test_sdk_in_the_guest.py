"""The real SDK (the default registry) through the real guest, on both arms: the seed's program,
documentation reached from a program, a code module loaded by one program and used by the next.

The membrane, workspace, views and surface are gg's own; only the model is absent.
"""

from __future__ import annotations

import pytest

from gg.outcome import ErrorType
from support.guest_world import GuestAgent

# The program of the seed's programs page, byte for byte; it is valid JavaScript as it stands.
SEED_PROGRAM = """import { files, session, views } from "gg";

const specs = files.listDir("specs").filter((e) => e.kind === "file");
const missing = specs.filter((e) => {
  const read = files.readFile(`specs/${e.name}`);
  return read.kind === "text" && !read.contents.includes("## Rules");
});
views.openText("missing-rules", missing.map((e) => e.name).join("\\n"));
if (missing.length === 0) {
  session.finish(`Checked ${specs.length} spec files; each has rules.`);
}
"""


pytestmark = pytest.mark.arms("javascript", "typescript")


def test_the_seeds_program_runs_unchanged(agent: GuestAgent) -> None:
    execution, scope = agent.run(SEED_PROGRAM)
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    assert view.render() == "View: missing-rules\n----\nbilling.md"
    assert scope.declarations.ending is None
    (agent.workspace.root / "specs" / "billing.md").write_text("# Billing\n\n## Rules\n- pay\n")
    execution, scope = agent.run(SEED_PROGRAM)
    assert execution.ok and scope.declarations.ending is not None
    assert scope.declarations.ending.final_text == "Checked 2 spec files; each has rules."


def test_a_program_searches_the_docs_and_opens_a_function_by_passing_it(agent: GuestAgent) -> None:
    source = (
        'import { docs, files, views } from "gg";\n'
        'const found = docs.search({ query: "list directory", limit: 1 });\n'
        "views.openDocsView(files.listDir);\n"
        'views.openDocsView("gg.docs.search");\n'
        'views.openText("first hit", found.hits[0].key + " of " + found.total);\n'
    )
    execution, _ = agent.run(source)
    assert execution.ok, execution.failure
    assert [view.selector for view in agent.views.close_turn()] == [
        "search results",
        "gg.files.listDir",
        "gg.docs.search",
        "first hit",
    ]


def test_a_module_in_scope_is_not_a_name_in_scope(agent: GuestAgent) -> None:
    execution, _ = agent.run('const found = docs.search({ query: "view" });\n')
    assert execution.failure is not None
    expected = (
        ErrorType.PROGRAM_UNKNOWN_NAME if agent.arm.language == "javascript" else ErrorType.TRANSPILE_COMPILE
    )
    assert execution.failure.type is expected and "docs" in execution.failure.text


def test_an_unknown_docs_name_fails_as_not_found_with_suggestions(agent: GuestAgent) -> None:
    execution, _ = agent.run('import { views } from "gg";\nviews.openDocsView("files.readFiles");\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_API_ERROR
    text = execution.failure.text
    assert "not-found" in text and "did you mean `gg.files.readFile`" in text


def test_a_skills_code_module_is_importable_from_the_next_program_on(agent: GuestAgent) -> None:
    reader = 'import { skills, views } from "gg";\nviews.openText("body", skills.readSkill("csv-tools"));\n'
    execution, _ = agent.run(reader + 'await import("lib:csvTools");\n')
    assert execution.failure is not None and "cannot import lib:csvTools" in execution.failure.text
    agent.views.close_turn()
    user = (
        'import * as csvTools from "lib:csvTools";\nimport { views } from "gg";\n'
        'views.openText("cells", String(csvTools.parse("a,b\\nc,d").length));\n'
    )
    execution, _ = agent.run(user)
    assert execution.ok, execution.failure
    assert [view.render().splitlines()[-1] for view in agent.views.close_turn()] == ["2"]
