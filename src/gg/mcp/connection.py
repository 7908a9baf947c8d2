"""One MCP server of a run, held open on the run's event loop (`gg.sdk.host.calling.FunctionLoop`)
with the official `mcp` SDK's `Client`, over stdio (`gg.mcp.stdio`) or streamable HTTP.

Rules kept here:
- `open` starts (or reaches) the server, negotiates the protocol and lists every tool (following
  the list's pages), all within `OPEN_TIMEOUT_SECS` (the launch's bound, whatever the calls'
  `timeoutSecs`); a server that cannot be started or reached, or that has not listed its tools
  by then, is `Unreachable`, saying why, and is stopped at once;
- `call` sends one `tools/call` and waits at most `timeout` seconds: past it the request is
  cancelled and `TimeoutError` raised; the server stays up;
- a server that stops answering for good during a call (its process ended, its connection
  dropped) is `Unreachable`; the connection is closed then, and the next call starts (or
  reaches) the server again before it is sent;
- the session runs in a task of its own on the loop, entered and left there, so every
  `async with` of the SDK is left in the task that entered it; `close` ends it, and with it a
  stdio server's process group.
"""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CONNECTION_CLOSED, CallToolResult

from gg.config.mcp import McpServer
from gg.mcp.stdio import Started, stdio_transport
from gg.mcp.tools import ToolSchema

OPEN_TIMEOUT_SECS = 60.0  # starting a server that imports its SDK takes seconds on a loaded machine
HTTP_TIMEOUT = httpx2.Timeout(30.0, read=300.0)
MAX_TOOL_PAGES = 100


class Unreachable(Exception):
    """The server could not be started or reached, or stopped during a call; the message says how."""


