"""Reading a reply's calls: each is a submission, an unrunnable submission or a stray call."""

from gg.loop.calls import StrayCall, Submission, Unrunnable, classify
from gg.providers.base import ToolCall


def test_a_string_program_is_a_submission_taken_exactly_as_sent() -> None:
    source = "```js\nconst x = 1;\n```\n"
    assert classify(ToolCall("c1", "submit_program", {"program": source})) == Submission("c1", source)


def test_arguments_that_arrive_as_a_json_string_are_read_as_an_object() -> None:
    call = ToolCall("c1", "submit_program", '{"program": "1"}')
    assert classify(call) == Submission("c1", "1")


def test_a_call_without_a_program_gets_a_reason_naming_the_argument() -> None:
    result = classify(ToolCall("c1", "submit_program", {}))
    assert isinstance(result, Unrunnable)
    assert "`program`" in result.reason and "string" in result.reason


def test_a_program_that_is_not_a_string_is_not_repaired() -> None:
    result = classify(ToolCall("c1", "submit_program", {"program": 42}))
    assert isinstance(result, Unrunnable)
    assert "a number" in result.reason


def test_broken_json_arguments_are_a_call_without_a_program_and_say_so() -> None:
    result = classify(ToolCall("c1", "submit_program", '{"program": "x"'))
    assert isinstance(result, Unrunnable) and "JSON" in result.reason and "`program`" in result.reason


def test_arguments_nested_too_deep_to_read_are_refused_not_a_crash() -> None:
    deep = '{"program": ' + "[" * 100_000 + "]" * 100_000 + "}"
    result = classify(ToolCall("c1", "submit_program", deep))
    assert isinstance(result, Unrunnable) and "JSON" in result.reason


def test_a_call_to_another_tool_is_redirected_to_submit_program() -> None:
    result = classify(ToolCall("c2", "write_file", {"path": "a"}))
    assert isinstance(result, StrayCall)
    assert "submit_program" in result.reason and "write_file" in result.reason
