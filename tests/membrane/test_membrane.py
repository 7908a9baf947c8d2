"""The membrane: gate, then validate, then dispatch; every call bracketed and counted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from gg.config.catalogue import Role
from gg.errors import ErrorCode, OperationError
from gg.sandbox.membrane import Membrane
from gg.sdk.registry import Always, Capability, Operation, Param, ParamType, Registry
from gg.sdk.scope import ProgramScope
from gg.sdk.session import SESSION_OPERATIONS


class Log:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, int, str | None]] = []

    def call_started(self, operation: str, ordinal: int) -> None:
        self.events.append(("call", operation, ordinal, None))

    def call_ended(self, operation: str, ordinal: int, failure: OperationError | None) -> None:
        self.events.append(("result", operation, ordinal, None if failure is None else failure.code.value))

    def program_logged(self, lines: Sequence[str], dropped: int) -> None:
        self.events.append(("logged", "\n".join(lines), dropped, None))


def _echo(scope: ProgramScope, args: Any) -> Any:
    return dict(args)


OPS = (
    Operation(
        "files",
        "read_file",
        (Param("path", ParamType.STRING), Param("offset", ParamType.U32, required=False)),
        "FileRead",
        "read",
        Always(),
        _echo,
    ),
    Operation(
        "shell",
        "shell",
        (
            Param("command", ParamType.STRING),
            Param("timeout_secs", ParamType.POSITIVE_NUMBER, required=False),
        ),
        "ShellOutput",
        "run",
        Capability("shell"),
        _echo,
    ),
    *SESSION_OPERATIONS,
)


def _membrane(
    role: Role = Role.STANDARD, capabilities: frozenset[str] = frozenset(), language: str = "javascript"
) -> tuple[Membrane, ProgramScope, Log]:
    registry = Registry(OPS)
    scope = ProgramScope(
        "root", role, capabilities, workspace=None, views=None, turn=1, spell=registry.spelling(language)
    )  # type: ignore[arg-type]
    log = Log()
    return Membrane(registry, scope, log, language), scope, log


def test_a_granted_call_is_dispatched_bracketed_and_counted() -> None:
    membrane, _, log = _membrane()
    assert membrane("files.read_file", {"path": "a.md", "offset": 3}) == {"path": "a.md", "offset": 3}
    assert log.events == [("call", "files.read_file", 0, None), ("result", "files.read_file", 0, None)]
    assert (membrane.counts.api_calls, membrane.counts.tool_calls) == (1, 1)


def test_an_ungranted_capability_is_unavailable_and_names_the_call_and_capability() -> None:
    membrane, _, log = _membrane()
    with pytest.raises(OperationError) as caught:
        membrane("shell.shell", {"command": "ls"})
    assert caught.value.code is ErrorCode.UNAVAILABLE and caught.value.operation == "shell"
    assert "`gg.shell.shell`" in caught.value.message and "`shell`" in caught.value.message
    assert log.events[-1] == ("result", "shell.shell", 0, "unavailable")
    assert (membrane.counts.api_calls, membrane.counts.tool_calls) == (1, 0)


def test_the_role_gate_runs_before_any_argument_check() -> None:
    membrane, _, _ = _membrane(Role.STANDARD)
    with pytest.raises(OperationError) as caught:
        membrane("session.request_changes", {"items": 42})
    assert caught.value.code is ErrorCode.UNAVAILABLE and caught.value.operation == "request_changes"
    assert (
        "`gg.session.requestChanges`" in caught.value.message
        and "`gg.session.finish`" in caught.value.message
    )


def test_a_review_agent_may_not_finish_and_is_told_its_own_endings() -> None:
    membrane, _, _ = _membrane(Role.REVIEW)
    with pytest.raises(OperationError) as caught:
        membrane("session.finish", {"summary": "done"})
    assert (
        "`gg.session.approve`" in caught.value.message
        and "`gg.session.requestChanges`" in caught.value.message
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        ({}, "`path` is required"),
        ({"path": 7}, "`path` must be a string"),
        ({"path": "a", "offset": -1}, "4294967295"),
        ({"path": "a", "offset": 0.5}, "4294967295"),
        ({"path": "a", "offset": True}, "4294967295"),
        ({"path": "a", "nope": 1}, "`nope`"),
    ],
)
def test_forged_arguments_are_refused_on_the_host_naming_the_argument(
    args: dict[str, Any], named: str
) -> None:
    membrane, _, _ = _membrane()
    with pytest.raises(OperationError) as caught:
        membrane("files.read_file", args)
    assert caught.value.code is ErrorCode.INVALID_ARGUMENT and named in caught.value.message
    assert membrane.counts.tool_calls == 0


def test_an_operation_gg_does_not_offer_is_unavailable() -> None:
    membrane, _, _ = _membrane()
    with pytest.raises(OperationError) as caught:
        membrane("os.system", {"command": "id"})
    assert caught.value.code is ErrorCode.UNAVAILABLE


def test_finish_declares_an_ending_and_the_last_call_wins() -> None:
    membrane, scope, _ = _membrane()
    membrane("session.finish", {"summary": "the first word"})
    membrane("session.finish", {"summary": "the last word"})
    assert scope.declarations.ending is not None and scope.declarations.ending.final_text == "the last word"
    assert scope.declarations.endings_replaced == 1
    assert membrane.counts.tool_calls == 0


def test_a_blank_summary_is_refused_and_declares_nothing() -> None:
    membrane, scope, _ = _membrane()
    with pytest.raises(OperationError) as caught:
        membrane("session.finish", {"summary": "  \n"})
    assert caught.value.code is ErrorCode.INVALID_ARGUMENT and "not over" in caught.value.message
    assert scope.declarations.ending is None


def test_request_changes_numbers_the_items_left_after_trimming_blanks() -> None:
    membrane, scope, _ = _membrane(Role.REVIEW)
    membrane("session.request_changes", {"items": [" fix a ", "", "  ", "add b"]})
    assert scope.declarations.ending is not None
    assert scope.declarations.ending.final_text == "Changes requested:\n1. fix a\n2. add b"
    with pytest.raises(OperationError) as caught:
        membrane("session.request_changes", {"items": ["", " "]})
    assert caught.value.code is ErrorCode.INVALID_ARGUMENT and "`gg.session.approve`" in caught.value.message


def test_approve_ends_with_the_fixed_text() -> None:
    membrane, scope, _ = _membrane(Role.REVIEW)
    membrane("session.approve", {})
    assert scope.declarations.ending is not None and scope.declarations.ending.final_text == "Approved."


def test_past_the_run_deadline_tool_calls_are_refused_but_endings_are_served() -> None:
    scope = ProgramScope(
        "root", Role.STANDARD, frozenset(), workspace=None, views=None, turn=1, deadline=10.0
    )  # type: ignore[arg-type]
    membrane = Membrane(Registry(OPS), scope, Log(), "javascript", clock=lambda: 10.5)
    with pytest.raises(OperationError) as refused:
        membrane("files.read_file", {"path": "a.md"})
    assert refused.value.code is ErrorCode.LIMIT_EXCEEDED and membrane.counts.tool_calls == 0
    membrane("session.finish", {"summary": "done in time"})
    assert scope.declarations.ending is not None


def test_past_100000_calls_the_membrane_refuses_each_call_and_counts_it_without_recording_it() -> None:
    membrane, _, log = _membrane()
    for _ in range(100_000):
        membrane("files.read_file", {"path": "a.md"})
    for _ in range(3):
        with pytest.raises(OperationError) as caught:
            membrane("files.read_file", {"path": "a.md"})
        assert caught.value.code is ErrorCode.LIMIT_EXCEEDED and caught.value.operation == "read_file"
    assert "100,000 SDK calls" in caught.value.message
    assert len(log.events) == 2 * 100_000
    assert (membrane.counts.api_calls, membrane.counts.refused) == (100_000, 3)


def test_a_programs_first_200_lines_pass_on_live_and_the_rest_are_counted() -> None:
    membrane, _, log = _membrane()
    membrane.logged(["a", "b"], 0)
    membrane.logged([f"n{i}" for i in range(197)], 5)
    membrane.logged(["x", "y", "z"], 0)
    membrane.logged(["never"], 0)
    shown = [(text.split("\n"), dropped) for kind, text, dropped, _ in log.events if kind == "logged"]
    assert shown == [(["a", "b"], 0), ([f"n{i}" for i in range(197)], 5), (["x"], 0)]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("javascript", "`gg.files.readFile` takes no argument `bogusArg`"),
        ("python", "`gg.files.read_file` takes no argument `bogus_arg`"),
    ],
)
def test_an_argument_the_operation_does_not_declare_is_named_as_the_programs_arm_writes_it(
    language: str, said: str
) -> None:
    """A guest refuses an unknown option itself, so only a guest that did not keep its rules
    brings one here; the Python guest spells its keywords for the wire (`bogus_arg` -> `bogusArg`)."""
    membrane, _, _ = _membrane(language=language)
    with pytest.raises(OperationError) as caught:
        membrane("files.read_file", {"path": "a", "bogusArg": 1})
    assert (caught.value.code, caught.value.message) == (ErrorCode.INVALID_ARGUMENT, said)
