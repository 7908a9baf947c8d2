"""`--store URL`: the one option every command that reads or writes runs names its store with (see
`gg.telemetry.location` for what it accepts). Left out, `GG_STORE` names it, else this folder's
`.gg/runs.db`; a location gg cannot read is a usage error (exit 2), naming `GG_STORE` when it came
from there.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from gg.telemetry.location import StoreLocation


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
