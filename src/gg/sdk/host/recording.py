"""The host functions' part of a recording: the lines a replay journal holds beside its replies.

A session recorded with `--record` (or `gg.run(..., record=...)`) that called host functions
keeps, in its journal:
- one `{"hostFamily": {...}}` line per family the run served, before the first reply: its name,
  its doc, every record and function it declares (`gg.sdk.host.declaration`), and the `entry` a
  profile named it by when that was an importable `package.module:attribute`;
- one `{"hostAnswer": {...}}` line per call a function answered, after the reply whose programs
  made it: the agent, the operation, the arguments, and the value or the error
  (`gg.sdk.host.answers`). Calls the membrane refused before the function was reached are not
  answers and are not recorded.

Replaying that journal with a family absent serves the recorded declaration and answers each call
from the recording. A bad host line is a `JournalError` naming its line, with every other; an
answer whose `agent` is of no agent id's shape is one, as a reply line naming one is
(`gg.providers.book`). A recorded value outside its function's declared result (the declaration
the recording holds) is answered `other`, saying so, as the live call would have been.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gg.errors import ConfigDefect, ErrorCode
from gg.ids import is_agent_id
from gg.providers.book import NOT_AN_AGENT_ID
from gg.providers.host_lines import host_lines
from gg.providers.journal import JournalError
from gg.sdk.host.answers import HostAnswer, answer_from_json, outside_result
from gg.sdk.host.declaration import FamilyDeclaration, FunctionDeclaration, family_from_json, family_to_json
from gg.sdk.shape_check import object_of

FAMILY_KEY = "hostFamily"
ANSWER_KEY = "hostAnswer"


@dataclass(frozen=True)
class RecordedFamily:
    declaration: FamilyDeclaration
    entry: str | None = None  # the `package.module:attribute` a profile named it by, if any


@dataclass(frozen=True)
class HostRecording:
    families: tuple[RecordedFamily, ...] = ()
    answers: tuple[tuple[str, HostAnswer], ...] = ()  # (agent id, answer), in the order given
    first: bool = False  # it answers a family it declares even when that family imports (a playback)

    def named(self, name: str) -> RecordedFamily | None:
        return next((f for f in self.families if f.declaration.name == name), None)

    def entered_as(self, entry: str) -> RecordedFamily | None:
        return next((f for f in self.families if f.entry == entry), None)


def family_line(declaration: FamilyDeclaration, entry: str | None) -> dict[str, Any]:
    return {FAMILY_KEY: {**family_to_json(declaration), "entry": entry}}


def answer_line(agent_id: str, answer: HostAnswer) -> dict[str, Any]:
    return {ANSWER_KEY: answer.to_json(agent_id)}


def read_host_recordings(paths: Iterable[Path]) -> HostRecording:
    """The host lines of the journals at `paths`, in that order (none when they hold none).
    Raises `JournalError` naming every bad line of every journal."""
    families: list[RecordedFamily] = []
    answers: list[tuple[str, HostAnswer]] = []
    refusals: list[JournalError] = []
    for path in paths:
        try:
            recording = read_host_recording(path)
        except JournalError as refused:
            refusals.append(refused)
            continue
        families.extend(recording.families)
        answers.extend(recording.answers)
    if len(refusals) == 1:
        raise refusals[0]
    if refusals:
        defects = [replace(d, path=f"{r.source}, {d.path}") for r in refusals for d in r.defects]
        raise JournalError("the replayed journals", defects)
    return _judged(families, answers)


def read_host_recording(path: Path) -> HostRecording:
    """The host lines of the journal at `path` (none when it holds none). Raises `JournalError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as unreadable:
        defect = ConfigDefect("journal", str(path), f"cannot be read ({unreadable})")
        raise JournalError(str(path), [defect]) from unreadable
    families: list[RecordedFamily] = []
    answers: list[tuple[str, HostAnswer]] = []
    defects: list[ConfigDefect] = []
    for number, key, value in host_lines(text):
        try:
            if key == FAMILY_KEY:
                families.append(_family(value))
                continue
            agent, answer = answer_from_json(value)
        except ValueError as bad:
            defects.append(ConfigDefect(f"line {number}", key, f"is not a host line gg can read ({bad})"))
            continue
        if is_agent_id(agent):
            answers.append((agent, answer))
        else:
            defects.append(ConfigDefect(f"line {number}", agent, NOT_AN_AGENT_ID))
    if defects:
        raise JournalError(str(path), defects)
    return _judged(families, answers)


def _judged(families: list[RecordedFamily], answers: list[tuple[str, HostAnswer]]) -> HostRecording:
    """The recording, each recorded value outside its function's declared result answered `other`."""
    declared: dict[str, FunctionDeclaration] = {
        f"{family.declaration.name}.{function.name}": function
        for family in families
        for function in family.declaration.functions
    }
    judged: list[tuple[str, HostAnswer]] = []
    for agent, answer in answers:
        function = declared.get(answer.operation)
        text = None if function is None or answer.error else outside_result(function.result, answer.value)
        if text is not None:
            answer = HostAnswer(answer.operation, answer.arguments, error=(ErrorCode.OTHER, text))
        judged.append((agent, answer))
    return HostRecording(tuple(families), tuple(judged))


def _family(value: Any) -> RecordedFamily:
    entry = object_of(value)
    if entry is None:
        raise ValueError("a host family's line holds an object")
    named = entry.get("entry")
    return RecordedFamily(family_from_json(entry), named if isinstance(named, str) else None)
