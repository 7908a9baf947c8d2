"""gg as an MCP server (`gg mcp serve CONFIG`): one tool per arm the capability set enables,
`run_program_<arm>` (`run_program_javascript`, `run_program_python_typed`), taking `{program}`.

Rules kept here:
- an arm is served by the first profile (in document order) whose programs are written in it
  (`gg.mcp_server.arms`, which loads each served profile without a model of its own),
  with everything that profile enables (its modules, its ceilings, its workspace), as the root of
  a session recorded in the run store like any `gg run` (`gg show`, the console); the MCP client
  is its model (`gg.mcp_server.bridge`);
- each call is one turn of that session, and is answered with the texts the session's next
  request shows: the receipt (the program's library id, or `ok`), each view the program opened,
  then gg's feedback, each as one text block; the program library lasts across calls, so an id
  one answer names is fetched by the next call's program;
- calls to one arm take their turns one at a time, in the order they came; arms run apart;
- a session that ends (a program finished it, a ceiling stopped it, its launch was refused)
  answers its last call with how it ended, a refused one as an error; the next call starts a new
  session;
- a call waits on the server's loop, never on a thread, and stdin is read on the loop too
  (`gg.mcp_server.stdin`): nothing holds the server once it is told to stop;
- the server speaks over stdio, or over streamable HTTP on loopback (`--http`); when it stops
  (its client closes stdio, Ctrl-C, SIGTERM), every session still open ends at once, however its
  call stands (a program running is stopped, never waited for), recorded as interrupted, saying
  why, with the exit code of the signal that stopped it (143 for SIGTERM).
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp_types import CallToolResult, ContentBlock, InputRequiredResult, TextContent
from pydantic import Field, ValidationError

from gg.agents.interruption import (
    Ended,
    OutsideStop,
    message_of,
    signal_of,
    stopped_from_outside,
    taken_stops,
)
from gg.config.model import CapabilitySet
from gg.errors import ConfigError
from gg.loop.status import RunStatus
from gg.mcp_server.arguments import refused_arguments
from gg.mcp_server.arms import served_arms
from gg.mcp_server.bridge import CLOSED, Bridge, CallReading
from gg.mcp_server.stdin import stdin_lines
from gg.prompts import render
from gg.sandbox.languages import LANGUAGES

SERVER_NAME = "gg"


def tool_name(arm: str) -> str:
    return f"run_program_{arm.replace('-', '_')}"


class ArmSessions:
    """One arm's sessions, one at a time: the bridge of the one open and the thread it runs on."""

    def __init__(self, capability_set: CapabilitySet, store: Path) -> None:
        self._capability_set = capability_set
        self._store = store
        self._lock = threading.Lock()
        self._turns = asyncio.Lock()
        self._bridge: Bridge | None = None
        self._stop = OutsideStop()
        self._thread: threading.Thread | None = None

    async def call(self, program: str) -> CallReading:
        """Run `program` as the open session's next turn (opening one when none is); the call waits
        on the event loop, never on a thread, so a stop is never held up by it."""
        async with self._turns:
            with self._lock:
                answer = (self._bridge or self._open()).submit(program)
            reading = await asyncio.wrap_future(answer)
            if reading.ended:
                with self._lock:
                    self._join()
            return reading

    def close(self, why: Ended) -> None:
        """End the open session however its call stands: where it waits for a call, or with the
        program it runs stopped at once; recorded `interrupted`, saying `why`."""
        with self._lock:
            if self._bridge is not None:
                self._bridge.close(why)
                self._stop.stop(why)
            self._join()

    def _open(self) -> Bridge:
        bridge = Bridge()
        self._bridge = bridge
        self._stop = OutsideStop()
        self._thread = threading.Thread(
            target=self._session, args=(bridge, self._stop), name="gg-mcp-serve", daemon=True
        )
        self._thread.start()
        return bridge

    def _join(self) -> None:
        thread, self._thread, self._bridge = self._thread, None, None
        if thread is not None:
            thread.join()

    def _session(self, bridge: Bridge, stop: OutsideStop) -> None:
        """Run the session to its end; however it ends, every call handed to it is answered."""
        from gg.api.run import run

        try:
            with stopped_from_outside(stop):
                result = run(self._capability_set, model=bridge, store=self._store)
        except KeyboardInterrupt as stopped:  # the bridge was closed: the run recorded why
            bridge.ended((message_of(stopped),))
        except ConfigError as refused:
            bridge.ended((str(refused),), refused=True)
        except BaseException as failed:
            bridge.ended((f"{type(failed).__name__}: {failed}",), refused=True)
            raise
        else:
            final = result.final_text or result.message or ""
            ended = render("mcp-serve-ended", status=result.status, final=final, run=result.run_id)
            bridge.ended((ended,), refused=result.status == RunStatus.REFUSED)


class ServedTools(MCPServer):
    """The SDK's server, whose tools answer wrong arguments with one plain sentence
    (`gg.mcp_server.arguments`), and which reads stdin on its loop (`gg.mcp_server.stdin`)."""

    async def run_stdio_async(self) -> None:
        lines = await stdin_lines()
        async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
            server = self._lowlevel_server
            await server.run(read_stream, write_stream, server.create_initialization_options())

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as refused:
            if isinstance(refused.__cause__, ValidationError):
                raise ToolError(refused_arguments(refused.__cause__)) from None
            raise


def build_server(capability_set: CapabilitySet, store: Path) -> tuple[MCPServer, list[ArmSessions]]:
    """The MCP server with one tool per arm, and the sessions its tools run in."""
    app = ServedTools(SERVER_NAME, instructions=render("mcp-serve-instructions"), log_level="WARNING")
    sessions: list[ArmSessions] = []
    for arm, rooted in served_arms(capability_set).items():
        held = ArmSessions(rooted, store)
        sessions.append(held)
        language = LANGUAGES[arm]
        description = "\n\n".join(
            [render("mcp-serve-tool", language=language.display_name), render(f"arm-{arm}")]
        )
        app.add_tool(_tool(held), name=tool_name(arm), description=description, structured_output=False)
    return app, sessions


def _tool(held: ArmSessions) -> Callable[..., Any]:
    async def run_program(
        program: Annotated[str, Field(description=render("mcp-serve-program"))],
    ) -> CallToolResult:
        reading = await held.call(program)
        texts: list[ContentBlock] = [TextContent(type="text", text=text) for text in reading.texts]
        return CallToolResult(content=texts, is_error=reading.refused)

    return run_program


def serve(capability_set: CapabilitySet, store: Path, *, http: socket.socket | None = None) -> None:
    """Serve until the client closes stdio, or until Ctrl-C or SIGTERM stops the server; every
    open session then ends, saying which (a stop is raised on)."""
    app, sessions = build_server(capability_set, store)
    why = Ended(CLOSED)
    try:
        with taken_stops():
            if http is None:
                app.run()
            else:
                _serve_http(app, http)
    except KeyboardInterrupt as stop:
        why = Ended(message_of(stop), signal_of(stop))
        raise
    finally:
        for held in sessions:
            held.close(why)


def _serve_http(app: MCPServer, listening: socket.socket) -> None:
    """Streamable HTTP on the socket `gg mcp serve --http` bound (`gg.listening`)."""
    import uvicorn

    host = str(listening.getsockname()[0])
    config = uvicorn.Config(app.streamable_http_app(host=host), log_level="warning")
    with listening:
        uvicorn.Server(config).run(sockets=[listening])
