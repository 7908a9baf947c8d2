"""The real SDK (the default registry) through the Python arm, both twins, with gg's own
membrane, workspace, views and surface: the seed's program in Python, documentation reached from
a program, and a skill's `skill.py` loaded by one program and used by the next."""

from __future__ import annotations

import pytest

from gg.outcome import ErrorType
from support.guest_world import GuestAgent

# The seed's programs-page program, in Python.
SEED_PROGRAM = """import gg

specs = [e for e in gg.files.list_dir("specs") if e.kind == "file"]
missing = []
for entry in specs:
    read = gg.files.read_file(f"specs/{entry.name}")
    if read.kind == "text" and "## Rules" not in read.contents:
        missing.append(entry.name)
gg.views.open_text("missing-rules", "\\n".join(missing))
if not missing:
    gg.session.finish(f"Checked {len(specs)} spec files; each has rules.")
"""


pytestmark = pytest.mark.arms("python", "python-typed")


def test_the_seeds_program_runs_in_python(agent: GuestAgent) -> None:
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
        "from gg import docs, files, views\n"
        'found = docs.search(query="list directory", limit=1)\n'
        "views.open_docs_view(files.list_dir)\n"
        'views.open_docs_view("gg.docs.search")\n'
        'views.open_text("first hit", found.hits[0].key + " of " + str(found.total))\n'
    )
    execution, _ = agent.run(source)
    assert execution.ok, execution.failure
    assert [view.selector for view in agent.views.close_turn()] == [
        "search results",
        "gg.files.list_dir",
        "gg.docs.search",
        "first hit",
    ]


def test_an_ending_of_another_role_is_unavailable(agent: GuestAgent) -> None:
    source = (
        "import gg\ntry:\n    gg.session.approve()\n"
        'except gg.ApiError as e:\n    gg.views.open_text("e", str(e))\n'
    )
    execution, _ = agent.run(source)
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    assert view.render().startswith(
        "View: e\n----\napprove: unavailable: `gg.session.approve` is not available"
    )


def test_a_skills_code_module_is_importable_from_the_next_program_on(agent: GuestAgent) -> None:
    reader = 'import gg\ngg.views.open_text("body", gg.skills.read_skill("csv-tools"))\n'
    execution, _ = agent.run(reader + "from lib import csv_tools\n")
    assert execution.failure is not None and execution.failure.type in {
        ErrorType.PROGRAM_THROW,
        ErrorType.TRANSPILE_COMPILE,
    }
    agent.views.close_turn()
    user = (
        "from lib import csv_tools\nimport gg\n"
        'gg.views.open_text("cells", str(len(csv_tools.parse("a,b\\nc,d"))))\n'
    )
    execution, _ = agent.run(user)
    assert execution.ok, execution.failure
    assert [view.render().splitlines()[-1] for view in agent.views.close_turn()] == ["2"]


def test_the_documentation_is_spelled_for_python(agent: GuestAgent) -> None:
    execution, _ = agent.run("import gg\ngg.views.open_docs_view(gg.files.read_file)\n")
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    page = view.render()
    assert "gg.files.read_file(path: str, *, offset: int | None = None, limit: int | None = None)" in page
    assert "- `offset` (int, optional): lines to skip (0-based)" in page
    assert "    first_line: int  # the first line read, 1-based (0 for an empty file)" in page
    assert "Reach it with `import gg`." in page


def test_a_function_returning_a_string_says_so_in_pythons_spelling(agent: GuestAgent) -> None:
    execution, _ = agent.run("import gg\ngg.views.open_docs_view(gg.skills.read_skill)\n")
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    assert "Returns `str`." in view.render() and "`string`" not in view.render()


def test_a_skills_python_functions_are_found_by_search_once_it_is_read(agent: GuestAgent) -> None:
    execution, _ = agent.run('import gg\ngg.skills.read_skill("csv-tools")\n')
    assert execution.ok, execution.failure
    agent.views.close_turn()
    source = (
        "import gg\n"
        'found = gg.docs.search(query="parse cells")\n'
        'gg.views.open_text("keys", " ".join(hit.key for hit in found.hits))\n'
        'gg.views.open_docs_view("lib.csv_tools.parse")\n'
    )
    execution, _ = agent.run(source)
    assert execution.ok, execution.failure
    _, keys, page = agent.views.close_turn()
    assert keys.render().splitlines()[-1].split()[0] == "lib.csv_tools.parse"
    assert page.render().splitlines()[2:] == [
        "def parse(text)",
        "Rows of cells.",
        "",
        "Reach it with `from lib import csv_tools`, then as `csv_tools.parse`.",
    ]
