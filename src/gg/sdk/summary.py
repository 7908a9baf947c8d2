"""The one bound on a summary a program writes: a compaction's summary, an ending's final word, a
review's list of changes and a message to a child (`sendMessage`) are each at most
`MAX_SUMMARY_BYTES` (65,536) UTF-8 bytes, read like a view body. A longer one is refused whole as
`invalid-argument`, never cut."""

from __future__ import annotations

from gg.errors import ErrorCode, OperationError
from gg.state.window import MAX_SUMMARY_BYTES, wire_size


def check_summary(operation: str, name: str, text: str) -> None:
    """Refuse `text` (the argument `name` of `operation`) when it is over the bound."""
    size = wire_size(text, MAX_SUMMARY_BYTES)
    if size > MAX_SUMMARY_BYTES:
        raise OperationError(
            operation,
            ErrorCode.INVALID_ARGUMENT,
            f"`{name}` is {size} bytes, over the {MAX_SUMMARY_BYTES}-byte cap; write a shorter one",
        )
