"""Study tables for people: `gg study show` and `gg study compare` on the terminal.

Rates and intervals are percentages; spreads are `median / p90`; cost is USD (`—` when no reply
was priced, as a replayed run never is); wall time is seconds. A cell's check output is its first
non-blank line, cut to 60 characters, and how many lines more it printed (the whole output is in
`--json` and `--csv`). Every text a study recorded (its name, file and model, config and task
names, statuses, ids, what a check said) is shown as text, never read as markup, and only as
`printable_line` made it: control characters (newline and tab too) pictured, bidi controls as
U+FFFD.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from gg.study.compare import Comparison, PairTally
from gg.study.results import ConfigResult, Spread
from gg.study.rows import CellRow, StudyRow
from gg.terminal.glyphs import first_line, plural
from gg.wire import printable_line

__all__ = [
    "check_said",
    "render_cells",
    "render_comparison",
    "render_results",
    "render_studies",
    "render_study",
]

NONE = "—"
CHECK_CHARS = 60


def shown(text: str) -> Text:
    """A recorded text as a terminal may show it within one line (`printable_line`), never read as
    markup."""
    return Text(printable_line(text))


def render_studies(studies: Sequence[tuple[StudyRow, int]], console: Console) -> None:
    """One row per study, newest first: its id, name, status and cells finished."""
    if not studies:
        console.print("no studies yet")
        return
    table = RichTable(show_edge=False, pad_edge=False)
    for heading in ("study", "name", "status", "cells", "configs", "started"):
        table.add_column(heading)
    for row, finished in studies:
        configs = ", ".join(row.config_names)
        table.add_row(
            shown(row.id),
            shown(row.name),
            shown(row.shown_status),
            f"{finished}/{row.cells}",
            shown(configs),
            shown(row.created_at),
        )
    console.print(table)


def _grid(configs: int, tasks: int, repeats: int) -> str:
    """`2 configs × 3 tasks × 1 repeat`."""
    return f"{plural(configs, 'config')} × {plural(tasks, 'task')} × {plural(repeats, 'repeat')}"


def render_study(study: StudyRow, finished: int, console: Console) -> None:
    model = study.model or "each config's own"
    line = Text(printable_line(study.id), style="bold")
    line.append(
        printable_line(
            f"  {study.name}  {study.shown_status}  {finished}/{study.cells} cells"
            f"  ({_grid(len(study.config_names), len(study.task_names), study.repeats)},"
            f" seed {study.seed}, model {model}, {study.executor})"
        )
    )
    console.print(line, highlight=False)


RESULT_HEADINGS = (
    "config",
    "solved",
    "not run",
    "rate (95% CI)",
    "turns",
    "programs",
    "error turns",
    "tokens",
    "cost $",
    "wall s",
)


def render_results(results: Sequence[ConfigResult], console: Console) -> None:
    table = RichTable(show_edge=False, pad_edge=False)
    for heading in RESULT_HEADINGS:
        table.add_column(
            heading, justify="left" if heading == "config" else "right", no_wrap=heading == "config"
        )
    for result in results:
        table.add_row(
            shown(result.config),
            f"{result.solved}/{result.scored}",
            str(result.not_run),
            _rate(result),
            _spread(result.turns),
            _spread(result.programs),
            str(result.error_turns),
            _spread(result.tokens, "{:,.0f}"),
            _spread(result.cost, "{:.4f}"),
            _spread(Spread(_seconds(result.wall_ms.median), _seconds(result.wall_ms.p90)), "{:.2f}"),
        )
    console.print(table)
    by_type = [f"{result.config} {_errors(result)}" for result in results if result.error_turns]
    if by_type:
        console.print(shown("error turns by type: " + "; ".join(by_type)), highlight=False)
    console.print(
        "solved: over the cells whose check ran (not run: a refused run, a check that could not be"
        " jailed); turns, programs, tokens, cost and wall time: median / p90 over the config's cells",
        style="dim",
    )


def render_cells(rows: Sequence[CellRow], console: Console) -> None:
    table = RichTable(show_edge=False, pad_edge=False)
    for heading in ("config", "task", "repeat", "verdict", "status", "turns", "tokens", "run", "check"):
        table.add_column(heading)
    for row in rows:
        table.add_row(
            shown(row.config),
            shown(row.task),
            str(row.repeat),
            shown(row.verdict),
            shown(row.status),
            str(row.turns),
            f"{row.tokens:,}",
            shown(row.run_id),
            check_said(row.check_detail),
        )
    console.print(table)
    console.print(
        "each run's transcript: gg show RUN; each check's whole output: --json or --csv", style="dim"
    )


def check_said(detail: str) -> Text:
    """What a cell's check printed, as its cell shows it: the first non-blank line, cut to
    `CHECK_CHARS`, then how many lines more."""
    said = shown(first_line(detail, CHECK_CHARS))
    more = sum(1 for line in detail.splitlines() if line.strip()) - 1
    if more > 0:
        said.append(f" (+{plural(more, 'line')})", style="dim")
    return said


def render_comparison(comparison: Comparison, console: Console) -> None:
    table = RichTable(show_edge=False, pad_edge=False)
    for heading in (
        "task",
        "pairs",
        "both",
        shown(f"only {comparison.a}"),
        shown(f"only {comparison.b}"),
        "neither",
        "not run",
        "McNemar p",
        "Δ cost $",
        "Δ turns",
    ):
        table.add_column(heading, justify="left" if heading == "task" else "right")
    for tally in (*comparison.tasks, comparison.total):
        table.add_row(*_tally_cells(tally), style="bold" if tally is comparison.total else None)
    console.print(table)
    note = f"Δ is {comparison.b} − {comparison.a} per pair (same task, same repeat): median (mean)"
    if comparison.unpaired:
        note += f"; {comparison.unpaired} cells without their partner are left out"
    console.print(shown(note), style="dim")


def _tally_cells(tally: PairTally) -> tuple[str | Text, ...]:
    return (
        shown(tally.task),
        str(tally.pairs),
        str(tally.both),
        str(tally.only_a),
        str(tally.only_b),
        str(tally.neither),
        str(tally.not_run),
        f"{tally.p_value:.4g}",
        _difference(tally.cost.median, tally.cost.mean, "{:+.4f}"),
        _difference(tally.turns.median, tally.turns.mean, "{:+.1f}"),
    )


def _rate(result: ConfigResult) -> str:
    if result.rate is None or result.interval is None:
        return NONE
    low, high = result.interval
    return f"{result.rate:.0%} ({low:.0%}–{high:.0%})"


def _errors(result: ConfigResult) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in result.errors_by_type.items())


def _spread(values: Spread, form: str = "{:g}") -> str:
    if values.median is None or values.p90 is None:
        return NONE
    return f"{form.format(values.median)} / {form.format(values.p90)}"


def _seconds(ms: float | None) -> float | None:
    return None if ms is None else ms / 1000


def _difference(middle: float | None, mean: float | None, form: str) -> str:
    if middle is None or mean is None:
        return NONE
    return f"{form.format(middle)} ({form.format(mean)})"
