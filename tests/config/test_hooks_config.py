"""Hook declarations (issue 26): the capability set's `hooks` (the session's two ends) and each
profile's `hooks` (the other eight events); a broken declaration refuses the launch with every
defect at once; what an answer means and what the built-ins decide are pure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gg.config.hooks import (
    AnswerRefused,
    BuiltInHook,
    HookAction,
    HookAnswer,
    HookEvent,
    HookKind,
    answer_of,
    built_in_answer,
    read_answer,
)

from .documents import at, example, load, paths, refusal, root

BLOCKING = ("pre-write", "pre-shell", "agent-stop")
NOT_BLOCKING = ("agent-start", "post-write", "post-shell", "pre-compact", "post-compact")


def with_hooks(agent: list[dict[str, Any]], session: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    document = example()
    root(document)["hooks"] = agent
    if session is not None:
        document["hooks"] = session
    return document


def executable(folder: Path, name: str = "hook.sh") -> str:
    path = folder / name
    path.write_text('#!/bin/sh\necho \'{"action": "continue"}\'\n')
    path.chmod(0o755)
    return name


def test_hooks_load_in_order_with_their_kind_label_and_timeout(folder: Path) -> None:
    command = executable(folder)
    loaded = load(
        with_hooks(
            [
                {"event": "pre-write", "builtIn": "refuse-empty-write"},
                {"event": "pre-shell", "name": "guard", "command": command, "timeoutSecs": 2.5},
            ],
            [{"event": "session-end", "builtIn": "trace"}],
        ),
        folder,
    )
    first, second = loaded.root.hooks
    assert (first.event, first.kind, first.label, first.timeout_secs) == (
        HookEvent.PRE_WRITE,
        HookKind.BUILT_IN,
        "refuse-empty-write",
        30.0,
    )
    assert (second.kind, second.label, second.timeout_secs) == (HookKind.COMMAND, "guard", 2.5)
    assert second.command == (folder / "hook.sh").resolve()
    assert [hook.event for hook in loaded.hooks] == [HookEvent.SESSION_END]


def test_every_broken_declaration_is_named_at_once(folder: Path) -> None:
    (folder / "plain.sh").write_text("#!/bin/sh\n")
    defects = refusal(
        with_hooks(
            [
                {"event": "on-save", "builtIn": "trace"},
                {"event": "post-write", "builtIn": "refuse-empty-write"},
                {"event": "pre-shell", "command": "missing.sh"},
                {"event": "pre-shell", "command": "plain.sh"},
                {"event": "session-start", "builtIn": "trace"},
                {"event": "agent-stop"},
            ],
            [{"event": "pre-write", "builtIn": "trace"}],
        ),
        folder,
    )
    assert paths(defects) == [
        "agents[0].hooks[0].event",
        "agents[0].hooks[1].builtIn",
        "agents[0].hooks[2].command",
        "agents[0].hooks[3].command",
        "agents[0].hooks[4].event",
        "agents[0].hooks[5]",
        "hooks[0].event",
    ]
    assert "must be one of session-start, session-end, agent-start" in defects[0].reason
    assert defects[1].reason.startswith("blocks, and post-write cannot be blocked")
    assert "must name an existing file" in defects[2].reason
    assert "must be an executable file" in defects[3].reason
    assert "declare session-start in the capability set's hooks" in defects[4].reason
    assert defects[5].reason == "must name exactly one of command and builtIn"
    assert "declare pre-write in that profile's hooks" in defects[6].reason


@pytest.mark.parametrize("event", NOT_BLOCKING)
def test_a_blocking_built_in_on_an_event_that_cannot_block_refuses_the_launch(
    folder: Path, event: str
) -> None:
    defects = refusal(with_hooks([{"event": event, "builtIn": "guard-destructive-shell"}]), folder)
    reason = at(defects, "agents[0].hooks[0].builtIn").reason
    assert reason.startswith(
        f"blocks, and {event} cannot be blocked (only agent-stop, pre-write, pre-shell can)"
    )


@pytest.mark.parametrize("event", BLOCKING)
def test_trace_is_declared_on_any_event_and_a_blocking_built_in_only_on_its_own(
    folder: Path, event: str
) -> None:
    assert load(with_hooks([{"event": event, "builtIn": "trace"}]), folder).root.hooks
    if event != "pre-write":
        defects = refusal(with_hooks([{"event": event, "builtIn": "refuse-empty-write"}]), folder)
        assert (
            at(defects, "agents[0].hooks[0].builtIn").reason
            == "judges only pre-write; declare it on that event"
        )


def test_a_command_and_a_built_in_together_are_refused(folder: Path) -> None:
    declared = {"event": "pre-write", "builtIn": "trace", "command": executable(folder)}
    defect = at(refusal(with_hooks([declared]), folder), "agents[0].hooks[0]")
    assert defect.reason == "must name exactly one of command and builtIn"


def test_an_answer_is_read_off_the_last_non_empty_line() -> None:
    said = 'checking\n{"action": "block", "message": "vendored"}\n\n'
    assert read_answer(HookEvent.PRE_WRITE, said) == HookAnswer(HookAction.BLOCK, "vendored")
    assert read_answer(HookEvent.POST_WRITE, '{"action": "continue"}') == HookAnswer(HookAction.CONTINUE)
    assert answer_of(HookEvent.AGENT_STOP, None) == HookAnswer(HookAction.CONTINUE)


@pytest.mark.parametrize(
    ("event", "said", "reason"),
    [
        (
            HookEvent.POST_WRITE,
            '{"action": "block"}',
            "answered block on post-write, which cannot be blocked",
        ),
        (HookEvent.PRE_WRITE, "", "printed no answer"),
        (HookEvent.PRE_WRITE, "ok", "printed 'ok', which is not a JSON object"),
        (HookEvent.PRE_WRITE, '{"action": "allow"}', 'answered action "allow"'),
        (HookEvent.PRE_WRITE, '{"action": "message"}', "answered message without a `message`"),
        (HookEvent.PRE_WRITE, '{"action": "continue", "message": "x"}', "answered continue with a `message`"),
        (
            HookEvent.PRE_WRITE,
            '{"action": "continue", "reason": "x"}',
            "answered with keys a hook's answer does not have: reason",
        ),
        (HookEvent.PRE_WRITE, "9" * 5000, "printed '9999"),  # longer than Python reads
    ],
)
def test_what_is_no_answer_is_refused_naming_why(event: HookEvent, said: str, reason: str) -> None:
    with pytest.raises(AnswerRefused) as refused:
        read_answer(event, said)
    assert refused.value.reason.startswith(reason)


def test_refuse_empty_write_blocks_only_an_empty_write() -> None:
    empty = {"path": "/w/a.txt", "contents": " \n\t"}
    assert built_in_answer(BuiltInHook.REFUSE_EMPTY_WRITE, HookEvent.PRE_WRITE, empty) == HookAnswer(
        HookAction.BLOCK, "the write would leave /w/a.txt empty"
    )
    full = {"path": "/w/a.txt", "contents": "x"}
    assert (
        built_in_answer(BuiltInHook.REFUSE_EMPTY_WRITE, HookEvent.PRE_WRITE, full).action
        is HookAction.CONTINUE
    )


@pytest.mark.parametrize(
    ("command", "blocked"),
    [
        ("git push origin main", True),
        ("git -C repo push", True),
        ("git reset --hard HEAD~1", True),
        ("rm -rf /", True),
        ("rm -r ../sibling", True),
        ("ls && rm -rf ~", True),
        ("rm -rf build", False),
        ("rm notes.txt", False),
        ("git status; git reset HEAD a.txt", False),
        ("echo push", False),
    ],
)
def test_guard_destructive_shell_reads_the_commands_text(command: str, blocked: bool) -> None:
    answer = built_in_answer(BuiltInHook.GUARD_DESTRUCTIVE_SHELL, HookEvent.PRE_SHELL, {"command": command})
    assert (answer.action is HookAction.BLOCK) == blocked


def test_trace_reports_each_event_as_a_message_and_continues_where_no_prompt_follows() -> None:
    payload = {"event": "post-shell", "agentId": "root", "agent": "root", "command": "ls", "ok": True}
    answer = built_in_answer(BuiltInHook.TRACE, HookEvent.POST_SHELL, payload)
    assert answer == HookAnswer(
        HookAction.MESSAGE, 'post-shell {"agent": "root", "agentId": "root", "command": "ls", "ok": true}'
    )
    ended = built_in_answer(BuiltInHook.TRACE, HookEvent.SESSION_END, {"status": "completed"})
    assert ended.action is HookAction.CONTINUE


def test_trace_cuts_a_long_payload_to_a_messages_bound() -> None:
    payload = {"path": "/w/big.txt", "contents": "x" * 50_000}
    answer = built_in_answer(BuiltInHook.TRACE, HookEvent.PRE_WRITE, payload)
    assert answer.message is not None and len(answer.message) == 16_000 and answer.message.endswith("x…")


def test_a_command_that_names_a_folder_is_refused_as_a_folder_not_a_file(folder: Path) -> None:
    (folder / "hooks").mkdir()
    defects = refusal(with_hooks([{"event": "pre-shell", "command": "hooks"}]), folder)
    assert paths(defects) == ["agents[0].hooks[0].command"]
    assert (
        defects[0].reason
        == f"must name an existing file; {(folder / 'hooks').resolve()} is a folder, not a file"
    )
