"""Checking a fidelity case's `expect` block against a finished session (facts, never wording)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from session import Session

from cases import Acks

ABSENT, PRESENT = "ABSENT", "PRESENT"
VIEW_HEADINGS = ("View:", "File:", "Documentation")


def check_reply(session: Session, expect: Mapping[str, Any], acks: Acks) -> None:
    turn = expect["reply"]
    for key, wanted in expect.items():
        checker = _REPLY_CHECKS.get(key)
        if checker is not None:
            checker(session, turn, acks(wanted), acks)


def check_session(session: Session, expect: Mapping[str, Any]) -> None:
    finished = session.finished
    if "status" in expect:
        assert finished["status"] == expect["status"], finished
    if "final_text" in expect:
        assert finished.get("finalText") == expect["final_text"]
    if "exit_code" in expect:
        assert finished["exitCode"] == expect["exit_code"]
    for key, value in expect.get("summary", {}).items():
        _json_rule(finished["summary"][key], value)
    for text in expect.get("final_text_absent", []):
        assert text not in (finished.get("finalText") or "")
    if "breaches" in expect:
        breaches = session.of_type("limit_exceeded")
        assert len(breaches) == len(expect["breaches"])
        for got, wanted in zip(breaches, expect["breaches"], strict=True):
            for key, value in wanted.items():
                assert got.get(key) == (None if value == ABSENT else value), (key, got)


def check_workspace(session: Session, wanted: Mapping[str, Any]) -> None:
    for name, contents in wanted.items():
        path = session.workspace / name
        if contents == ABSENT:
            assert not path.exists(), name
        else:
            assert path.read_text(encoding="utf-8") == contents, name


def _acks(session: Session, turn: int, wanted: list[Any], acks: Acks) -> None:
    got = session.receipts(turn)
    assert len(got) == len(wanted), got
    for body, rule in zip(got, wanted, strict=True):
        if isinstance(rule, str):
            assert body == rule
            continue
        if "pattern" in rule:
            assert re.fullmatch(rule["pattern"], body), body
        if "not_pattern" in rule:
            assert not re.fullmatch(rule["not_pattern"], body), body
        if "not_equal" in rule:
            assert body != rule["not_equal"]
        for fact in rule.get("contains", []):
            assert fact in body, (fact, body)


def _distinct(session: Session, turn: int, wanted: bool, acks: Acks) -> None:
    bodies = session.receipts(turn)
    assert len(set(bodies)) == len(bodies)


def _outcome(session: Session, turn: int, wanted: str, acks: Acks) -> None:
    assert session.outcome(turn)["outcome"] == wanted, session.outcome(turn)


def _error_type(session: Session, turn: int, wanted: str, acks: Acks) -> None:
    assert session.outcome(turn).get("errorType") == wanted, session.outcome(turn)


def _consecutive(session: Session, turn: int, wanted: int, acks: Acks) -> None:
    assert session.outcome(turn)["consecutiveErrors"] == wanted


def _feedback(session: Session, turn: int, wanted: list[Mapping[str, Any]], acks: Acks) -> None:
    got = session.feedback(turn)
    assert len(got) == len(wanted), got
    for index, (message, rule) in enumerate(zip(got, wanted, strict=True)):
        heading, _, body = message.partition("\n----\n")
        assert heading == rule["heading"], message
        _text_rule(body, rule)
        if rule.get("position") == "last":
            assert index == len(got) - 1


def _text_rule(text: str, rule: Mapping[str, Any]) -> None:
    for fact in rule.get("contains", []):
        assert fact in text, (fact, text)
    if "contains_any" in rule:
        assert any(fact in text for fact in rule["contains_any"]), text
    for fact in rule.get("absent", []):
        assert fact not in text, (fact, text)


def _absent_headings(session: Session, turn: int, wanted: list[str], acks: Acks) -> None:
    for message in session.feedback(turn):
        assert message.split("\n", 1)[0] not in wanted


def _views_next(session: Session, turn: int, wanted: list[Mapping[str, Any]], acks: Acks) -> None:
    views = [m for m in session.read_next(turn) if m.startswith(VIEW_HEADINGS)]
    assert len(views) == len(wanted), views
    for message, rule in zip(views, wanted, strict=True):
        if "heading" in rule:
            assert message.split("\n", 1)[0] == rule["heading"]
        _text_rule(message, rule)


def _executions(session: Session, turn: int, wanted: list[Mapping[str, Any]], acks: Acks) -> None:
    got = session.executions(turn)
    assert len(got) == len(wanted), got
    for record, rule in zip(got, wanted, strict=True):
        for key, value in rule.items():
            _EXECUTION_CHECKS.get(key, _field)(record, key, value)


def _field(record: Mapping[str, Any], key: str, value: Any) -> None:
    if value == ABSENT:
        assert key not in record, (key, record)
    elif value == PRESENT:
        assert key in record, (key, record)
    elif isinstance(value, dict) and "greater_than" in value:
        assert record[key] > value["greater_than"]
    else:
        assert record.get(key, [] if key == "logs" else None) == value, (key, record)


def _logs_json(record: Mapping[str, Any], key: str, wanted: list[Mapping[str, Any]]) -> None:
    """The first lines, parsed as JSON, match the rules one by one (later lines may be prose)."""
    assert len(record["logs"]) >= len(wanted), record["logs"]
    for line, rule in zip(record["logs"], wanted, strict=False):
        _json_rule(json.loads(line), rule)


def _json_rule(got: Any, rule: Any) -> None:
    if isinstance(rule, list):
        assert isinstance(got, list) and len(got) == len(rule), got
        for item, sub in zip(got, rule, strict=True):
            _json_rule(item, sub)
        return
    if not isinstance(rule, dict):
        assert got == rule
        return
    for key, value in rule.items():
        if key == "message_contains":
            for fact in value:
                assert fact in got["message"], (fact, got)
        elif key == "starts_with":
            assert got.startswith(value)
        elif key == "contains":
            assert value in got
        elif key == "error_contains":
            for fact in value:
                assert fact in got["error"], (fact, got)
        elif key != "error_is_substring_of":
            assert got.get(key) == value, (key, got)


def _logs_json_first(record: Mapping[str, Any], key: str, wanted: Mapping[str, Any]) -> None:
    assert json.loads(record["logs"][0]) == wanted


def _logs_rest(record: Mapping[str, Any], key: str, wanted: list[str]) -> None:
    assert record["logs"][1:] == wanted


def _logs_contains(record: Mapping[str, Any], key: str, wanted: list[str]) -> None:
    for line in wanted:
        assert line in record["logs"]


def _logs_absent(record: Mapping[str, Any], key: str, wanted: list[str]) -> None:
    for fact in wanted:
        assert all(fact not in line for line in record["logs"])


def _logs_match(record: Mapping[str, Any], key: str, wanted: list[Mapping[str, Any]]) -> None:
    assert len(record["logs"]) == len(wanted), record["logs"]
    for line, rule in zip(record["logs"], wanted, strict=True):
        if "equals_json" in rule:
            assert json.loads(line) == rule["equals_json"]
        if "equals" in rule:
            assert line == rule["equals"]
        if "json_entries" in rule:
            _json_rule(json.loads(line), rule["json_entries"])
        if "starts_with" in rule:
            assert line.startswith(rule["starts_with"]), line
        for fact in rule.get("contains", []):
            assert fact in line, (fact, line)
        for program_id, turn in rule.get("names_turn_of", {}).items():
            assert re.search(rf"{program_id}\W+\(?turn {turn}\b", line), (program_id, line)
        for program_id in rule.get("names_no_turn_for", []):
            assert not re.search(rf"{program_id}\W+\(?turn \d", line), line


def _error_contains(record: Mapping[str, Any], key: str, wanted: str) -> None:
    assert wanted in record["error"]


_EXECUTION_CHECKS = {
    "logs_json": _logs_json,
    "logs_json_first": _logs_json_first,
    "logs_rest": _logs_rest,
    "logs_contains": _logs_contains,
    "logs_absent": _logs_absent,
    "logs_match": _logs_match,
    "error_contains": _error_contains,
}


def _library(session: Session, turn: int, wanted: Mapping[str, Any], acks: Acks) -> None:
    held: dict[str, dict[str, Any]] = {}
    for event in session.events:
        if event["turn"] > turn:
            break
        if event["type"] == "program_kept":
            held[event["programId"]] = {**event, "turnRan": event["turn"]}
        elif event["type"] == "program_dropped":
            held.pop(event["programId"], None)
    entries = [entry for entry in held.values() if entry["turnRan"] > 0]
    assert len(entries) == wanted.get("entries", len(entries))
    if "ids" in wanted:
        assert [e["programId"] for e in entries] == wanted["ids"]
    if "turns" in wanted:
        assert [e["turnRan"] for e in entries] == wanted["turns"]
    if "ok" in wanted:
        assert [e["ok"] for e in entries] == wanted["ok"]
    for program_id, source in wanted.get("source_of", {}).items():
        _source_of(session, program_id, source)


def _source_of(session: Session, program_id: str, wanted: str) -> None:
    (execution,) = [e for e in session.of_type("code_execution") if e.get("programId") == program_id]
    if wanted.startswith("SAME_AS workspace "):
        wanted = (session.workspace / wanted.removeprefix("SAME_AS workspace ")).read_text()
    elif wanted.startswith("SAME_AS reply "):
        reply, call = re.findall(r"\d+", wanted)
        (request_call,) = [
            c for c in session.of_type("model_reply", int(reply)) for c in [c["calls"][int(call) - 1]]
        ]
        wanted = request_call["arguments"]["program"]
    assert execution["source"] == wanted


def _operator(session: Session, turn: int, wanted: Mapping[str, Any], acks: Acks) -> None:
    warns = [log["message"] for log in session.logs("warn", turn)]
    infos = [log["message"] for log in session.logs("info", turn)]
    for fact in wanted.get("warn_contains", []):
        assert any(fact in line for line in warns), (fact, warns)
    for fact in wanted.get("info_contains", []):
        assert any(fact in line for line in infos), (fact, infos)
    assert len(warns) >= wanted.get("warn_count_min", 0), warns
    refused = {e["operation"] for e in session.of_type("api_result", turn) if not e["ok"]}
    for operation in wanted.get("refusal_roster_includes", []):
        assert operation in refused, (operation, refused)


def _assistant_text(session: Session, turn: int, wanted: str, acks: Acks) -> None:
    (request,) = session.of_type("model_request", turn + 1)
    assert any(m["role"] == "assistant" and m["content"] == wanted for m in request["messages"])


def _transcript_order(session: Session, turn: int, wanted: list[str], acks: Acks) -> None:
    (request,) = session.of_type("model_request", turn + 1)
    roles = [
        m["role"] if m["role"] != "user" else m["content"].split("\n", 1)[0] for m in request["messages"]
    ]
    assert roles[: len(wanted)] == [w.removesuffix(" (ack)") for w in wanted], roles


def _answered_once(session: Session, turn: int, wanted: bool, acks: Acks) -> None:
    (request,) = session.of_type("model_request", turn + 1)
    (assistant,) = [m for m in request["messages"] if m["role"] == "assistant"]
    answered = [m["toolCallId"] for m in request["messages"] if m["role"] == "tool"]
    assert sorted(answered) == sorted(call["id"] for call in assistant["toolCalls"])


def _api_order(session: Session, turn: int, wanted: list[str], acks: Acks) -> None:
    calls = iter(e["operation"] for e in session.of_type("api_call", turn))
    assert all(op in calls for op in wanted)


def _never_read(session: Session, turn: int, wanted: list[str], acks: Acks) -> None:
    for request in session.of_type("model_request"):
        for message in request["messages"]:
            if message["role"] != "assistant":
                assert all(fact not in message["content"] for fact in wanted), message


def _compactions(session: Session, turn: int, wanted: list[Mapping[str, Any]], acks: Acks) -> None:
    got = session.of_type("compaction", turn)
    assert len(got) == len(wanted)
    for record, rule in zip(got, wanted, strict=True):
        for fact in rule.get("summary_contains", []):
            assert fact in record["summary"]
        for fact in rule.get("summary_absent", []):
            assert fact not in record["summary"]


def _next_prompt(session: Session, turn: int, wanted: list[str], acks: Acks) -> None:
    text = "\n".join(session.read_next(turn))
    for fact in wanted:
        assert fact in text, (fact, text)


_REPLY_CHECKS = {
    "acks": _acks,
    "acks_distinct": _distinct,
    "outcome": _outcome,
    "errorType": _error_type,
    "consecutiveErrors": _consecutive,
    "feedback": _feedback,
    "feedback_absent_headings": _absent_headings,
    "views_next_prompt": _views_next,
    "code_execution": _executions,
    "library_after": _library,
    "operator": _operator,
    "next_request_contains_assistant_text": _assistant_text,
    "transcript_order": _transcript_order,
    "every_tool_call_answered_once": _answered_once,
    "api_call_order_subsequence": _api_order,
    "no_model_message_contains": _never_read,
    "compactions": _compactions,
    "next_prompt_contains": _next_prompt,
}
