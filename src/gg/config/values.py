"""Value rules for capability-set fields, as `Annotated` metadata that pydantic enforces.

Each rule checks one value, words its own refusal ("must be a whole number from 2 to 32") and
describes itself in the JSON Schema. Rules shared by every field:
- numbers are JSON/TOML numbers only: strings ("5") and booleans (`true`) are refused;
- a whole number may be written as a float with an integral value (`5e8`, `3.0`), never with a
  fraction (`500000000.5`), and none is above 2**63 - 1 (`STORED_MOST`, the largest a store's
  64-bit integer holds); non-finite numbers are refused; nothing is clamped;
- `null` is refused wherever a value is wanted; optional fields accept it as "not written";
- a place (file or folder) is a non-blank string, resolved against the config file's folder
  (validation context key `base`), and must exist as that kind.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationInfo
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from gg.wire import first_heading_unsafe, heading_safe_pattern

__all__ = ["REFUSAL", "Choice", "Flag", "Name", "Number", "Place", "Text", "Whole", "refuse"]

STORED_MOST = 2**63 - 1  # the largest whole number a store holds (SQLite's and PostgreSQL's 64-bit integers)
REFUSAL = "gg_value"  # the pydantic error type our rules raise; its message is our own wording


def refuse(reason: str) -> PydanticCustomError:
    """A refusal carrying `reason` verbatim (braces in it are not templates)."""
    return PydanticCustomError(REFUSAL, "{reason}", {"reason": reason})


def _whole(value: object) -> int | None:
    """`value` as an int when it is a whole number (`3`, `3.0`, `5e8`), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _finite(value: object) -> float | None:
    """`value` as a float when it is a finite number, else None (ints too large for a float too)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _range_words(low: float, high: float | None, exclusive: bool = False) -> str:
    """`from 2 to 32`, `, 1 or more`, `above 0`, `above 0 and at most 1`."""
    if exclusive:
        return f" above {_show(low)}" + (f" and at most {_show(high)}" if high is not None else "")
    return f" from {_show(low)} to {_show(high)}" if high is not None else f", {_show(low)} or more"


def _show(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


class _Rule:
    """A value rule: `check` refuses or returns the value; `schema` describes it; `wanted` words it."""

    @property
    def wanted(self) -> str:
        raise NotImplementedError

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def schema(self) -> JsonSchemaValue:
        raise NotImplementedError

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(self.check)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        described = self.wanted.removeprefix("must be ")
        return {**self.schema(), "description": described[:1].upper() + described[1:]}


@dataclass(frozen=True)
class Whole(_Rule):
    """A whole number of at least `low` (and at most `high`); `note` says what a value means."""

    low: int
    high: int | None = None
    what: str = "a whole number"
    note: str = ""

    @property
    def wanted(self) -> str:
        note = f" ({self.note})" if self.note else ""
        return f"must be {self.what}{_range_words(self.low, self.high)}{note}"

    def check(self, value: Any) -> int:
        whole = _whole(value)
        if whole is None or whole < self.low or (self.high is not None and whole > self.high):
            raise refuse(self.wanted)
        if whole > STORED_MOST:
            raise refuse(f"must be {self.what}{_range_words(self.low, STORED_MOST)}, the most a store holds")
        return whole

    def schema(self) -> JsonSchemaValue:
        most = STORED_MOST if self.high is None else min(self.high, STORED_MOST)
        return {"type": "integer", "minimum": self.low, "maximum": most}


@dataclass(frozen=True)
class Number(_Rule):
    """A finite number, fractions honoured: above `above` (exclusive) or from `least`, at most `most`."""

    above: float | None = None
    least: float | None = None
    most: float | None = None
    what: str = "a number"

    @property
    def wanted(self) -> str:
        if self.above is not None:
            return f"must be {self.what}{_range_words(self.above, self.most, exclusive=True)}"
        return f"must be {self.what}{_range_words(self.least or 0, self.most)}"

    def check(self, value: Any) -> float:
        number = _finite(value)
        if number is None or not self._in_range(number):
            raise refuse(self.wanted)
        return number

    def _in_range(self, number: float) -> bool:
        return (
            (self.above is None or number > self.above)
            and (self.least is None or number >= self.least)
            and (self.most is None or number <= self.most)
        )

    def schema(self) -> JsonSchemaValue:
        limits = {"exclusiveMinimum": self.above, "minimum": self.least, "maximum": self.most}
        return {"type": "number", **{key: bound for key, bound in limits.items() if bound is not None}}


@dataclass(frozen=True)
class Text(_Rule):
    """A non-blank string; with `pattern`, one that matches it whole (`described` in words)."""

    pattern: str | None = None
    described: str = ""
    max_chars: int = 200

    @property
    def wanted(self) -> str:
        shape = f" of {self.described}" if self.described else ""
        return f"must be a non-empty string{shape}, at most {self.max_chars} characters"

    def check(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > self.max_chars:
            raise refuse(self.wanted)
        if self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            raise refuse(self.wanted)
        return value

    def schema(self) -> JsonSchemaValue:
        shape = {"pattern": f"^(?:{self.pattern})$"} if self.pattern else {}
        return {"type": "string", "minLength": 1, "maxLength": self.max_chars, **shape}


@dataclass(frozen=True)
class Name(Text):
    """A `Text` shown on a terminal as it stands (a run's or a profile's name): besides, it holds
    no control character (NUL, C0, DEL, C1), no line or paragraph separator and no bidi control
    (U+202E, say), and no lone surrogate; a refusal names the first one's code point and what it is."""

    def check(self, value: Any) -> str:
        text = super().check(value)
        at = first_heading_unsafe(text)
        if at is None:
            return text
        code = ord(text[at])
        if 0xD800 <= code <= 0xDFFF:
            raise refuse(f"must be well-formed Unicode; U+{code:04X} is a lone surrogate")
        raise refuse(f"must hold no control or bidi character; U+{code:04X} is one")

    def schema(self) -> JsonSchemaValue:
        return super().schema() | {"pattern": heading_safe_pattern()}


