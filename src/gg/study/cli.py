"""`gg study`: run a study, list and show studies, compare two configs, check a study file.

This module declares the command line only; each command loads `commands.py`, which does the
work, when it runs. Exit codes are listed there.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from gg.telemetry.store_option import STORE_OPTION

if TYPE_CHECKING:
    from gg.telemetry.location import StoreLocation

__all__ = ["study"]

JSON_FLAG = click.option("--json", "as_json", is_flag=True, help="The table as JSON.")
CSV_FLAG = click.option("--csv", "as_csv", is_flag=True, help="The table as CSV.")
STUDY_PATH = click.argument("study_path", metavar="STUDY", type=click.Path(path_type=Path))


@click.group()
def study() -> None:
    """Studies: every config × task × repeat run, scored by each task's check, and compared."""


@study.command("run")
@STUDY_PATH
@click.option(
    "--parallel", type=click.IntRange(min=1), default=None, help="Cells at once (default: the cores)."
)
@click.option("--ray", "ray_address", metavar="auto|local|ADDRESS", help="Run the cells as Ray tasks.")
@click.option("--model", "model_ref", metavar="PROVIDER:MODEL", help="Answer every config with this model.")
@click.option("--resume", metavar="ID", help="Resume this study: run only its unfinished cells.")
@STORE_OPTION
def run_command(
    study_path: Path,
    parallel: int | None,
    ray_address: str | None,
    model_ref: str | None,
    resume: str | None,
    where: StoreLocation,
) -> None:
    """Run every cell of STUDY (a study.toml / study.json file, or a folder holding one)."""
    from gg.study import commands

    commands.run(study_path, parallel, ray_address, model_ref, resume, where)


@study.command("list")
@click.option(
    "--limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many, newest first."
)
@JSON_FLAG
@CSV_FLAG
@STORE_OPTION
def list_command(limit: int, as_json: bool, as_csv: bool, where: StoreLocation) -> None:
    """List the studies kept under .gg/ in this folder (or --store)."""
    from gg.study import commands

    commands.list_studies(limit, as_json, as_csv, where)


@study.command("show")
@click.argument("ref", metavar="ID", default="latest")
@click.option("--cells", "each_cell", is_flag=True, help="One row per cell, with its run.")
@JSON_FLAG
@CSV_FLAG
@STORE_OPTION
def show_command(ref: str, each_cell: bool, as_json: bool, as_csv: bool, where: StoreLocation) -> None:
    """Per config: solved rate (Wilson 95%), turns, programs, error turns, tokens, cost, wall time."""
    from gg.study import commands

    commands.show(ref, each_cell, as_json, as_csv, where)


@study.command("compare")
@click.argument("ref", metavar="ID")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@JSON_FLAG
@CSV_FLAG
@STORE_OPTION
def compare_command(ref: str, a: str, b: str, as_json: bool, as_csv: bool, where: StoreLocation) -> None:
    """Configs A and B paired task by task: solved by both / only A / only B, McNemar, Δ cost and turns."""
    from gg.study import commands

    commands.compare_configs(ref, a, b, as_json, as_csv, where)


@study.command("check")
@STUDY_PATH
def check_command(study_path: Path) -> None:
    """Validate STUDY and every capability set it makes, naming every defect."""
    from gg.study import commands

    commands.check(study_path)


@study.command("schema")
def schema_command() -> None:
    """Print the study file's JSON Schema."""
    from gg.study import commands

    commands.schema()
