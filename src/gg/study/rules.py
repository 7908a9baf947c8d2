"""Cross-field rules of a study file, judged on the document as written.

They run beside pydantic's shape checks, so one refusal holds both kinds; each skips what is
mis-shaped (pydantic names that):
- `configs` and `tasks` each name at least one entry, every name a slug (lowercase letters,
  digits and hyphens, at most `MAX_NAME_CHARS`): names appear in tables, in CSV and on the command line;
- a task's `journals` name only configs of this study;
- a check writes `command`, `produces` or both;
- each path a check says the run produces lies inside the workspace (relative, no `..`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath
from typing import Any

from gg.config.defects import Finding, Loc, mapping, sequence

__all__ = ["MAX_NAME_CHARS", "study_findings"]

MAX_NAME_CHARS = 64
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


def study_findings(document: Mapping[str, Any]) -> Iterator[Finding]:
    """Every cross-field defect of a study document."""
    configs = mapping(document.get("configs"))
    for key in ("configs", "tasks"):
        yield from _names(mapping(document.get(key)), key)
    tasks = mapping(document.get("tasks")) or {}
    for name, task in tasks.items():
        if (written := mapping(task)) is not None:
            yield from _journals(written, ("tasks", name), configs)
            yield from _check(mapping(written.get("check")), ("tasks", name, "check"))


def _names(entries: Mapping[str, Any] | None, key: str) -> Iterator[Finding]:
    if entries is None:
        return
    if not entries:
        yield Finding((key,), f"must name at least one {key[:-1]}")
    for name in entries:
        if len(name) > MAX_NAME_CHARS or _SLUG.fullmatch(name) is None:
            yield Finding(
                (key, name),
                f"is named {name!r}; a {key[:-1]} name is lowercase letters, digits and hyphens, "
                f"at most {MAX_NAME_CHARS} characters",
                found=name,
            )


def _journals(task: Mapping[str, Any], loc: Loc, configs: Mapping[str, Any] | None) -> Iterator[Finding]:
    journals = mapping(task.get("journals"))
    if journals is None or configs is None:
        return
    for config in journals:
        if config not in configs:
            known = ", ".join(configs) or "none"
            yield Finding(
                (*loc, "journals", config), f"names no config of this study (configs: {known})", config
            )


def _check(check: Mapping[str, Any] | None, loc: Loc) -> Iterator[Finding]:
    if check is None:
        return
    if check.get("command") is None and not check.get("produces"):
        yield Finding(
            loc, "must write command (exit 0 is solved), produces (files the run must make), or both"
        )
    for index, path in enumerate(sequence(check.get("produces")) or []):
        if isinstance(path, str) and path.strip() and not _inside(path):
            yield Finding(
                (*loc, "produces", index), "must be a relative path inside the workspace, without .."
            )


def _inside(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return not PurePosixPath(path).is_absolute() and ".." not in parts and "\\" not in path
