"""One rule on both engines: an option a function does not declare is refused `invalid-argument`
in the guest, naming the option and the ones the function declares, before gg sees the call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gg.config.ceilings import Ceilings
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

CEILINGS = Ceilings(timeout_secs=10.0, max_memory_bytes=256 * 1024 * 1024)
SOURCES = {
    "javascript": (
        'import { files, skills } from "gg";\n'
        'try { files.readFile("notes.txt", { lmit: 3 }); }\n'
        "catch (e) { console.log(`${e.code}: ${e.message}`); }\n"
        'try { files.readFile("notes.txt", { limit: 3, offset: 1 }); } catch (e) { console.log(e.code); }\n'
    ),
    "python": (
        "from gg import files, skills\n"
        "try:\n    files.read_file('notes.txt', lmit=3)\n"
        "except OSError as e:\n    print(str(e).split(': ', 1)[1])\n"
        "try:\n    skills.read_skill('csv', depth=2)\n"
        "except OSError as e:\n    print(str(e).split(': ', 1)[1])\n"
        "files.read_file('notes.txt', limit=3, offset=1)\n"
    ),
}
EXPECTED = {
    "javascript": ("invalid-argument: `readFile` takes no option `lmit`; its options are `offset`, `limit`",),
    "python": (
        "invalid-argument: `read_file` takes no option `lmit`; its options are `offset`, `limit`",
        "invalid-argument: `read_skill` takes no option `depth`: it takes no options",
    ),
}


def test_an_unknown_option_is_refused_naming_it_and_the_declared_ones(arm: Arm) -> None:
    reached: list[tuple[str, dict[str, Any]]] = []

    def host(operation: str, args: Mapping[str, Any]) -> Any:
        reached.append((operation, dict(args)))
        return {
            "kind": "text",
            "contents": "",
            "firstLine": 0,
            "lastLine": 0,
            "totalLines": 0,
            "byteTruncated": False,
        }

    execution = arm.run(SOURCES[arm.language], host, CEILINGS)
    assert execution.ok, execution.failure
    assert execution.logs == EXPECTED[arm.language]
    assert reached == [("files.read_file", {"path": "notes.txt", "limit": 3, "offset": 1})]
