"""The SQL fragments the views over runs (`gg.record.views`) are built from, each rendered for a
spelling: a capability set's limits as columns, a figure over one turn's or one agent's events, a
program record's verdict, an instance's status where it reported none.

Rules:
- A fragment reads the outer row by the alias its docstring names (`o` a turn's outcome, `s` an
  agent's spawn, `r` its run).
- An error turn is a `turn_outcome` whose outcome is `error` (`gg.record.tally`, one home).
"""

from __future__ import annotations

from typing import Any, get_args

from gg.config.limits import Limits
from gg.record.agents import HANDED_OVER, RUNNING, STOPPED
from gg.record.tally import ERROR_OUTCOME
from gg.record.view_spelling import ViewSpelling
from gg.telemetry.agent_events import TransitionKind
from gg.telemetry.events import EventType
from gg.wire import camel


def _limit_is_whole(annotation: Any) -> bool:
    """Whether a `Limits` field holds a whole number (`Annotated[int, ...] | None`)."""
    written = next(arg for arg in get_args(annotation) if arg is not type(None))
    return get_args(written)[0] is int


LIMITS: tuple[tuple[str, str, bool], ...] = tuple(
    (name, field.alias or camel(name), _limit_is_whole(field.annotation))
    for name, field in Limits.model_fields.items()
)
"""Each limit of a capability set: its column, its wire name, whether it is a whole number."""


def limit_columns(d: ViewSpelling, source: str) -> str:
    """Each limit of the `run_started` record at `source`, as its column."""
    figures = ((d.integer if whole else d.real)(source, "limits", wire) for _, wire, whole in LIMITS)
    return ", ".join(f"{figure} AS {name}" for figure, (name, _, _) in zip(figures, LIMITS, strict=True))


def of_turn(d: ViewSpelling, event_type: str, figure: str) -> str:
    """A figure over the events of one type in the turn of the outer event `o`."""
    return (
        f"SELECT {figure} FROM {d.table('events')} x WHERE x.run_id = o.run_id AND x.type = '{event_type}'"
        " AND x.agent_id = o.agent_id AND x.turn = o.turn"
    )


def replies(d: ViewSpelling, figure: str) -> str:
    """The sum of a figure over the `model_reply`s of the outer turn `o` (NULL when none holds it)."""
    return of_turn(d, EventType.MODEL_REPLY, f"SUM({figure})")


def unreported_status(d: ViewSpelling) -> str:
    """The status of an instance that reported no ending (`gg.record.agents`): running while the
    run is; once it ended, handed over when it made a successor, the run's ending for the root's
    last incarnation, else stopped."""
    handed = (
        f"EXISTS (SELECT 1 FROM {d.table('events')} t WHERE t.run_id = s.run_id"
        f" AND t.type = '{EventType.AGENT_TRANSITION}' AND t.agent_id = s.agent_id"
        f" AND {d.text('t.json', 'kind')} <> '{TransitionKind.FORK.value}')"
    )
    return (
        f"CASE WHEN r.status = '{RUNNING}' THEN '{RUNNING}' WHEN {handed} THEN '{HANDED_OVER}'"
        f" WHEN {d.integer('s.json', 'depth')} = 0 THEN r.status ELSE '{STOPPED}' END"
    )


def error_turn(d: ViewSpelling, outcome: str) -> str:
    """1 when the `turn_outcome` record at `outcome` tells an error turn, else 0."""
    return f"CASE WHEN {d.text(outcome, 'outcome')} = '{ERROR_OUTCOME}' THEN 1 ELSE 0 END"


def outcomes(d: ViewSpelling, figure: str) -> str:
    """A figure over the `turn_outcome`s of the outer agent `s` (0 rows sum to 0)."""
    return (
        f"SELECT COALESCE({figure}, 0) FROM {d.table('events')} x WHERE x.run_id = s.run_id"
        f" AND x.type = '{EventType.TURN_OUTCOME}' AND x.agent_id = s.agent_id"
    )


def verdict(d: ViewSpelling, source: str) -> str:
    """`ok`, `verdict`, `error_type`, `error` of a program record at `source`."""
    ok = d.flag(source, "ok")
    return (
        f"{ok} AS ok, CASE WHEN {ok} = 1 THEN 'ok' ELSE 'failed' END AS verdict,"
        f" {d.text(source, 'errorType')} AS error_type, {d.text(source, 'error')} AS error"
    )


def failure_code(d: ViewSpelling, failure: str) -> str:
    """The code an SDK call's failure text (`code: message`) opens with; NULL when it has none."""
    colon = d.find(failure, "':'")
    return f"CASE WHEN {colon} > 0 THEN substr({failure}, 1, {colon} - 1) END"
