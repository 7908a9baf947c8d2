"""`--store URL`: the one option every command that reads or writes runs names its store with (see
`gg.telemetry.location` for what it accepts). Left out, `GG_STORE` names it, else this folder's
`.gg/runs.db`; a location gg cannot read is a usage error (exit 2), naming `GG_STORE` when it came
from there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from gg.telemetry.location import StoreLocation

FC = TypeVar("FC", bound=Callable[..., Any])


def _located(context: click.Context, parameter: click.Parameter, value: str | None) -> StoreLocation:
    from gg.telemetry.location import GG_STORE, BadStoreUrl, store_location

    try:
        return store_location(value, base=Path.cwd())
    except BadStoreUrl as bad:
        named = f"{GG_STORE}: " if value is None else ""
        raise click.BadParameter(f"{named}{bad}", context, parameter) from None


STORE_OPTION = click.option(
    "--store",
    "where",
    metavar="URL",
    callback=_located,
    help="The run store: a path, sqlite:///PATH or postgresql://USER@HOST/DB "
    "(GG_STORE, else .gg/runs.db here).",
)


def _located_when_given(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> StoreLocation | None:
    return None if value is None else _located(context, parameter, value)


def store_flag(help_text: str) -> Callable[[FC], FC]:
    """`--store [URL]` for a command that reads a store only when asked: left out, the command
    is handed `where=None`; given without a value, `GG_STORE`'s store, else this folder's."""
    return click.option(
        "--store",
        "where",
        metavar="URL",
        is_flag=False,
        flag_value="",
        callback=_located_when_given,
        help=help_text,
    )
