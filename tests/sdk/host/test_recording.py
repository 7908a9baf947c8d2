"""A recording keeps the host functions' declarations and answers beside the replies, in the order
they came; the replies are read as if the host lines were not there; a replay hands each agent its
answers in order and refuses a call the recording holds no answer for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gg
from gg.errors import ErrorCode, OperationError
from gg.providers.journal import JournalError, load_journal
from gg.providers.recording import JournalRecorder
from gg.providers.scripted import ScriptedClient, program_reply
from gg.sdk.host.answers import HostAnswer, ReplayedAnswers
from gg.sdk.host.recording import answer_line, family_line, read_host_recording, read_host_recordings

family = gg.family("ledger", doc="the ledger.")


@family.operation
def balance(account: str) -> float:
    """An account's balance."""
    return 1.0


def test_host_lines_are_kept_where_they_came_and_the_replies_are_read_around_them(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    recorder = JournalRecorder.create(path)
    recorder.record_host(family_line(family.declaration, "books:ledger"))
    client = recorder.wrap(ScriptedClient([program_reply("one();"), program_reply("two();")]), "root")
    client.complete(None)  # type: ignore[arg-type]
    recorder.record_host(answer_line("root", HostAnswer("ledger.balance", {"account": "a"}, 1.0)), "root")
    client.complete(None)  # type: ignore[arg-type]
    recorder.record_host(
        answer_line(
            "root", HostAnswer("ledger.balance", {"account": "b"}, error=(ErrorCode.NOT_FOUND, "no b"))
        ),
        "root",
    )
    recorder.close()
    kinds = [line.split('"', 2)[1] for line in path.read_text().splitlines()[1:]]
    assert kinds == ["hostFamily", "agent", "hostAnswer", "agent", "hostAnswer"]
    replies = load_journal(path)
    assert [r.calls[0].arguments for r in replies] == [{"program": "one();"}, {"program": "two();"}]
    assert [r.line for r in replies] == [3, 5]
    recording = read_host_recording(path)
    (recorded,) = recording.families
    assert recorded.declaration == family.declaration and recorded.entry == "books:ledger"
    assert recording.named("ledger") is recorded and recording.entered_as("books:ledger") is recorded
    assert [answer for _, answer in recording.answers] == [
        HostAnswer("ledger.balance", {"account": "a"}, 1.0),
        HostAnswer("ledger.balance", {"account": "b"}, error=(ErrorCode.NOT_FOUND, "no b")),
    ]


def test_an_answer_stands_after_the_latest_reply_of_the_agent_whose_program_asked(tmp_path: Path) -> None:
    path = tmp_path / "crew.jsonl"
    recorder = JournalRecorder.create(path)
    root = recorder.wrap(ScriptedClient([program_reply("root();")]), "root")
    child = recorder.wrap(ScriptedClient([program_reply("child();")]), "root.1")
    root.complete(None)  # type: ignore[arg-type]
    child.complete(None)  # type: ignore[arg-type]
    recorder.record_host(answer_line("root", HostAnswer("ledger.balance", {"account": "r"}, 1.0)), "root")
    recorder.record_host(answer_line("root.1", HostAnswer("ledger.balance", {"account": "c"}, 2.0)), "root.1")
    recorder.close()
    lines = path.read_text().splitlines()[1:]
    markers = ['"root();"', '"r"', '"child();"', '"c"']  # root's reply, its answer, the child's, its answer
    assert [marker in line for marker, line in zip(markers, lines, strict=True)] == [True] * 4
    assert [(agent, answer.arguments) for agent, answer in read_host_recording(path).answers] == [
        ("root", {"account": "r"}),
        ("root.1", {"account": "c"}),
    ]


def test_the_host_lines_of_every_replayed_journal_are_read_and_every_bad_line_named(tmp_path: Path) -> None:
    first, second, bad = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, agent, value in [(first, "root", 1.0), (second, "root.1", 2.0)]:
        answer = HostAnswer("ledger.balance", {"account": agent}, value)
        path.write_text(json.dumps(answer_line(agent, answer)) + "\n")
    bad.write_text('{"hostFamily": 3}\n')
    read = read_host_recordings([first, second])
    assert [(agent, answer.value) for agent, answer in read.answers] == [("root", 1.0), ("root.1", 2.0)]
    with pytest.raises(JournalError) as refused:
        read_host_recordings([bad, first, bad])
    assert [d.path for d in refused.value.defects] == [f"{bad}, line 1", f"{bad}, line 1"]


def test_a_host_line_that_cannot_be_read_is_refused_with_its_line_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "hi"}\n{"hostAnswer": {"operation": "ledger.balance"}}\n{"hostFamily": 3}\n')
    with pytest.raises(JournalError) as refused:
        read_host_recording(path)
    assert [d.path for d in refused.value.defects] == ["line 2", "line 3"]
    assert "a host answer names its `agent` and `operation`" in str(refused.value)


