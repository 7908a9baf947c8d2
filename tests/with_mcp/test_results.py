"""What an MCP tool's answer is to the program: its structured content when it sends one, else its
text with every block that is not text noted in its place; an `isError` answer is `other` with the
tool's own text."""

from __future__ import annotations

from mcp_types import CallToolResult, ImageContent, ResourceLink, TextContent

from gg.errors import ErrorCode
from gg.mcp.results import answered


def test_structured_content_is_the_answer_when_the_tool_sends_it() -> None:
    result = CallToolResult(content=[TextContent(type="text", text="{...}")], structured_content={"id": 7})
    assert answered("notes.get", {"id": 7}, result).value == {"id": 7}


def test_text_is_the_answer_otherwise_and_other_blocks_are_noted_not_inlined() -> None:
    content = [
        TextContent(type="text", text="a chart:"),
        ImageContent(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
        ResourceLink(type="resource_link", uri="file:///data/chart.csv", name="chart"),
        TextContent(type="text", text="done"),
    ]
    value = answered("charts.draw", {}, CallToolResult(content=content)).value
    assert (
        value == "a chart:\n[image image/png: not shown]\n[resource file:///data/chart.csv: not shown]\ndone"
    )


def test_an_error_answer_is_other_with_the_tools_own_text() -> None:
    failed = CallToolResult(content=[TextContent(type="text", text="no note has the id 99")], is_error=True)
    assert answered("notes.get", {}, failed).error == (ErrorCode.OTHER, "no note has the id 99")
    silent = answered("notes.get", {}, CallToolResult(content=[], is_error=True))
    assert silent.error == (ErrorCode.OTHER, "the tool answered with an error and no text")