@dataclass(frozen=True)
class Choice(_Rule):
    """One of an enum's spellings; returns the enum member."""

    options: type[StrEnum]

    @property
    def wanted(self) -> str:
        return "must be one of " + ", ".join(member.value for member in self.options)

    def check(self, value: Any) -> StrEnum:
        spellings = {member.value: member for member in self.options}
        if not isinstance(value, str) or value not in spellings:
            raise refuse(self.wanted)
        return spellings[value]

    def schema(self) -> JsonSchemaValue:
        return {"type": "string", "enum": [member.value for member in self.options]}


@dataclass(frozen=True)
class Flag(_Rule):
    """`true` or `false`, nothing else (not 1, not "yes")."""

    @property
    def wanted(self) -> str:
        return "must be true or false"

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise refuse(self.wanted)
        return value

    def schema(self) -> JsonSchemaValue:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Place(_Rule):
    """A path to an existing file or folder; relative paths start at the config file's folder. A
    path to the other kind (a folder where a file is wanted) is refused saying which it is."""

    kind: Literal["file", "folder"]

    @property
    def wanted(self) -> str:
        return f"must be a path to an existing {self.kind}; relative paths start at the config file's folder"

    def check_in(self, value: Any, info: ValidationInfo) -> Path:
        if not isinstance(value, str | Path) or not str(value).strip():
            raise refuse(self.wanted)
        context: dict[str, Any] = info.context or {}
        try:
            place = (Path(context.get("base", Path.cwd())) / value).resolve()
            found = "file" if place.is_file() else "folder" if place.is_dir() else None
        except (OSError, ValueError):
            raise refuse(f"must be a path to a {self.kind} the system accepts") from None
        if found is None:
            raise refuse(f"must name an existing {self.kind}; there is none at {place}")
        if found != self.kind:
            raise refuse(f"must name an existing {self.kind}; {place} is a {found}, not a {self.kind}")
        return place

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_info_plain_validator_function(self.check_in)

    def schema(self) -> JsonSchemaValue:
        return {"type": "string", "minLength": 1}
