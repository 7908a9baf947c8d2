"""`gg console`: serve the run store of this folder (or `--store PATH`) on loopback.

It binds 127.0.0.1:8765 unless told otherwise, says so when told to bind beyond loopback,
answers only to the names of the address it binds and those `--allow-host` adds
(`gg.console.hosts`), prints the address, and opens a browser only with `--open`. It only reads
the store. This folder's store may not exist yet (the console serves, and shows runs as they are
recorded); a `--store` naming no store is refused (exit 2), never served empty. It binds before it
says it serves: an address it cannot bind (a port another program holds, say) ends it with one
line naming the port, exit 2.
"""

from __future__ import annotations

import sys
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gg.console.hosts import EVERY_ADDRESS, NotAHostName, answered_names, is_loopback
from gg.exits import INCOMPLETE_EXIT, REFUSED_EXIT
from gg.listening import bound_socket, unbound_reason
from gg.telemetry.layout import located_store, store_path
from gg.wire import escaped

if TYPE_CHECKING:
    from gg.telemetry.location import StoreLocation

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"


def resolve_store(store: Path | None, cwd: Path) -> Path:
    """The store file: `--store` names the file, a folder holding `.gg/runs.db`, or `.gg/` itself."""
    return store_path(cwd) if store is None else located_store(store)


def _where(store: str | None) -> StoreLocation:
    """The store to serve: `--store`, else `GG_STORE`, else this folder's; one that names no
    store (a file that is not there, a database holding none) is refused, exit 2, and a server
    that cannot be reached, exit 1."""
    from gg.telemetry.location import GG_STORE, BadStoreUrl, store_location

    try:
        where = store_location(store, base=Path.cwd())
    except BadStoreUrl as bad:
        named = "--store" if store is not None else GG_STORE
        click.echo(f"gg console: {named}: {bad}", err=True)
        sys.exit(REFUSED_EXIT)
    if where.url is not None:
        _refuse_unreadable(where)
    elif store is not None and not where.path.is_file():
        click.echo(f"gg console: --store {escaped(store)}: there is no run store at {where.shown}", err=True)
        sys.exit(REFUSED_EXIT)
    return where


def _refuse_unreadable(where: StoreLocation) -> None:
    from gg.record.reader import held_postgres
    from gg.telemetry.postgres import StoreUnreachable
    from gg.telemetry.store import RunStoreError

    try:
        held_postgres(where).close()
    except StoreUnreachable as unreachable:
        click.echo(f"gg console: {unreachable}", err=True)
        sys.exit(INCOMPLETE_EXIT)
    except RunStoreError as unreadable:
        click.echo(f"gg console: {unreadable}", err=True)
        sys.exit(REFUSED_EXIT)


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
    if host in EVERY_ADDRESS:
        out.append(
            "gg console: it answers only to the loopback names and to each --allow-host NAME; "
            "add the name or address you reach it by."
        )
    if not path.exists():
        out.append(f"gg console: no run store at {path} yet; runs appear as they are recorded.")
    return out


def _names(host: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    try:
        return answered_names(host, allowed)
    except NotAHostName as refused:
        raise click.BadParameter(str(refused), param_hint="--host or --allow-host") from None


@click.command("console")
@click.option(
    "--store",
    metavar="URL",
    help="The run store: a runs.db file, a folder holding .gg/, sqlite:///PATH or postgresql://USER@HOST/DB "
    "(GG_STORE, else .gg/runs.db here).",
)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="The address to bind.")
@click.option(
    "--allow-host",
    "allowed",
    multiple=True,
    metavar="NAME",
    help="Also answer requests naming this host (the name a proxy or browser reaches it by); repeatable.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the console in a browser.")
def console(store: str | None, port: int, host: str, allowed: tuple[str, ...], open_browser: bool) -> None:
    """Serve a local web console reading every run in the run store (read-only)."""
    where = _where(store)
    path = where.path
    names = _names(host, allowed)
    address = address_of(host, port)
    try:
        sock = bound_socket(host, port)
    except OSError as failure:
        click.echo(unbound_reason("gg console", host, port, failure), err=True)
        raise SystemExit(REFUSED_EXIT) from None
    for notice in notices(host, port, path) if where.url is None else []:
        click.echo(notice, err=True)
    click.echo(f"gg console: serving {where.shown if where.url else path} on {address} (Ctrl-C stops it)")
    import uvicorn  # the server and the app load only when the console runs

    from gg.console.app import create_app
    from gg.console.server import server_config

    if open_browser:
        webbrowser.open(address)
    config = server_config(create_app(where, hosts=names), log_level="warning", timeout_graceful_shutdown=2)
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
