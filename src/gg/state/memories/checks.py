"""The checks every mutation passes before it takes effect; a refusal changes nothing.

- A slug is 1 to 64 characters of letters, digits, `-`, `_` and `.`; a name, a description (where
  one is required) and a body must not be blank; each is trimmed before it is stored.
- `code` and `onUse` are trimmed, a blank one is absent, and each is bounded at 32,768 characters.
- Caps are checked in this order, so a call over several is told about the cheapest fix first:
  description, body, count, total, index. Each refusal is `limit-exceeded` naming the figure, the
  cap and the param.
- A refusal that names a call or an argument keeps its operation key or snake_case name
  (`gg.state.refusal.Wording`) until the SDK, which knows the holder's arm, spells it
  (`MemoryRefusal.said`).
"""

from __future__ import annotations

import re

from gg.config.memories.caps import CapName, Caps
from gg.config.memories.strategy import Call
from gg.errors import ErrorCode
from gg.state.refusal import Refusal, Wording

MAX_CODE_CHARS = 32_768  # each of a memory's `code` and `onUse`
MAX_SLUG_CHARS = 64
_SLUG = re.compile(r"[A-Za-z0-9._-]+")
_SHOWN = 60  # characters of a refused name a message repeats


class MemoryRefusal(Refusal):
    """A memory call refused: its code and what the program reads (`said`)."""


def shown(name: str) -> str:
    return name if len(name) <= _SHOWN else name[:_SHOWN] + "…"


def invalid(message: str) -> MemoryRefusal:
    return MemoryRefusal(ErrorCode.INVALID_ARGUMENT, message)


def required(field: str, value: str | None) -> str:
    """`value` trimmed; blank or missing is `invalid-argument` naming `field`."""
    text = (value or "").strip()
    if not text:
        raise invalid(f"`{field}` must not be empty")
    return text


def checked_slug(name: str | None) -> str:
    """A new memory's name: a slug of at most 64 characters."""
    slug = required("name", name)
    if len(slug) > MAX_SLUG_CHARS or _SLUG.fullmatch(slug) is None:
        raise invalid(
            f"`{shown(slug)}` is not a memory name: up to {MAX_SLUG_CHARS} letters, digits, `-`, `_` or `.`"
        )
    return slug


def code_half(memory: str, argument: str, value: str | None) -> str | None:
    """One code half (`argument`: `code` or `on_use`) trimmed, absent when blank, refused over
    32,768 characters."""
    text = (value or "").strip() or None
    if text is not None and len(text) > MAX_CODE_CHARS:
        values = {"memory": memory, "length": len(text), "cap": MAX_CODE_CHARS}
        over = Wording("memories-code-over", values=values, arguments={"argument": argument})
        raise MemoryRefusal(ErrorCode.LIMIT_EXCEEDED, over)
    return text


def _over(lead: str, value: int, cap: int, name: CapName) -> MemoryRefusal:
    """`lead` states what is measured, verb included (`memory `a` is`)."""
    return MemoryRefusal(
        ErrorCode.LIMIT_EXCEEDED, f"{lead} {value} characters, over the {cap}-character cap ({name})"
    )


def check_description(caps: Caps, memory: str, description: str) -> None:
    cap = caps.max_len_description
    if cap is not None and len(description) > cap:
        lead = f"the description of memory `{memory}` is"
        raise _over(lead, len(description), cap, CapName.MAX_LEN_DESCRIPTION)


def check_body(caps: Caps, memory: str, length: int) -> None:
    cap = caps.max_len_per_memory
    if cap is not None and length > cap:
        raise _over(f"memory `{memory}` is", length, cap, CapName.MAX_LEN_PER_MEMORY)


def check_count(caps: Caps, count: int, revise: Call) -> None:
    """Another memory is refused once `count` is at the cap, naming the calls that make room:
    `revise` and `delete_memory`."""
    cap = caps.max_count
    if cap is not None and count >= cap:
        calls = {"revise_call": revise.key, "delete_call": Call.DELETE.key}
        values = {"cap": cap, "cap_name": CapName.MAX_COUNT.value}
        raise MemoryRefusal(ErrorCode.LIMIT_EXCEEDED, Wording("memories-full", values, calls))


def check_total(caps: Caps, would_be: int) -> None:
    cap = caps.max_total_len
    if cap is not None and would_be > cap:
        raise _over("all memories together would be", would_be, cap, CapName.MAX_TOTAL_LEN)


def check_index(caps: Caps, would_be: int) -> None:
    cap = caps.max_len_index
    if cap is not None and would_be > cap:
        raise _over("the memory index would be", would_be, cap, CapName.MAX_LEN_INDEX)
