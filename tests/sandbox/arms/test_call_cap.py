"""One call cap on every arm: a program may make 100,000 SDK calls; every later one is refused
`limit-exceeded` in the guest, with the same words and the same operation (the function's key)
on both engines, and counted, never crossing
to gg. Calls the SDK refuses itself (a wrong argument) count too, which lets a program reach the
cap without 100,000 round trips."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gg.config.ceilings import Ceilings
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

CEILINGS = Ceilings(timeout_secs=60.0, max_memory_bytes=256 * 1024 * 1024)
REFUSAL = "this program has already made 100,000 SDK calls, the most one program may make"
SOURCES = {
    "javascript": (
        'import { views } from "gg";\nlet made = 0, refusal = null;\n'
        "for (;;) {\n"
        '  try { views.openText(1, 2); } catch (e) { if (e.code === "limit-exceeded") { refusal = e; break; } made++; }\n'  # noqa: E501
        "}\n"
        'for (let i = 0; i < 4; i++) { try { views.openText("a", "b"); } catch {} }\n'
        "console.log(`${made} ${refusal.operation}: ${refusal.code}: ${refusal.message}`);\n"
    ),
    "python": (
        "from gg import views\nmade = 0\nrefusal = ''\n"
        "while True:\n    try:\n        views.open_text(1, 2)\n    except TypeError:\n        made += 1\n"
        "    except OSError as e:\n        refusal = str(e)\n        break\n"
        "for i in range(4):\n    try:\n        views.open_text('a', 'b')\n    except OSError:\n        pass\n"
        "print(f'{made} {refusal}')\n"
    ),
}


def test_a_program_makes_100000_sdk_calls_and_every_later_one_is_refused_and_counted(arm: Arm) -> None:
    reached: list[str] = []

    def host(operation: str, args: Mapping[str, Any]) -> None:
        reached.append(operation)

    execution = arm.run(SOURCES[arm.language], host, CEILINGS)
    assert execution.ok, execution.failure
    assert execution.logs == (f"100000 open_text: limit-exceeded: {REFUSAL}",)
    assert execution.calls_refused == 1 + 4
    assert reached == []
