"""`context.compact` at the membrane, on both arms: a summary is bounded like a view body, at
65,536 UTF-8 bytes, and one over the bound is refused whole as `invalid-argument`, never cut."""

from __future__ import annotations

import pytest

from support.guest_world import GuestAgent

pytestmark = pytest.mark.arms("javascript", "python")

# Each attempt's summary, as the program builds it, and its size in UTF-8 bytes.
ATTEMPTS = {
    "javascript": (
        ['"x".repeat(65536)', 65_536],
        ['"é".repeat(32769)', 65_538],
        ['"x".repeat(65537)', 65_537],
        ['"x".repeat(10000000)', 10_000_000],
    ),
    "python": (
        ['"x" * 65536', 65_536],
        ['"é" * 32769', 65_538],
        ['"x" * 65537', 65_537],
        ['"x" * 10000000', 10_000_000],
    ),
}


def _program(language: str) -> str:
    attempts = [expression for expression, _ in ATTEMPTS[language]]
    if language == "javascript":
        return (
            'import { context, views } from "gg";\nconst outcomes = [];\n'
            + "".join(
                f"try {{ context.compact({e}); outcomes.push('accepted'); }}"
                " catch (err) { outcomes.push(`${err.code}: ${err.message}`); }\n"
                for e in attempts
            )
            + 'views.openText("outcomes", outcomes.join("\\n"));\n'
        )
    return (
        "import gg\noutcomes = []\n"
        + "".join(
            f"try:\n    gg.context.compact({e})\n    outcomes.append('accepted')\n"
            "except gg.ApiError as err:\n    d = gg.core.details(err)\n"
            "    outcomes.append(d.code + ': ' + d.message)\n"
            for e in attempts
        )
        + 'gg.views.open_text("outcomes", "\\n".join(outcomes))\n'
    )


def test_a_summary_of_up_to_65536_bytes_stands_and_a_longer_one_is_refused_whole(agent: GuestAgent) -> None:
    execution, scope = agent.run(_program(agent.arm.language))
    assert execution.ok, execution.failure
    [view] = agent.views.close_turn()
    assert view.body.split("\n") == [
        "accepted",
        "invalid-argument: `summary` is 65538 bytes, over the 65536-byte cap; write a shorter one",
        "invalid-argument: `summary` is 65537 bytes, over the 65536-byte cap; write a shorter one",
        "invalid-argument: `summary` is 10000000 bytes, over the 65536-byte cap; write a shorter one",
    ]
    compaction = scope.deferred.compaction
    assert compaction is not None and compaction.summary == "x" * 65_536  # the accepted one, whole
