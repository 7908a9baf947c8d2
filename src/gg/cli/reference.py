"""`gg check`, `gg docs` and `gg schema`: what a capability set may hold and what its programs
may call, read without running anything; `gg schema --store` the SQL views over its runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gg.exits import REFUSED_EXIT
from gg.telemetry.location import StoreLocation
from gg.telemetry.store_option import store_flag


@click.command()
@click.argument("config", type=click.Path(path_type=Path))
def check(config: Path) -> None:
    """Validate the capability set CONFIG, and the journals it replays, naming every defect."""
    from gg.agents.profiles import own_modules_judge
    from gg.config import check_report
    from gg.errors import ConfigError
    from gg.providers.book import JournalBook

    code, text = check_report(config, own_modules_judge())
    if code == 0:
        profiles, journals = _journals(config)
        for journal in journals:
            try:
                JournalBook.open(journal, profiles[0], profiles)
            except ConfigError as refusal:
                code, text = REFUSED_EXIT, str(refusal)
                break
    click.echo(text, err=code != 0)
    sys.exit(code)


def _journals(config: Path) -> tuple[list[str], list[Path]]:
    """The profiles and the replay journals of a capability set already found valid."""
    from gg.config import load_capability_set

    capability_set = load_capability_set(config)
    bindings = [agent.model for agent in capability_set.agents if agent.model is not None]
    journals = dict.fromkeys(binding.journal for binding in bindings if binding.journal is not None)
    return [agent.slug for agent in capability_set.agents], list(journals)


ARMS = ("javascript", "typescript", "python", "python-typed")


@click.command()
@click.option(
    "--arm", type=click.Choice(ARMS), default="javascript", show_default=True, help="Spell it for this arm."
)
@click.argument("module", required=False)
def docs(arm: str, module: str | None) -> None:
    """Print the SDK reference: every module, function, parameter, result and error, spelled for
    one arm. MODULE prints that module alone: one of gg's (`files`) or a host family given as
    `package.module:attribute`."""
    from gg.sandbox.languages import LANGUAGES
    from gg.sdk.docs.reference import sdk_reference

    try:
        text = sdk_reference(LANGUAGES[arm], module)
    except LookupError as missing:
        click.echo(f"gg docs: {module}: {missing}", err=True)
        sys.exit(REFUSED_EXIT)
    click.echo(text, nl=False)


@click.command()
@store_flag(
    "Print the SQL views over the runs of this run store instead (a path, sqlite:///PATH or "
    "postgresql://USER@HOST/DB; GG_STORE's, else this folder's, when given no value), each column "
    "with its meaning."
)
def schema(where: StoreLocation | None) -> None:
    """Print the capability set's JSON Schema; with --store, the SQL views gg query reads."""
    import json

    if where is not None:
        from gg.cli.query import print_views

        print_views(where)
        return

    from gg.config import capability_set_schema

    click.echo(json.dumps(capability_set_schema(), indent=2))
