"""`ast.literal_eval`: the engine has no `ast` module, so the prompt's statement of the subset lists
`ast` among the modules that are not there."""

from __future__ import annotations

from montyworld import PYTHON, raised, subset

from gg.sandbox.execution import Arm

pytestmark = PYTHON


def test_ast_is_missing_from_the_engine_and_the_subset_lists_it_as_not_there(arm: Arm) -> None:
    source = "import ast\nprint(repr(ast.literal_eval(\"[1, (2, 3), {'a': None}]\")))\n"
    # CPython prints [1, (2, 3), {'a': None}]
    assert raised(arm, source) == "ModuleNotFoundError: No module named 'ast'"
    missing = subset().split(" are there; ", 1)[1].split(" are not.", 1)[0]
    assert missing.startswith("`ast`, `io`, ")
