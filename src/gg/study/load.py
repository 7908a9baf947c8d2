"""Loading a study: one refusal names every defect, or a `Study` ready to plan.

- `load_study(path)` reads `study.toml` / `study.json` (or the one of them in a folder); relative
  paths resolve against the file's folder.
- The study's own shape (pydantic), its cross-field rules, its repeated JSON keys and every
  capability set it makes (one per config and task, judged by gg's own loader) are collected into
  one `ConfigError`.
- `study_schema()` is the study file's JSON Schema, for editors.
- A study's `fingerprint` digests what it was written as (the study document and the capability-set
  files it names), so a resume can refuse a study whose file changed under it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gg.config.defects import ABSENT, DOCUMENT, Finding, mapping, render_defects, render_found
from gg.config.document import read_document, repeated_key_findings
from gg.config.load import SCHEMA_DIALECT
from gg.config.model import CapabilitySet
from gg.config.wording import findings_from
from gg.errors import ConfigDefect, ConfigError
from gg.study.check import Check
from gg.study.configs import ConfigSource, capability_sets, config_sources
from gg.study.model import StudyDocument
from gg.study.rules import study_findings

__all__ = ["STUDY_FILE_NAMES", "Study", "StudyTask", "load_study", "locate_study", "study_schema"]

STUDY_FILE_NAMES = ("study.toml", "study.json")


@dataclass(frozen=True)
class StudyTask:
    name: str
    template: Path
    text: str
    check: Check


@dataclass(frozen=True)
class Study:
    """A study as loaded: every (config, task) has its capability set."""

    name: str
    file: Path
    root: Path
    configs: tuple[str, ...]
    tasks: tuple[StudyTask, ...]
    repeats: int
    seed: int
    sets: Mapping[tuple[str, str], CapabilitySet]
    labels: Mapping[str, str]
    fingerprint: str

    def task(self, name: str) -> StudyTask:
        return next(task for task in self.tasks if task.name == name)


def locate_study(path: str | Path) -> Path:
    """The study file `path` names: the file itself, or the one study file in a folder."""
    given = Path(path)
    if not given.is_dir():
        return given
    present = [given / name for name in STUDY_FILE_NAMES if (given / name).is_file()]
    if len(present) == 1:
        return present[0]
    reason = "is a folder holding both study.toml and study.json; keep one"
    if not present:
        reason = "is a folder holding neither study.toml nor study.json"
    raise ConfigError(str(given), [ConfigDefect(DOCUMENT, render_found(ABSENT), reason)])


def load_study(path: str | Path) -> Study:
    """The study at `path`; raises `ConfigError` naming every defect at once."""
    file = locate_study(path)
    document = read_document(file)
    root = file.resolve().parent
    findings: list[Finding] = [*repeated_key_findings(document), *study_findings(document)]
    parsed: StudyDocument | None = None
    try:
        parsed = StudyDocument.model_validate(document, context={"base": root})
    except ValidationError as error:
        findings = [*findings_from(error, document, StudyDocument), *findings]
    own = render_defects(findings, document)
    sources, source_defects = config_sources(document, root, file)
    tasks = mapping(document.get("tasks")) or {}
    reported = frozenset(defect.path for defect in own)
    sets, set_defects = capability_sets(sources, tasks, document.get("limits"), root, reported)
    defects = [*own, *source_defects, *set_defects]
    if defects or parsed is None:
        raise ConfigError(str(file), defects)
    return _study(parsed, file, root, sources, sets, document)


def _study(
    parsed: StudyDocument,
    file: Path,
    root: Path,
    sources: Mapping[str, ConfigSource],
    sets: Mapping[tuple[str, str], CapabilitySet],
    document: Mapping[str, Any],
) -> Study:
    tasks = tuple(
        StudyTask(
            name,
            task.workspace,
            task.text,
            Check(task.check.command, task.check.timeout_secs, task.check.produces),
        )
        for name, task in parsed.tasks.items()
    )
    return Study(
        name=parsed.name,
        file=file.resolve(),
        root=root,
        configs=tuple(parsed.configs),
        tasks=tasks,
        repeats=parsed.repeats,
        seed=parsed.seed,
        sets=sets,
        labels={name: source.label for name, source in sources.items()},
        fingerprint=_fingerprint(document, sources),
    )


def _fingerprint(document: Mapping[str, Any], sources: Mapping[str, ConfigSource]) -> str:
    written = {
        "study": document,
        "configs": {
            name: [dict(each.document) for each in source.layers] for name, source in sources.items()
        },
    }
    text = json.dumps(written, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def study_schema() -> dict[str, Any]:
    """The JSON Schema of a study file (camelCase keys, as written)."""
    schema = StudyDocument.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": SCHEMA_DIALECT, **schema, "title": "gg study"}
