"""`gg console`: serve the run store of this folder (or `--store PATH`) on loopback.

It binds 127.0.0.1:8765 unless told otherwise, says so when told to bind beyond loopback,
prints the address, and opens a browser only with `--open`. It only reads the store. This
folder's store may not exist yet (the console serves, and shows runs as they are recorded);
a `--store` naming no store is refused (exit 2), never served empty.
"""

from __future__ import annotations

import ipaddress
import sys
import webbrowser
from pathlib import Path

import click

from gg.telemetry.layout import located_store, store_path
from gg.wire import escaped

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"
REFUSED_EXIT = 2


def resolve_store(store: Path | None, cwd: Path) -> Path:
    """The store file: `--store` names the file, a folder holding `.gg/runs.db`, or `.gg/` itself."""
    return store_path(cwd) if store is None else located_store(store)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address_of(host: str, port: int) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def notices(host: str, port: int, path: Path) -> list[str]:
    """What the operator is told before the console serves: a bind beyond loopback, no store yet."""
    out: list[str] = []
    if not is_loopback(host):
        out.append(
            f"gg console: binding {host}, beyond loopback: anyone who can reach this machine on port "
            f"{port} can read every run in {path}."
        )
    if not path.exists():
        out.append(f"gg console: no run store at {path} yet; runs appear as they are recorded.")
    return out


@click.command("console")
@click.option(
    "--store",
    type=click.Path(path_type=Path),
    help="The run store: a runs.db file, or a folder holding .gg/.",
)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="The address to bind.")
@click.option("--open", "open_browser", is_flag=True, help="Open the console in a browser.")
def console(store: Path | None, port: int, host: str, open_browser: bool) -> None:
    """Serve a local web console reading every run in the run store (read-only)."""
    path = resolve_store(store, Path.cwd())
    if store is not None and not path.is_file():
        click.echo(
            f"gg console: --store {escaped(str(store))}: there is no run store at {escaped(str(path))}",
            err=True,
        )
        sys.exit(REFUSED_EXIT)
    address = address_of(host, port)
    for notice in notices(host, port, path):
        click.echo(notice, err=True)
    click.echo(f"gg console: serving {path} on {address} (Ctrl-C stops it)")
    import uvicorn  # the server and the app load only when the console runs

    from gg.console.app import create_app

    if open_browser:
        webbrowser.open(address)
    uvicorn.run(create_app(path), host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
