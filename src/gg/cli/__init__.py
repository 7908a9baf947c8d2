"""The `gg` command line: run, replay, check, schema, runs, show, query, docs, study, console,
store, export, mcp.

Exit codes (`gg.exits`) of `gg run`: 0 the session ended; 1 gg's own defect (a record that cannot
be written is one) or an unreachable model; 2 a refused launch (a damaged run store is refused);
3 a ceiling stopped the run; 130 the operator interrupted it (Ctrl-C), 143 a SIGTERM stopped it
(as `timeout`, systemd or `docker stop` send it), and gg says, for either, which run was kept and
how to read it. Every command exits 130 on Ctrl-C and 143 on SIGTERM wherever it lands, start-up
included (`gg.cli.interrupts`), never with Click's `Aborted!`.

Each command imports what it uses when it runs, never at the top of its module: `gg --version`
loads click alone, `gg runs` and `gg show` the run store and the terminal views, and only a run
that answers with a hosted model loads that provider's SDK (`gg.providers.factory`). The commands
live by concern: a session (`gg.cli.session`: run, replay), the record read back
(`gg.cli.reading`: runs, show), SQL over it (`gg.cli.query`: query), the reference
(`gg.cli.reference`: check, docs, schema), and the groups of their own rooms (console, study,
store).
"""

from __future__ import annotations

import click

from gg.cli.interrupts import GgGroup
from gg.cli.query import query
from gg.cli.reading import runs, show
from gg.cli.reference import check, docs, schema
from gg.cli.session import replay, run
from gg.cli.store_copy import copy as store_copy
from gg.console.command import console
from gg.mcp_server.command import mcp
from gg.otel.command import export
from gg.study.cli import study
from gg.telemetry.store_command import store
from gg.version import __version__


@click.group(cls=GgGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, package_name="gg")
def main() -> None:
    """gg: agents that answer every turn with a whole program."""


for _command in (run, replay, check, docs, schema, runs, show, query, console, study, store, export, mcp):
    main.add_command(_command)
store.add_command(store_copy)

__all__ = ["main"]
