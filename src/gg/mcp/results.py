"""What an MCP tool's answer is to the program that called it. Pure.

Rules kept here:
- an answer with `isError` is the tool's failure: `other`, with the tool's own text (what its
  text blocks say, joined by newlines; a note when it said nothing);
- otherwise its `structuredContent` when it has one, else its text: the text blocks joined by
  newlines, each block that is not text (an image, audio, a resource) noted in its place as
  `[image image/png: not shown]`, never inlined.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_types import AudioContent, CallToolResult, EmbeddedResource, ImageContent, ResourceLink, TextContent

from gg.errors import ErrorCode
from gg.prompts import render
from gg.sdk.host.answers import HostAnswer


def answered(operation: str, arguments: Mapping[str, Any], result: CallToolResult) -> HostAnswer:
    """The answer `result` gives the call of `operation` with the wire `arguments`."""
    if result.is_error:
        text = _text(result) or render("mcp-tool-error-silent")
        return HostAnswer(operation, arguments, error=(ErrorCode.OTHER, text))
    if result.structured_content is not None:
        return HostAnswer(operation, arguments, value=result.structured_content)
    return HostAnswer(operation, arguments, value=_text(result))


def _text(result: CallToolResult) -> str:
    return "\n".join(_block(block) for block in result.content)


def _block(block: Any) -> str:
    match block:
        case TextContent(text=text):
            return text
        case ImageContent(mime_type=mime):
            return render("mcp-content-not-shown", kind="image", detail=mime)
        case AudioContent(mime_type=mime):
            return render("mcp-content-not-shown", kind="audio", detail=mime)
        case ResourceLink(uri=uri):
            return render("mcp-content-not-shown", kind="resource", detail=str(uri))
        case EmbeddedResource(resource=resource):
            return render("mcp-content-not-shown", kind="resource", detail=str(getattr(resource, "uri", "")))
        case _:
            return render("mcp-content-not-shown", kind=str(getattr(block, "type", "content")), detail="")