class Connection:
    """The run's session with one server (see the module rules); every method runs on the loop."""

    def __init__(self, key: str, server: McpServer, base: Path) -> None:
        self.key = key
        self._server = server
        self._base = base
        self._client: Client | None = None
        self._ended: asyncio.Event | None = None
        self._holder: asyncio.Task[None] | None = None
        self._started = Started()

    async def open(self) -> list[ToolSchema]:
        """Open the session and list the server's tools. Raises `Unreachable`."""
        try:
            return await asyncio.wait_for(self._listed(), OPEN_TIMEOUT_SECS)
        except TimeoutError:
            await self.close(at_once=True)
            raise Unreachable(f"it did not answer within {OPEN_TIMEOUT_SECS:g} s of being started") from None

    async def _listed(self) -> list[ToolSchema]:
        client = await self._connected()
        tools: list[ToolSchema] = []
        cursor: str | None = None
        for _ in range(MAX_TOOL_PAGES):
            listed = await _guarded(client.list_tools(cursor=cursor), self._started, OPEN_TIMEOUT_SECS)
            tools.extend(
                ToolSchema(t.name, t.description or "", dict(t.input_schema or {}), t.output_schema)
                for t in listed.tools
            )
            cursor = listed.next_cursor
            if cursor is None:
                break
        return tools

    async def call(self, tool: str, arguments: dict[str, Any], timeout: float) -> CallToolResult:
        """One call of `tool`. Raises `TimeoutError`, `Unreachable`, `MCPError` (the server's own
        refusal) or `RuntimeError` (an answer outside the tool's output schema)."""
        client = await self._connected()
        try:
            return await asyncio.wait_for(client.call_tool(tool, arguments), timeout)
        except TimeoutError:
            raise
        except MCPError as refused:
            if refused.code != CONNECTION_CLOSED:
                raise
            await self._lost()
            raise Unreachable(self._gone_words()) from None
        except (OSError, httpx2.HTTPError) as broken:
            await self._lost()
            raise Unreachable(f"the connection failed ({type(broken).__name__}: {broken})") from None

    async def close(self, *, at_once: bool = False) -> None:
        """End the session; one that never opened, or one given up `at_once` (its server not
        answering), is cancelled."""
        if self._ended is not None:
            self._ended.set()
        holder, client, self._holder, self._client = self._holder, self._client, None, None
        if holder is not None:
            if client is None or at_once:
                holder.cancel()
            await asyncio.gather(holder, return_exceptions=True)

    @property
    def last_words(self) -> str:
        """The tail of what a started server wrote to stderr ("" for one reached over HTTP)."""
        return self._started.last_words()

    async def _connected(self) -> Client:
        if self._client is not None:
            return self._client
        opened: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        self._ended = asyncio.Event()
        self._holder = asyncio.create_task(self._hold(opened, self._ended))
        try:
            client = await asyncio.wait_for(asyncio.shield(opened), OPEN_TIMEOUT_SECS)
        except TimeoutError:
            await self.close()
            raise Unreachable(f"it did not answer within {OPEN_TIMEOUT_SECS:g} s of being started") from None
        except asyncio.CancelledError:
            await self.close()
            raise
        except Exception as failed:
            await self.close()
            raise Unreachable(self._failure_words(failed)) from None
        self._client = client
        return client

    async def _hold(self, opened: asyncio.Future[Client], ended: asyncio.Event) -> None:
        """The session's own task: enter the client, hand it over, and leave it once `ended`."""
        try:
            async with Client(self._transport(), cache=None) as client:
                opened.set_result(client)
                await ended.wait()
        except BaseException as failed:
            if not opened.done():
                opened.set_exception(failed if isinstance(failed, Exception) else Unreachable("cancelled"))
            if not isinstance(failed, Exception):
                raise

    def _transport(self) -> AbstractAsyncContextManager[Any]:
        server = self._server
        if server.command is not None:
            self._started = Started()
            cwd = server.cwd or self._base
            return stdio_transport(server.command, server.env or {}, cwd, self._started)
        assert server.url is not None, "a server names a command or a url"
        return _http(server.url, dict(server.headers or {}))

    async def _lost(self) -> None:
        """The session is gone: close what is left of it, so the next call opens a new one."""
        await self.close()

    def _gone_words(self) -> str:
        if self._server.command is None:
            return "the server closed the connection during the call"
        words = self.last_words
        return "the server stopped during the call" + (f"; its last words: {words[-400:]}" if words else "")

    def _failure_words(self, failed: Exception) -> str:
        words = self.last_words
        failed = _first_leaf(failed)
        said = f"{type(failed).__name__}: {failed}" if str(failed) else type(failed).__name__
        return said + (f"; its last words: {words[-400:]}" if words else "")


def _http(url: str, headers: dict[str, str]) -> AbstractAsyncContextManager[Any]:
    return _HttpTransport(url, headers)


class _HttpTransport:
    """Streamable HTTP on a client of gg's own (its headers, the MCP transports' timeouts), closed
    with the transport."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self._http = httpx2.AsyncClient(headers=headers, timeout=HTTP_TIMEOUT)
        self._inner = streamable_http_client(url, http_client=self._http)

    async def __aenter__(self) -> Any:
        await self._http.__aenter__()
        return await self._inner.__aenter__()

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self._inner.__aexit__(*exc)
        finally:
            await self._http.__aexit__(None, None, None)


async def _guarded(awaitable: Any, started: Started, timeout: float) -> Any:
    try:
        return await asyncio.wait_for(awaitable, timeout)
    except TimeoutError:
        raise Unreachable(f"it did not list its tools within {timeout:g} s") from None
    except MCPError as refused:
        words = started.last_words()
        raise Unreachable(
            f"it refused to list its tools ({refused})" + (f"; {words}" if words else "")
        ) from None


def _first_leaf(failed: Exception) -> Exception:
    """The first exception an exception group holds, however deep (the SDK's task groups wrap)."""
    while isinstance(failed, ExceptionGroup) and failed.exceptions:
        failed = failed.exceptions[0]  # pyright: ignore[reportUnknownMemberType]
    return failed
