"""The notes server of the mcp-notes example: a small MCP server written with the `mcp` SDK, over
stdio, holding a few notes about a release in memory.

    python server.py

Its tools: `search-notes` (structured output: the matching notes' ids and titles), `read-note`
(one note; an id it does not hold is the tool's error), `add-note`, and `stats` (no output
schema: a line of text).
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

app = MCPServer("notes", log_level="CRITICAL")


class Note(BaseModel):
    id: int
    title: str
    body: str
    tags: list[str]


class Summary(BaseModel):
    id: int
    title: str


NOTES = [
    Note(id=1, title="Release 2.4 scope", body="Ship the importer and the new search.", tags=["release"]),
    Note(id=2, title="Office plants", body="Water the fern on Fridays.", tags=["office"]),
    Note(id=3, title="Release 2.4 risks", body="The importer is slow on files over 1 GB.", tags=["release"]),
    Note(id=4, title="Release 2.3 retro", body="Freeze a week earlier next time.", tags=["release", "retro"]),
]


@app.tool(name="search-notes")
def search_notes(query: str, tag: str | None = None) -> list[Summary]:
    """The notes whose title or body holds `query` (case ignored), optionally only those tagged `tag`."""
    wanted = query.lower()
    return [
        Summary(id=note.id, title=note.title)
        for note in NOTES
        if (wanted in note.title.lower() or wanted in note.body.lower()) and (tag is None or tag in note.tags)
    ]


@app.tool(name="read-note")
def read_note(id: int) -> Note:
    """One note, whole."""
    for note in NOTES:
        if note.id == id:
            return note
    raise ToolError(f"no note has the id {id}")


@app.tool(name="add-note")
def add_note(title: str, body: str, tags: list[str] | None = None) -> Summary:
    """Keep a new note; answers its id and title."""
    note = Note(id=max(n.id for n in NOTES) + 1, title=title, body=body, tags=tags or [])
    NOTES.append(note)
    return Summary(id=note.id, title=note.title)


@app.tool(structured_output=False)
def stats() -> str:
    """How many notes there are, and their tags."""
    tags = sorted({tag for note in NOTES for tag in note.tags})
    return f"{len(NOTES)} notes; tags: {', '.join(tags)}"


if __name__ == "__main__":
    app.run()
