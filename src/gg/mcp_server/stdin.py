"""The lines `gg mcp serve` reads from its stdin, read on the event loop itself: a read blocked
in a worker thread would hold the loop's shutdown, so a Ctrl-C or SIGTERM could never end the
server (and a server whose client died would be left running).

Rules kept here:
- stdin is read as a pipe on the loop, a line (up to `MAX_LINE_BYTES`) at a time, decoded as
  UTF-8 with bad bytes replaced; the lines end when stdin does;
- a stdin that is not a pipe or socket (a file, a terminal the loop cannot watch) is `None`: the
  SDK's own reader serves it.
"""

from __future__ import annotations

import asyncio
import sys

MAX_LINE_BYTES = 64 * 1024 * 1024


class StdinLines:
    """The async iteration of stdin's lines the MCP SDK's stdio transport reads."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


async def stdin_lines() -> StdinLines | None:
    """Stdin's lines, read on the running loop; `None` when the loop cannot watch stdin."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    except (ValueError, OSError):
        return None
    return StdinLines(reader)
