"""The `gg` command line."""

import click


@click.group()
def main() -> None:
    """gg: agents that answer every turn with a whole program."""
