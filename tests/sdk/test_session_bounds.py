"""An ending's final word is bounded like every summary, on both arms: at most 65,536 UTF-8 bytes,
and a longer one is refused whole as `invalid-argument`, declaring nothing, never cut."""

from __future__ import annotations

import pytest

from support.guest_world import GuestAgent

pytestmark = pytest.mark.arms("javascript", "python")

PROGRAMS = {
    "javascript": (
        'import { session, views } from "gg";\nconst outcomes = [];\n'
        'try { session.finish("x".repeat(10000000)); outcomes.push("accepted"); }'
        " catch (err) { outcomes.push(`${err.code}: ${err.message}`); }\n"
        'session.finish("y".repeat(65536));\n'
        'views.openText("outcomes", outcomes.join("\\n"));\n'
    ),
    "python": (
        "import gg\noutcomes = []\n"
        'try:\n    gg.session.finish("x" * 10000000)\n    outcomes.append("accepted")\n'
        "except gg.ApiError as err:\n    d = gg.core.details(err)\n"
        "    outcomes.append(d.code + ': ' + d.message)\n"
        'gg.session.finish("y" * 65536)\n'
        'gg.views.open_text("outcomes", "\\n".join(outcomes))\n'
    ),
}


def test_a_final_word_over_65536_bytes_is_refused_whole_and_one_within_stands(agent: GuestAgent) -> None:
    execution, scope = agent.run(PROGRAMS[agent.arm.language])
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    assert view.body == (
        "invalid-argument: `summary` is 10000000 bytes, over the 65536-byte cap; write a shorter one"
    )
    ending = scope.declarations.ending
    assert ending is not None and ending.final_text == "y" * 65_536
