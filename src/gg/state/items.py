"""The text fields of a work item (a task, an epic, an issue), checked the same way wherever one
is written. Each check returns the value as written, or raises `Refusal`:

- an id is 1 to `MAX_ID_CHARS` characters, none of them whitespace or a control character (an id
  is quoted inline, in backticks, wherever it is shown);
- a title is non-blank, one line, at most `MAX_TITLE_CHARS` characters;
- a longer text (a description, a scope, completion criteria) is non-blank when required, at most
  `MAX_TEXT_CHARS` characters;
- blank means empty or whitespace only; a blank optional text is no text.
Too long is `limit-exceeded`; every other defect is `invalid-argument`. Nothing is cut. An update
leaves a field it does not name as it is (`KEEP`). A check is given the field's argument by its
snake_case name (`in_scope`), which its refusal names as the program's arm writes it.
"""

from __future__ import annotations

from enum import Enum

from gg.errors import ErrorCode
from gg.state.refusal import Refusal, worded
from gg.wire import first_heading_unsafe

MAX_ID_CHARS = 100
MAX_TITLE_CHARS = 500
MAX_TEXT_CHARS = 8_192


class Keep(Enum):
    """An update's "leave this field as it is"."""

    KEEP = "keep"


KEEP = Keep.KEEP


def checked_id(value: str, field: str = "id") -> str:
    if not value.strip():
        raise _refused("item-blank", field)
    if len(value) > MAX_ID_CHARS:
        raise _too_long(field, len(value), MAX_ID_CHARS)
    if any(char.isspace() for char in value) or first_heading_unsafe(value) is not None:
        raise _refused("item-id-unsafe", field)
    return value


def checked_title(value: str, field: str = "title") -> str:
    if not value.strip():
        raise _refused("item-blank", field)
    if len(value) > MAX_TITLE_CHARS:
        raise _too_long(field, len(value), MAX_TITLE_CHARS)
    if first_heading_unsafe(value) is not None:
        raise _refused("item-title-unsafe", field)
    return value


def checked_text(value: str, field: str) -> str:
    """A required text."""
    if not value.strip():
        raise _refused("item-blank", field)
    return _bounded(value, field)


def optional_text(value: str | None, field: str) -> str | None:
    """An optional text: None, or a blank one, is no text."""
    if value is None or not value.strip():
        return None
    return _bounded(value, field)


def _bounded(value: str, field: str) -> str:
    if len(value) > MAX_TEXT_CHARS:
        raise _too_long(field, len(value), MAX_TEXT_CHARS)
    return value


def _refused(template: str, field: str) -> Refusal:
    return Refusal(ErrorCode.INVALID_ARGUMENT, worded(template, {"field": field}))


def _too_long(field: str, size: int, cap: int) -> Refusal:
    return Refusal(ErrorCode.LIMIT_EXCEEDED, worded("item-too-long", {"field": field}, size=size, cap=cap))
