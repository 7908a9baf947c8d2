"""The replay provider: a journal checked whole when opened, then played one reply per call."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path
from typing import Any

import pytest

from gg.errors import ConfigError
from gg.providers.base import Message, Request, ToolCall, Usage, submit_program_tool
from gg.providers.journal import JournalError, parse_journal
from gg.providers.replay import JournalExhausted, ReceiptMissing, ReplayClient, ReplayError


def journal(tmp_path: Path, *lines: str | dict[str, Any]) -> Path:
    path = tmp_path / "journal.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return path


def program(source: str) -> dict[str, Any]:
    return {"calls": [{"name": "submit_program", "arguments": {"program": source}}]}


def request(*messages: Message) -> Request:
    return Request("sys", messages, submit_program_tool("JavaScript"), None, None)


def refusal(*lines: str) -> JournalError:
    with pytest.raises(JournalError) as caught:
        parse_journal("\n".join(lines), "j.jsonl")
    return caught.value


def test_a_journal_line_becomes_a_reply_with_synthesized_call_ids(tmp_path: Path) -> None:
    path = journal(
        tmp_path,
        {
            "text": "first",
            "calls": [
                {"name": "submit_program", "arguments": {"program": "a"}},
                {"name": "submit_program", "arguments": {"program": "b"}},
            ],
            "usage": {"inputTokens": 11, "outputTokens": 22, "cacheReadTokens": 5},
        },
        program("c"),
    )
    client = ReplayClient.open(path)
    first = client.complete(request())
    second = client.complete(request())
    assert client.model_id == "replay"
    assert first.text == "first"
    assert first.calls == (
        ToolCall("call_1_1", "submit_program", {"program": "a"}),
        ToolCall("call_1_2", "submit_program", {"program": "b"}),
    )
    assert first.usage == Usage(11, 22, cache_read_tokens=5)
    assert second.calls == (ToolCall("call_2_1", "submit_program", {"program": "c"}),)
    assert (second.text, second.usage, second.model) == ("", Usage(0, 0), "replay")
    assert client.served == 2


def test_string_arguments_are_replayed_raw(tmp_path: Path) -> None:
    path = journal(tmp_path, {"calls": [{"name": "submit_program", "arguments": '{"program": "x('}]})
    reply = ReplayClient.open(path).complete(request())
    assert reply.calls[0].arguments == '{"program": "x('


def test_blank_lines_and_slash_comments_are_skipped_and_not_counted(tmp_path: Path) -> None:
    path = journal(
        tmp_path, "// turn one: write the file", "", program("one"), "   // turn two", program("two")
    )
    client = ReplayClient.open(path)
    client.complete(request())
    assert client.complete(request()).calls[0].id == "call_2_1"


def test_a_reply_with_no_calls_replays_as_text_alone(tmp_path: Path) -> None:
    reply = ReplayClient.open(journal(tmp_path, {"text": "I am done."})).complete(request())
    assert (reply.text, reply.calls) == ("I am done.", ())


def test_recorded_receipts_are_handed_on_as_a_hint(tmp_path: Path) -> None:
    path = journal(tmp_path, {**program("a"), "receipts": ["k3p9"]}, program("b"))
    client = ReplayClient.open(path)
    assert client.complete(request()).receipts_hint == ("k3p9",)
    assert client.complete(request()).receipts_hint is None


def test_a_placeholder_becomes_the_receipt_that_call_received(tmp_path: Path) -> None:
    path = journal(
        tmp_path,
        {
            "calls": [
                {"name": "submit_program", "arguments": {"program": "a"}},
                {"name": "submit_program", "arguments": {"program": "b"}},
            ]
        },
        program('programs.get("{{receipt 1.2}}"); programs.get("{{ receipt 1.1 }}")'),
    )
    client = ReplayClient.open(path)
    first = client.complete(request())
    window = (
        Message("assistant", "", tool_calls=first.calls),
        Message("tool", "k3p9", tool_call_id="call_1_1"),
        Message("tool", "zq81", tool_call_id="call_1_2"),
    )
    second = client.complete(request(*window))
    assert second.calls[0].arguments == {"program": 'programs.get("zq81"); programs.get("k3p9")'}


def test_receipts_are_learned_from_a_window_that_grew_and_from_one_rewritten_before_it(
    tmp_path: Path,
) -> None:
    path = journal(
        tmp_path, program("a"), program("b"), program("c"), program("'{{receipt 1.1}} {{receipt 2.1}}'")
    )
    client = ReplayClient.open(path)
    brief = Message("user", "brief")
    first = client.complete(request(brief))
    grown = (brief, Message("assistant", "", tool_calls=first.calls))
    second = client.complete(request(*grown, Message("tool", "k3p9", tool_call_id="call_1_1")))
    rewritten = (  # a compaction: the receipt of call 2.1 now stands where the window held others
        Message("tool", "zq81", tool_call_id="call_2_1"),
        Message("assistant", "", tool_calls=second.calls),
        Message("user", "summary"),
    )
    client.complete(request(*rewritten))
    fourth = client.complete(request(*rewritten, Message("user", "more")))
    assert fourth.calls[0].arguments == {"program": "'k3p9 zq81'"}


def test_the_client_keeps_no_request_once_it_has_answered_it(tmp_path: Path) -> None:
    """A long replayed session costs the client the journal and the receipts, never every request
    it was sent (each holding the whole window of its turn)."""
    client = ReplayClient.open(journal(tmp_path, program("a"), program("b"), program("c")))
    brief = Message("user", "brief")
    sent = [request(brief), request(brief, Message("user", "more"))]
    kept = [weakref.ref(one) for one in sent]
    for one in sent:
        client.complete(one)
    del sent, one
    gc.collect()
    assert [ref() is None for ref in kept] == [True, True]
    assert client.served == 2
    third = client.complete(request(brief))
    assert third.calls[0].arguments == {"program": "c"}


def test_a_placeholder_for_a_call_with_no_receipt_yet_is_a_replay_error(tmp_path: Path) -> None:
    client = ReplayClient.open(journal(tmp_path, program("a"), program("get('{{receipt 1.1}}')")))
    client.complete(request())
    with pytest.raises(ReceiptMissing) as caught:
        client.complete(request())
    assert isinstance(caught.value, ReplayError)
    assert "reply 2 (journal line 2)" in caught.value.message
    assert "call_1_1" in caught.value.message


def test_a_request_past_the_last_reply_ends_the_replay_with_journal_exhausted(tmp_path: Path) -> None:
    client = ReplayClient.open(journal(tmp_path, program("a"), program("b")))
    client.complete(request())
    client.complete(request())
    with pytest.raises(JournalExhausted) as caught:
        client.complete(request())
    assert caught.value.message == "the replay journal ended after 2 replies; the session had not ended"
    assert client.served == 3


def test_a_line_that_is_not_json_is_refused_with_its_line_number() -> None:
    error = refusal("// header", json.dumps(program("a")), '{"text": "unterminated')
    [defect] = error.defects
    assert defect.path == "line 3"
    assert defect.reason.startswith("not valid JSON")
    assert isinstance(error, ConfigError)


def test_every_bad_line_is_named_at_once() -> None:
    error = refusal(
        "[1, 2]",
        '{"calls": [{"name": "submit_program"}]}',
        '{"calls": [{"name": "submit_program", "arguments": 7}]}',
        '{"usage": {"inputTokens": -1}}',
        '{"usage": {"inputTokens": true}}',
        '{"txt": "typo"}',
        '{"text": 3}',
        '{"calls": {}}',
        '{"calls": [{"name": "submit_program", "arguments": {}}], "receipts": ["a", "b"]}',
        json.dumps(program("ok")),
    )
    assert [d.path for d in error.defects] == [f"line {n}" for n in range(1, 10)]
    reasons = [d.reason for d in error.defects]
    assert reasons[0] == "the line must be a JSON object"
    assert "needs both `name` and `arguments`" in reasons[1]
    assert "must be an object or a string" in reasons[2]
    assert "`usage.inputTokens` must be a whole number" in reasons[3]
    assert "`usage.inputTokens` must be a whole number" in reasons[4]
    assert "unknown key(s) txt" in reasons[5]
    assert "`text` must be a string" in reasons[6]
    assert "`calls` must be a list" in reasons[7]
    assert "one string or null per call" in reasons[8]
    assert "9 defects" in str(error)


def test_a_placeholder_must_name_a_call_of_an_earlier_reply() -> None:
    error = refusal(
        json.dumps(program("a")),
        json.dumps(program("{{receipt 2.1}}")),
        json.dumps(program("{{receipt 1.2}}")),
        json.dumps(program("{{receipt one}}")),
    )
    assert [d.path for d in error.defects] == ["line 2", "line 3", "line 4"]
    assert "must name an earlier reply (1 to 1)" in error.defects[0].reason
    assert "reply 1 has 1 call(s)" in error.defects[1].reason
    assert "must read `{{receipt R.C}}`" in error.defects[2].reason


def test_an_empty_journal_is_refused() -> None:
    assert "at least one reply" in refusal("// nothing here", "").defects[0].reason


def test_a_missing_journal_file_is_refused_when_opened(tmp_path: Path) -> None:
    with pytest.raises(JournalError) as caught:
        ReplayClient.open(tmp_path / "absent.jsonl")
    assert "cannot be read" in caught.value.defects[0].reason


def test_a_journal_line_nested_too_deep_to_read_is_refused_with_its_line() -> None:
    from gg.providers.journal import JournalError, parse_journal

    deep = '{"text": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(JournalError) as refused:
        parse_journal(deep + "\n", "deep.jsonl")
    assert "line 1" in str(refused.value)


def test_a_bad_line_is_reported_and_what_depends_on_it_is_not_judged() -> None:
    error = refusal(
        '{"text": "the first reply", "calls": [{"name": "submit_program", "arguments": {"program": "a"}},',
        json.dumps(program("b {{receipt 1.1}}")),
        json.dumps(program("c {{receipt 2.1}} {{receipt 1.2}}")),
    )
    [defect] = error.defects
    assert defect.path == "line 1" and defect.reason.startswith("not valid JSON")
    assert "one whole JSON object on one line" in defect.reason


def test_a_placeholder_in_the_first_reply_says_no_reply_comes_before_it() -> None:
    [defect] = refusal(json.dumps(program("{{receipt 1.1}}"))).defects
    assert defect.reason == "`{{receipt 1.1}}` must name an earlier reply, and reply 1 has none before it"
    assert "1 to 0" not in defect.reason


def test_a_line_may_name_its_program_by_a_file_beside_the_journal(tmp_path: Path) -> None:
    (tmp_path / "turns").mkdir()
    (tmp_path / "turns" / "one.js").write_text('console.log("one");\n')
    (tmp_path / "two.js").write_text('import { programs } from "gg";\nprograms.get("{{receipt 1.1}}");\n')
    path = journal(
        tmp_path,
        {"text": "first", "programFile": "turns/one.js"},
        {
            "calls": [
                {"name": "submit_program", "programFile": "two.js"},
                {"name": "submit_program", "arguments": {"program": "3"}},
            ]
        },
    )
    client = ReplayClient.open(path)
    first = client.complete(request())
    assert first.text == "first" and first.calls == (
        ToolCall("call_1_1", "submit_program", {"program": 'console.log("one");\n'}),
    )
    second = client.complete(request(Message("tool", "k3p9", tool_call_id="call_1_1")))
    assert [c.arguments["program"] for c in second.calls] == [
        'import { programs } from "gg";\nprograms.get("k3p9");\n',
        "3",
    ]


def test_a_program_file_outside_the_journals_folder_is_a_defect(tmp_path: Path) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    (tmp_path / "secret.js").write_text("outside\n")
    (folder / "link.js").symlink_to(tmp_path / "secret.js")
    (folder / "latin1.js").write_bytes(b"caf\xe9\n")
    (folder / "big.js").write_text("x" * (1024 * 1024 + 1))
    (folder / "dir.js").mkdir()
    lines = [
        {"programFile": "../secret.js"},
        {"programFile": str(tmp_path / "secret.js")},
        {"programFile": "link.js"},
        {"programFile": "missing.js"},
        {"programFile": "latin1.js"},
        {"programFile": "big.js"},
        {"programFile": "dir.js"},
        {"programFile": "latin1.js", "calls": []},
        {"calls": [{"name": "submit_program", "programFile": "x.js", "arguments": {}}]},
    ]
    with pytest.raises(JournalError) as caught:
        ReplayClient.open(journal(folder, *lines))
    reasons = [d.reason for d in caught.value.defects]
    assert [d.path for d in caught.value.defects] == [f"line {n}" for n in range(1, 10)]
    assert reasons[0] == reasons[2] == "`programFile` leads outside the journal's folder"
    assert reasons[1] == "`programFile` must be a path relative to the journal's folder"
    assert reasons[3] == reasons[6] == "`programFile` names no file in the journal's folder"
    assert reasons[4] == "`programFile` is not UTF-8 text"
    assert reasons[5] == "`programFile` is over 1048576 bytes"
    assert "not both" in reasons[7] and "not both" in reasons[8]


def test_a_program_file_needs_a_journal_read_from_a_file() -> None:
    [defect] = refusal(json.dumps({"programFile": "one.js"})).defects
    assert "beside a journal file" in defect.reason


def test_a_token_count_past_2_to_the_53_is_refused_naming_the_bound() -> None:
    """No reply spends 2^53 tokens; a count past that could not be kept exactly nor summed by
    the store (a newcomer's 10^23 broke `gg query`'s SUM)."""
    error = refusal(json.dumps({**program("a"), "usage": {"inputTokens": 10**23}}))
    [defect] = error.defects
    assert defect.reason.startswith("`usage.inputTokens` must be a whole number from 0 to 9007199254740991")
