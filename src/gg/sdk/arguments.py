"""Arguments an operation reads itself: those of a call written as one object (`addTask({id,
title})`), whose required fields travel as options, so the operation requires them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg.errors import ApiError, ErrorCode


def required(args: Mapping[str, Any], wire: str, operation: str) -> Any:
    """The argument `wire`; `invalid-argument` when the call left it out."""
    if args.get(wire) is None:
        raise ApiError(operation, ErrorCode.INVALID_ARGUMENT, f"`{wire}` is required")
    return args[wire]
