"""The stdio transport to an MCP server gg starts: the server is a guest process
(`gg.sandbox.process`), so it leads a session of its own, its whole group is killed when the
connection closes, and gg's sentinel kills it when gg goes away however it went (`kill -9`
included), as it does every guest.

Rules kept here:
- the server runs with the MCP SDK's default environment (`HOME`, `LOGNAME`, `PATH`, `SHELL`,
  `TERM`, `USER`), over which the profile's `env` is laid, in its `cwd` (the config file's
  folder when none is written); nothing else of gg's environment reaches it;
- messages are newline-delimited JSON-RPC both ways; a line that is not a JSON-RPC message reaches
  the session as the error it is; a line may be up to `MAX_LINE_BYTES`;
- what the server writes to stderr is kept (its tail, `Started.last_words`) for the operator,
  never printed;
- closing the transport kills the server's group at once, reaps it and removes its private folder.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

from gg.sandbox.process import GuestProcess, Launch, private_folder

MAX_LINE_BYTES = 64 * 1024 * 1024
Streams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]


@dataclass
class Started:
    """The process a stdio transport started, once it has (None before, or when it could not)."""

    process: GuestProcess | None = field(default=None)

    def alive(self) -> bool:
        return self.process is not None and self.process.alive()

    def last_words(self) -> str:
        return "" if self.process is None else self.process.last_words().strip()


@asynccontextmanager
async def stdio_transport(
    command: Sequence[str], env: Mapping[str, str], cwd: Path, started: Started
) -> AsyncGenerator[Streams]:
    """The streams of a session with the server `command` starts. Raises `OSError` when it cannot
    be started."""
    launch = Launch(
        command=list(command),
        directory=private_folder("gg-mcp-"),
        env={**get_default_environment(), **env},
        cwd=str(cwd),
        pipes=True,
    )
    process = GuestProcess(launch)
    started.process = process
    try:
        reader, writer = await _pipes(process)
        incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](0)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_read, reader, incoming_send)
            tasks.start_soon(_write, outgoing_receive, writer)
            try:
                yield incoming, outgoing
            finally:
                tasks.cancel_scope.cancel()
                writer.close()
    finally:
        process.kill()


async def _pipes(process: GuestProcess) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), process.stdout)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, process.stdin)
    return reader, asyncio.StreamWriter(transport, protocol, None, loop)


async def _read(
    reader: asyncio.StreamReader, incoming: MemoryObjectSendStream[SessionMessage | Exception]
) -> None:
    """Each line the server writes, as a message (or the error reading it); the stream ends when
    the server's stdout does."""
    async with incoming:
        while True:
            try:
                line = await reader.readline()
            except (ValueError, OSError) as unreadable:  # a line past the limit, a broken pipe
                await incoming.send(unreadable)
                return
            if not line:
                return
            if not line.strip():
                continue
            try:
                message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except ValueError as bad:
                await incoming.send(bad)
                continue
            await incoming.send(SessionMessage(message))


async def _write(outgoing: MemoryObjectReceiveStream[SessionMessage], writer: asyncio.StreamWriter) -> None:
    async with outgoing:
        async for message in outgoing:
            text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
            try:
                writer.write(text.encode("utf-8") + b"\n")
                await writer.drain()
            except (ConnectionError, OSError):
                return
