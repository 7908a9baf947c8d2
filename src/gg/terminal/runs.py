"""`gg runs`: the table of runs, on a rich Console.

Rules:
- One row a run with its arm, model (the root's, then `+N` when N other models answered its other
  agents), turns, tokens in and out, cost (`≥` when some replies had no known cost, `—` when none
  had), error turns, duration and start, shown in `tz` (local time by default).
- The table is printed at its natural width: no cell is cut short, and on a narrow terminal a row
  wraps.
- Text from a run is never read as markup, and is printed only as `terminal_safe` made it: the
  table's id, name, arm and model.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gg.record.runs import ListedRun, RunRow, elapsed_ms
from gg.record.tally import Tally
from gg.telemetry.clock import parse_timestamp
from gg.terminal.glyphs import Glyphs, format_duration, glyphs_for, status_text
from gg.wire import terminal_safe

RUN_COLUMNS = (
    "run",
    "name",
    "status",
    "arm",
    "model",
    "turns",
    "tokens in/out",
    "cost",
    "errors",
    "duration",
    "started",
)
MAX_TABLE_WIDTH = 1000
_FIGURES = frozenset({"turns", "tokens in/out", "cost", "errors", "duration"})


def render_runs(runs: Sequence[ListedRun], console: Console, *, tz: tzinfo | None = None) -> None:
    """The `gg runs` table: id, config name, status, arm, model, turns, tokens, cost, error turns,
    duration, start time."""
    if not runs:
        console.print("no runs yet", style="dim")
        return
    marks = glyphs_for(console)
    table = Table(box=None, header_style="bold", pad_edge=False)
    for column in RUN_COLUMNS:
        table.add_column(column, justify="right" if column in _FIGURES else "left", no_wrap=column == "run")
    for run in runs:
        row, spent = run.row, run.tally
        table.add_row(
            Text(terminal_safe(row.id)),
            Text(terminal_safe(row.name)),
            status_text(run.status),
            Text(terminal_safe(row.language)),
            Text(terminal_safe(_models(row.model, spent.models))),
            str(row.turns),
            f"{_count(spent.tokens.input)}/{_count(spent.tokens.output)}",
            _table_cost(spent, marks),
            str(spent.error_turns),
            format_duration(elapsed_ms(row)),
            _when(row, tz),
        )
    _print_uncut(table, console)


def _models(root: str, models: Sequence[str]) -> str:
    """The root's model, and how many others answered the run's other agents: `openai:gpt-5 +1`."""
    others = [model for model in models if model != root]
    return f"{root} +{len(others)}" if others else root


def _print_uncut(table: Table, console: Console) -> None:
    """Print `table` at its natural width, however narrow the console: no cell is cut short, and
    on a narrow terminal a row wraps."""
    natural = console.measure(table, options=console.options.update_width(MAX_TABLE_WIDTH)).maximum
    width = console.width
    console.width = max(width, natural)
    try:
        console.print(table)
    finally:
        console.width = width


def _count(n: int) -> str:
    """`860`, `14.8k`, `1.2M`."""
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.1f}M"


def _table_cost(spent: Tally, marks: Glyphs) -> str:
    """The run's cost; `≥` when some replies had no known cost, `—` when none had."""
    if spent.cost_usd is None:
        return marks.dash
    return ("" if not spent.unpriced else marks.at_least) + f"${spent.cost_usd:.4f}"


def _when(row: RunRow, tz: tzinfo | None) -> str:
    moment = parse_timestamp(row.started_at)
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S") if moment else row.started_at
