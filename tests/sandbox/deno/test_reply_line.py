"""A call's reply line, written around its one value: the same JSON `gg.sandbox.job.reply`'s message
encodes to, for answers and failures alike."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from gg.errors import ErrorCode, OperationError
from gg.sandbox.deno.wire import encode, reply_line
from gg.sandbox.job import reply


def _fails(message: str) -> Callable[[], Any]:
    def answer() -> Any:
        raise OperationError("read_file", ErrorCode.NOT_FOUND, message)

    return answer


@pytest.mark.parametrize(
    "answer",
    [
        lambda: "text",
        lambda: None,
        lambda: {"rows": [1, 2.5, None, "é", {"deep": [True]}]},
        _fails('no such file: notes/é \u2028 "quoted" \\ back'),
    ],
    ids=["text", "null", "nested", "failure"],
)
def test_a_reply_line_is_the_reply_message_encoded(answer: Callable[[], Any]) -> None:
    line = reply_line(7, answer)
    assert line == encode(reply(7, answer))
    assert json.loads(line) == reply(7, answer)


def test_a_failure_line_carries_the_code_as_the_program_reads_it() -> None:
    failed = json.loads(reply_line(3, _fails("gone")))
    assert failed == {
        "t": "reply",
        "id": 3,
        "ok": False,
        "error": {"operation": "read_file", "code": "not-found", "message": "gone"},
    }


def test_a_value_json_cannot_carry_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        reply_line(1, lambda: math.inf)


def test_anything_but_an_operation_error_propagates() -> None:
    def broken() -> Any:
        raise RuntimeError("gg's own defect")

    with pytest.raises(RuntimeError):
        reply_line(1, broken)
