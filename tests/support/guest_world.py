"""One agent's world for tests that run real programs through the real membrane without the loop:
a quiet call log, and a guest agent over a small spec workspace with one code skill (`csv_agent`
gives it the CSV skill written in the arm's own language)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gg.config.catalogue import Role
from gg.config.ceilings import Ceilings
from gg.errors import OperationError
from gg.sandbox.execution import Arm, Execution
from gg.sandbox.languages import LANGUAGES
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.surface import build_surface
from gg.sdk.scope import ProgramScope
from gg.sdk.surface import Surface
from gg.state.skills import SkillShelf
from gg.state.window import ViewSet
from gg.state.workspace import Workspace

CEILINGS = Ceilings(timeout_secs=10.0, max_memory_bytes=256 * 1024 * 1024)


class QuietLog:
    """A `CallLog` that keeps nothing."""

    def call_started(self, operation: str, ordinal: int) -> None:
        return None

    def call_ended(self, operation: str, ordinal: int, failure: OperationError | None) -> None:
        return None

    def program_logged(self, lines: Sequence[str], dropped: int) -> None:
        return None


@dataclass
class GuestAgent:
    arm: Arm
    surface: Surface
    views: ViewSet
    workspace: Workspace

    def run(self, source: str) -> tuple[Execution, ProgramScope]:
        registry, language = default_registry(), self.arm.language
        scope = ProgramScope(
            "root",
            Role.STANDARD,
            frozenset({"skills"}),
            self.workspace,
            self.views,
            1,
            surface=self.surface,
            spell=registry.spelling(language),
        )
        membrane = Membrane(registry, scope, QuietLog(), language)
        return self.arm.run(source, membrane, CEILINGS, self.surface.modules.current()), scope


def spec_agent(arm: Arm, root: Path, skill_file: str, skill_source: str) -> GuestAgent:
    """An agent whose workspace holds two specs (one without rules) and whose skills directory
    holds `csv-tools` with the code module `skill_file`."""
    workspace = root / "ws"
    (workspace / "specs" / "drafts").mkdir(parents=True)
    (workspace / "specs" / "auth.md").write_text("# Auth\n\n## Rules\n- tokens expire\n")
    (workspace / "specs" / "billing.md").write_text("# Billing\n\nNo rules yet.\n")
    skill = root / "skills" / "csv-tools"
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text("---\ndescription: CSV helpers.\n---\nCall parse.\n")
    (skill / skill_file).write_text(skill_source)
    language = LANGUAGES[arm.language]
    shelf = SkillShelf(root / "skills", language.module_extensions)
    surface = build_surface(default_registry(), language, Role.STANDARD, {"skills"}, shelf)
    return GuestAgent(arm, surface, ViewSet(), Workspace(workspace))


# The CSV skill's code module as each arm's authors write it: its file and its source.
CSV_SKILLS = {
    "javascript": (
        "skill.js",
        '/** Rows of cells. */\nexport const parse = (text) => text.split("\\n").map((l) => l.split(","));\n',
    ),
    "python": (
        "skill.py",
        'def parse(text):\n    """Rows of cells."""\n'
        '    return [line.split(",") for line in text.split("\\n")]\n',
    ),
}
CSV_SKILLS["typescript"] = CSV_SKILLS["javascript"]
CSV_SKILLS["python-typed"] = CSV_SKILLS["python"]


def csv_agent(arm: Arm, root: Path) -> GuestAgent:
    """A `spec_agent` whose `csv-tools` skill is written in the language of `arm`."""
    return spec_agent(arm, root, *CSV_SKILLS[arm.language])
