"""Each turn reports what every module costs its window (seed 003, "Store identity and
telemetry"): one `context_breakdown` per request, band by band, in the provider's tokens when it
measured the request and in characters when it did not; a skill read shows in the Skill band from
the next request on."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import line, profile, run_crew

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript")

SKILLS = {"id": "skills", "params": {"dir": "skills", "builtIns": {}}}
READ = 'import { skills } from "gg";\nskills.readSkill("guide");\n'
FINISH = 'import { session } from "gg";\nsession.finish("read");\n'
PINNED = "Skill `guide`\n----\nGUIDE-BODY"


def test_every_request_reports_its_bands_and_a_read_skill_costs_the_skill_band(
    tmp_path: Path, arm: Arm
) -> None:
    measured = {**line(FINISH), "usage": {"inputTokens": 900, "outputTokens": 5}}
    crew = run_crew(
        tmp_path,
        [profile("root", SKILLS)],
        [line(READ), measured],
        arm=arm,
        files={"skills/guide.md": "---\ndescription: the gearbox\n---\nGUIDE-BODY\n"},
    )
    assert crew.finished["status"] == "completed", crew.finished
    first, second = crew.of("context_breakdown", "root")
    assert [event["turn"] for event in (first, second)] == [1, 2]
    assert first["unit"] == "chars" and "inputTokens" not in first
    bands = {row["band"]: row for row in first["bands"]}
    assert bands["System"]["chars"] == len(crew.requests["root"][0].system)
    assert "Skill" not in bands and set(bands) >= {"System", "Tools", "Task"}
    assert second["unit"] == "tokens" and second["inputTokens"] == 900
    assert sum(row["tokens"] for row in second["bands"]) == 900
    skill = next(row for row in second["bands"] if row["band"] == "Skill")
    assert skill["chars"] == len(PINNED)
