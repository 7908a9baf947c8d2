"""The one tool every request offers."""

from __future__ import annotations

from gg.outcome import ErrorType
from gg.providers.base import ModelError, Usage, submit_program_tool


def test_submit_program_takes_one_required_program_string_and_nothing_else() -> None:
    tool = submit_program_tool("TypeScript")
    assert tool.name == "submit_program"
    assert tool.parameters["type"] == "object"
    assert tool.parameters["required"] == ["program"]
    assert tool.parameters["additionalProperties"] is False
    assert list(tool.parameters["properties"]) == ["program"]
    assert tool.parameters["properties"]["program"]["type"] == "string"


def test_the_tool_wording_names_the_language_and_is_pinned() -> None:
    tool = submit_program_tool("Python")
    assert tool.description == (
        "Submit this turn's work as one complete Python program. "
        "gg compiles and runs the `program` string exactly as you wrote it."
    )
    assert (
        tool.parameters["properties"]["program"]["description"] == "The whole Python program, as source code."
    )


def test_a_model_error_carries_its_type_its_line_and_any_usage_charged() -> None:
    error = ModelError(ErrorType.MODEL_LENGTH_CAPPED, "cut off", usage=Usage(3, 4))
    assert (error.type, error.message, error.usage) == (ErrorType.MODEL_LENGTH_CAPPED, "cut off", Usage(3, 4))
    assert str(error) == "model_length_capped: cut off"
