"""`gg mcp serve CONFIG`: gg as an MCP server over stdio, or over streamable HTTP on loopback
(`--http`, port 8766 unless `--port` says otherwise); see `gg.mcp_server.serve`. Sessions are recorded in
the run store of the working directory, as `gg run` records. The MCP SDK is imported only when the
server starts; without the `mcp` extra the command says how to install it (exit 2)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import click

from gg.exits import REFUSED_EXIT
from gg.listening import bound_socket, unbound_reason

DEFAULT_PORT = 8766
HOST = "127.0.0.1"
NEEDS_EXTRA = "gg mcp serve needs the MCP SDK: pip install 'gg[mcp]'"


@click.group("mcp")
def mcp() -> None:
    """gg and the Model Context Protocol."""


@mcp.command("serve")
@click.argument("config", type=click.Path(path_type=Path))
@click.option(
    "--http", "over_http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio."
)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
def serve(config: Path, over_http: bool, port: int) -> None:
    """Serve CONFIG's arms as MCP tools, one `run_program_<arm>` each."""
    from gg.errors import ConfigError
    from gg.mcp_server.arms import load_served

    try:  # the client is each served profile's model: none of them need name one
        capability_set = load_served(config)
    except ConfigError as refusal:
        click.echo(str(refusal), err=True)
        sys.exit(2)
    try:
        from gg.mcp_server.serve import serve as serving
    except ImportError:
        click.echo(NEEDS_EXTRA, err=True)
        sys.exit(2)
    listening = _listening(port) if over_http else None
    try:
        serving(capability_set, Path.cwd(), http=listening)
    except KeyboardInterrupt as stop:
        from gg.agents.interruption import signal_of
        from gg.loop.status import RunStatus, exit_code_of

        sys.exit(exit_code_of(RunStatus.INTERRUPTED, signal_of(stop)))


def _listening(port: int) -> socket.socket:
    """The loopback socket `--http` serves on, bound before the server says it serves; a port it
    cannot bind ends the command with one line naming it (exit 2)."""
    try:
        listening = bound_socket(HOST, port)
    except OSError as failure:
        click.echo(unbound_reason("gg mcp serve", HOST, port, failure), err=True)
        sys.exit(REFUSED_EXIT)
    click.echo(f"gg mcp: serving http://{HOST}:{port}/mcp (Ctrl-C stops it)", err=True)
    return listening
