"""A memories search hit reads the memory it found (`hit.read()`, as `readMemory(hit.name)`), on
every arm, against a real keyword-search store."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from gg.config.catalogue import Role
from gg.config.memories import Strategy
from gg.sandbox.execution import Arm
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from state.memories.world import Run, note, profile
from support.guest_world import CEILINGS, QuietLog

pytestmark = pytest.mark.arms("javascript", "typescript", "python", "python-typed")

JS = (
    'import { memories } from "gg";\n'
    'const [hit] = memories.searchMemories(["kiln"]);\n'
    "console.log(JSON.stringify([hit.name, hit.read()]));\n"
)
PY = 'from gg import memories\nhit = memories.search_memories(["kiln"])[0]\nprint([hit.name, hit.read()])\n'
PROGRAMS = {"javascript": JS, "typescript": JS, "python": PY, "python-typed": PY}


def test_a_search_hit_reads_the_memory_it_found(arm: Arm, tmp_path: Path) -> None:
    holder = Run().open(profile(Strategy.KEYWORD_SEARCH), "root")
    holder.store.create("root", note("kiln", "the kiln runs hot; glaze twice", "firing"))
    registry, language = default_registry(), arm.language
    scope = ProgramScope(
        "root",
        Role.STANDARD,
        frozenset({"memories"}),
        Workspace(tmp_path),
        ViewSet(),
        1,
        memories=holder,
        spell=registry.spelling(language),
    )
    membrane = Membrane(registry, scope, QuietLog(), language)
    execution = arm.run(PROGRAMS[language], membrane, CEILINGS, ())
    assert execution.ok, execution.failure
    line = execution.logs[-1]
    shown = json.loads(line) if language in ("javascript", "typescript") else ast.literal_eval(line)
    assert shown == ["kiln", "the kiln runs hot; glaze twice"]