def test_a_replay_gives_each_agent_its_answers_in_order_and_refuses_a_call_it_holds_none_for() -> None:
    answers = ReplayedAnswers.of(
        [
            ("root", HostAnswer("ledger.balance", {"account": "a"}, 1.0)),
            ("child", HostAnswer("ledger.balance", {"account": "c"}, 3.0)),
            ("root", HostAnswer("ledger.balance", {"account": "b"}, 2.0)),
        ]
    )
    assert answers.next("child", "balance", "ledger.balance", {"account": "c"}).give("balance") == 3.0
    with pytest.raises(OperationError) as parted:
        answers.next("root", "balance", "ledger.balance", {"account": "b"})
    assert parted.value.code is ErrorCode.UNAVAILABLE and parted.value.operation == "balance"
    assert 'next answer is for `ledger.balance` called with {"account": "a"}' in parted.value.message
    assert answers.next("root", "balance", "ledger.balance", {"account": "a"}).value == 1.0  # nothing used up
    assert answers.next("root", "balance", "ledger.balance", {"account": "b"}).value == 2.0
    with pytest.raises(OperationError, match=r"holds no answer for this call of `ledger\.balance`"):
        answers.next("root", "balance", "ledger.balance", {"account": "b"})


def test_a_recorded_error_is_given_back_as_the_same_error() -> None:
    failed = HostAnswer("ledger.balance", {"account": "z"}, error=(ErrorCode.OTHER, "KeyError: 'z'"))
    with pytest.raises(OperationError) as raised:
        failed.give("balance")
    assert (raised.value.operation, raised.value.code, raised.value.message) == (
        "balance",
        ErrorCode.OTHER,
        "KeyError: 'z'",
    )


def test_a_host_answer_naming_an_agent_of_no_ids_shape_is_refused_as_a_reply_line_naming_one_is(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bad-agent.jsonl"
    lines = [
        answer_line("root", HostAnswer("ledger.balance", {"account": "a"}, 1.0)),
        answer_line("worker\u202e", HostAnswer("ledger.balance", {"account": "b"}, 2.0)),
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(JournalError) as refused:
        read_host_recording(path)
    (defect,) = refused.value.defects
    assert (defect.path, defect.found) == ("line 2", "worker\u202e")
    assert defect.render() == (
        "line 2: `agent` is no agent id (`root`, `root.1`, `root.1.f1`, `root@2`) (found worker\\u202e)"
    )


def test_a_recorded_value_outside_the_declared_result_is_answered_other_as_the_live_call_is(
    tmp_path: Path,
) -> None:
    path = tmp_path / "wrong-type.jsonl"
    lines = [
        family_line(family.declaration, None),
        answer_line("root", HostAnswer("ledger.balance", {"account": "a"}, "one")),
        answer_line("root", HostAnswer("ledger.balance", {"account": "b"}, 2.5)),
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for recording in (read_host_recording(path), read_host_recordings([path])):
        (_, wrong), (_, right) = recording.answers
        assert wrong.error == (
            ErrorCode.OTHER,
            'it answered outside its declared result `float`: the answer must be a number, got "one"',
        )
        assert right == HostAnswer("ledger.balance", {"account": "b"}, 2.5)
