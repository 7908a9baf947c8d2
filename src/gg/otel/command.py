"""`gg export otel RUN...`: stored runs sent as OpenTelemetry traces, timed by their record.

Rules:
- RUN is an id, a unique prefix of one, or `latest`, in the run store `--store` or `GG_STORE` names
  (the current folder's by default); a run named twice (`latest` and its id) is exported once;
  every run named is read before anything is sent, and one that cannot be found ends the command
  (exit 1) having sent nothing.
- Spans go where `gg run --otel` sends them (the standard `OTEL_*` variables); `--json FILE`
  writes them as one OTLP JSON document to a new file instead (an existing file, or one that
  cannot be written, is refused in one line naming it, exit 2), which needs no SDK.
  `--otel-content` adds message and program contents.
- Sending needs the `otel` extra (refused, exit 2, without it); spans the collector did not take
  are counted and said, and make the exit 1.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gg.telemetry.store_option import STORE_OPTION

if TYPE_CHECKING:
    from gg.otel.settings import OtelSettings
    from gg.otel.spans import Span
    from gg.telemetry.location import StoreLocation

REFUSED = 2
CONTENT_HELP = "Include message and program contents."


def otel_options(command: Callable[..., None]) -> Callable[..., None]:
    """`--otel` and `--otel-content` on a running command, handed to it as one `otel` argument:
    the export's settings when one is asked for (those flags, or `GG_OTEL`), else None. Asking
    without the SDK refuses the launch (exit 2) before the run has an id."""

    @functools.wraps(command)
    def with_otel(*args: Any, otel_flag: bool, otel_content: bool, **kwargs: Any) -> None:
        command(*args, otel=_asked(otel_flag, otel_content), **kwargs)

    content = click.option(
        "--otel-content", "otel_content", is_flag=True, help=f"With --otel: {CONTENT_HELP}"
    )
    flag = click.option("--otel", "otel_flag", is_flag=True, help="Export the run as OpenTelemetry traces.")
    return flag(content(with_otel))


def _asked(flag: bool, content: bool) -> OtelSettings | None:
    from gg.otel.delivery import MissingExtra
    from gg.otel.sink import asked_settings

    try:
        return asked_settings(os.environ, flag=flag, content=content)
    except MissingExtra as missing:
        click.echo(f"gg: {missing}", err=True)
        sys.exit(REFUSED)


@click.group()
def export() -> None:
    """Send runs kept in the run store elsewhere."""


@export.command("otel")
@click.argument("refs", nargs=-1, required=True, metavar="RUN...")
@click.option(
    "--json",
    "json_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write OTLP JSON to a new file.",
)
@click.option("--otel-content", "content", is_flag=True, help=CONTENT_HELP)
@STORE_OPTION
def otel(refs: tuple[str, ...], json_path: Path | None, content: bool, where: StoreLocation) -> None:
    """Send RUN... (ids, unique prefixes, or `latest`) as OpenTelemetry traces."""
    from gg.otel.record import RecordError, read_runs
    from gg.otel.settings import OtelSettings
    from gg.otel.tree import fold_spans

    settings = OtelSettings.from_environment(os.environ, content=content)
    try:
        runs = read_runs(where, list(refs))
    except RecordError as missing:
        click.echo(f"gg export otel: {missing}", err=True)
        sys.exit(1)
    spans = [
        span
        for run in runs
        for span in fold_spans(run.run_id, run.records, content=content, conventions=settings.conventions)
    ]
    counted = f"{len(spans)} spans of {len(runs)} run{'s' if len(runs) != 1 else ''}"
    if json_path is not None:
        _write_json(json_path, spans, settings, counted)
    else:
        _send(spans, settings, counted)


def _write_json(path: Path, spans: list[Span], settings: OtelSettings, counted: str) -> None:
    from gg.otel.otlp_json import otlp_document
    from gg.wire import escaped

    document = otlp_document(spans, settings.resource)
    try:
        with path.open("x", encoding="utf-8") as file:
            json.dump(document, file, ensure_ascii=False)
    except FileExistsError:
        click.echo(f"gg export otel: {escaped(str(path))} exists; name a new file", err=True)
        sys.exit(REFUSED)
    except OSError as unwritable:  # a folder that does not exist, or that gg may not write in
        said = unwritable.strerror or str(unwritable)
        click.echo(f"gg export otel: cannot write {escaped(str(path))}: {said}", err=True)
        sys.exit(REFUSED)
    click.echo(f"wrote {counted} to {escaped(str(path))}")


def _send(spans: list[Span], settings: OtelSettings, counted: str) -> None:
    from gg.otel.delivery import MissingExtra
    from gg.otel.shipper import open_shipper

    try:
        shipper = open_shipper(settings, sys.stderr)
    except MissingExtra as missing:
        click.echo(f"gg export otel: {missing}", err=True)
        sys.exit(REFUSED)
    shipper.ship(spans)
    delivery = shipper.close()
    if delivery.dropped:
        sys.exit(1)
    click.echo(f"sent {counted} to {settings.endpoint}")
