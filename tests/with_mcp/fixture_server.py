"""A real MCP server written for the tests with the official `mcp` SDK (`MCPServer`).

    python fixture_server.py                 # over stdio
    python fixture_server.py --http PORT     # over streamable HTTP on 127.0.0.1:PORT
    python fixture_server.py --empty         # a server with no tool, over stdio

Its tools: typed arguments (`add`), a nested object and a choice (`ship`), a hyphenated name
(`get-note`, with structured output), one that fails (`refuse`), one that sleeps (`nap`), two
without an output schema (`echo`, structured all the same; `pick`, text, whose schema says more
than a type), and one that says which process answers (`pid`), so a test can kill it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

app = MCPServer("fixture", log_level="CRITICAL")


class Address(BaseModel):
    street: str
    city: str
    zip: str | None = None


class Note(TypedDict):
    id: int
    title: str
    tags: list[str]


@app.tool()
def add(a: int, b: float, label: str = "sum") -> float:
    """Add a whole number to a number."""
    return a + b


@app.tool()
def ship(to: Address, priority: Literal["low", "high"] = "low") -> dict[str, str]:
    """Ship a parcel to an address."""
    return {"city": to.city, "priority": priority, "zip": to.zip or "none"}


@app.tool(name="get-note")
def get_note(note_id: int) -> Note:
    """Fetch a note by its id."""
    return {"id": note_id, "title": f"note {note_id}", "tags": ["kept", "read"]}


@app.tool()
def refuse(reason: str) -> str:
    """Always fails, saying why."""
    raise ToolError(f"refused: {reason}")


@app.tool()
async def nap(seconds: float) -> str:
    """Sleep for a while, then answer."""
    await asyncio.sleep(seconds)
    return "awake"


@app.tool()
def echo(text: str) -> CallToolResult:
    """Answer with the text, twice (no output schema, a structured answer all the same)."""
    answer = {"text": text, "twice": text + text, "length": len(text)}
    return CallToolResult(content=[TextContent(type="text", text=str(answer))], structured_content=answer)


@app.tool(structured_output=False)
def pick(count: Annotated[int, Field(ge=1, le=5)]) -> str:
    """Pick between one and five things."""
    return "picked " + str(count)


@app.tool()
def pid() -> int:
    """The id of the process answering."""
    return os.getpid()


if __name__ == "__main__":
    if sys.argv[1:] == ["--empty"]:
        MCPServer("empty", log_level="CRITICAL").run()
    elif len(sys.argv) == 3 and sys.argv[1] == "--http":
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run()
