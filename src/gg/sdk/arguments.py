"""Arguments an operation reads itself: those of a call written as one object (`addTask({id,
title})`), whose required fields travel as options, so the operation requires them. A refusal
names the argument as the program's arm writes it (`inScope`, `in_scope`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gg import prompts
from gg.errors import ErrorCode, OperationError
from gg.sdk.scope import ProgramScope
from gg.wire import camel


def required(scope: ProgramScope, args: Mapping[str, Any], name: str, operation: str) -> Any:
    """The argument `name` (snake_case; it travels as `camel(name)`); `invalid-argument` when the
    call left it out."""
    wire = camel(name)
    if args.get(wire) is None:
        missing = prompts.render("argument-required", argument=scope.spelling(operation).argument(name))
        raise OperationError(operation, ErrorCode.INVALID_ARGUMENT, missing)
    return args[wire]
