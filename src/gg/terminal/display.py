"""The live terminal display: a telemetry `Sink` writing a run as it happens to a rich `Console`.

Rules:
- One line when a turn starts (`turn 3`), one per receipt, one per program
  (`terminal.program_line`), one for the turn's outcome. Every line about an agent other than the
  root starts with its id (`root.1 · turn 3`, `root.1 ·   → finished`), so the lines of agents
  taking turns at once stay legible however they interleave; such an agent's start, hand-overs,
  forks and end get a line each.
- Operator logs at `warn` and `error` are shown (yellow, red) on the `operator` console (stderr
  from the command line); `info` and `debug` only when verbose, and so are the lines a program
  logs, as they come (`program_log`), a note of the lines dropped before them first.
- The end shows the status, exit code, turns and duration, the final text, and the run id with
  the command that shows the whole run (`gg show <run-id>`); a run whose record was lost (a
  `log` of `RECORD_LOST` passed by, not shown: the emitter said it) is said to be kept
  incomplete instead.
- Plain lines only (no spinner, no live region), so a log without a terminal reads the same.
- The console is injected and not owned: `close` does not close it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from gg.ids import ROOT_ID as ROOT_AGENT
from gg.record.records import read_limit, read_log, read_outcome, read_program
from gg.telemetry.emitter import RECORD_LOST
from gg.telemetry.events import Event, EventType
from gg.terminal.glyphs import (
    LOG_STYLES,
    OUTCOME_STYLES,
    ceiling_line,
    encodable,
    first_line,
    format_duration,
    glyphs_for,
    plural,
    program_line,
    status_text,
)
from gg.wire import terminal_safe

_AGENT_EVENTS = frozenset(
    {EventType.AGENT_SPAWNED, EventType.AGENT_TRANSITION, EventType.AGENT_FINISHED, EventType.AGENT_MODULES}
)
_MADE = {"exec": "took over from", "fsm": "took over from", "fork": "forked from"}
SHOW_COMMAND = "gg show"
MAX_FINAL_LINES = 20
_QUIET_LEVELS = frozenset({"debug", "info"})


class LiveDisplay:
    """Prints a run's progress, one plain line per fact."""

    def __init__(self, console: Console, *, operator: Console | None = None, verbose: bool = False) -> None:
        self._console = console
        self._operator = operator or console
        self._verbose = verbose
        self._marks = glyphs_for(console)
        self._turns: dict[str, int] = {}  # each agent's turn last announced
        self._agent: str = ROOT_AGENT  # whose event is being written
        self._made: dict[str, str] = {}  # each fork copy's and successor's id: how it was made
        self._lost = False  # whether the run's record was lost

    def write(self, event: Event) -> None:
        record = terminal_safe(event.to_wire())
        kind = event.type
        self._agent = event.agent_id
        if kind is EventType.RUN_STARTED:
            self._started(record)
        elif kind is EventType.RUN_FINISHED:
            self._agent = ROOT_AGENT
            self._finished(record)
        elif kind in _AGENT_EVENTS:
            self._agent_event(kind, record)
        else:
            self._turn_started(event)
            self._turn_event(kind, record)

    def close(self) -> None:
        """Nothing to release: the console belongs to the caller."""

    def _turn_event(self, kind: EventType, record: dict[str, Any]) -> None:
        if kind is EventType.MODEL_REPLY:
            self._reply(record)
        elif kind is EventType.RECEIPT:
            self._receipt(record)
        elif kind is EventType.CODE_EXECUTION:
            self._line(Text("  ").append_text(program_line(read_program(record), self._marks)))
        elif kind is EventType.TURN_OUTCOME:
            self._outcome(record)
        elif kind is EventType.LOG:
            self._log(record)
        elif kind is EventType.LIMIT_EXCEEDED:
            self._limit(record)
        elif kind is EventType.PROGRAM_LOG and self._verbose:
            self._program_log(record)

    def _started(self, record: dict[str, Any]) -> None:
        facts = [str(record.get(k)) for k in ("name", "model", "language") if record.get(k)]
        dot = f" {self._marks.dot} "
        self._line(Text(dot.join(["gg", *facts, f"run {record.get('runId', '')}"]), style="dim"))

    def _turn_started(self, event: Event) -> None:
        if event.turn < 1 or self._turns.get(event.agent_id) == event.turn:
            return
        self._turns[event.agent_id] = event.turn
        self._line(Text(f"turn {event.turn}", style="bold"))

    def _agent_event(self, kind: EventType, record: dict[str, Any]) -> None:
        """A line for an agent's start (not the root's), its hand-overs and forks, and its end."""
        dash = self._marks.dash
        if kind is EventType.AGENT_SPAWNED and record.get("parentAgentId"):
            brief = first_line(str(record.get("brief") or ""))
            parent, profile = record["parentAgentId"], record.get("profileId")
            verb = _MADE.get(self._made.get(self._agent, ""), "started by")
            made = f"{verb} {parent}: {profile}, depth {record.get('depth')}"
            self._line(Text(made + (f" {dash} {brief}" if brief else ""), style="cyan"))
        elif kind is EventType.AGENT_TRANSITION:
            self._made[str(record.get("toAgentId"))] = str(record.get("kind"))
            state = f", state {record['state']}" if record.get("state") else ""
            target = f"{record.get('toAgentId')} ({record.get('profileId')}{state})"
            self._line(Text(f"{record.get('kind')} {self._marks.arrow} {target}", style="cyan"))
        elif kind is EventType.AGENT_FINISHED and self._agent != ROOT_AGENT:
            summary = first_line(str(record.get("summary") or ""))
            status = status_text(str(record.get("status", "")))
            self._line(Text("finished: ").append_text(status).append(f" {dash} {summary}" if summary else ""))

    def _reply(self, record: dict[str, Any]) -> None:
        text = first_line(str(record.get("text") or ""))
        if text:
            self._line(Text(f"  {text}", style="dim italic"))

    def _receipt(self, record: dict[str, Any]) -> None:
        body = first_line(str(record.get("body") or ""))
        call = record.get("callId", "")
        self._line(Text(f"  {self._marks.receipt} receipt {call}: {body}", style="dim"))

    def _outcome(self, record: dict[str, Any]) -> None:
        outcome = read_outcome(record)
        line = Text(f"  {self._marks.arrow} ").append(
            outcome.outcome, OUTCOME_STYLES.get(outcome.outcome, "")
        )
        if outcome.error_type:
            line.append(f": {outcome.error_type}", "red")
        if outcome.consecutive_errors > 1:
            line.append(f" ({outcome.consecutive_errors} in a row)", "red")
        if outcome.report and outcome.outcome != "progressed":
            line.append(f" {self._marks.dash} {first_line(outcome.report)}", "dim")
        self._line(line)

    def _log(self, record: dict[str, Any]) -> None:
        log = read_log(record)
        if log.message == RECORD_LOST:  # the emitter has said it on stderr already
            self._lost = True
            return
        if log.level in _QUIET_LEVELS and not self._verbose:
            return
        fields = "".join(f" {key}={value}" for key, value in log.fields.items())
        text = Text(f"  {self._marks.warn} {log.level} {log.message}{fields}", LOG_STYLES.get(log.level, ""))
        if self._agent != ROOT_AGENT:
            text = Text(f"{self._agent} {self._marks.dot} ").append_text(text)
        self._operator.print(encodable(text, self._operator), highlight=False, soft_wrap=True)

    def _program_log(self, record: dict[str, Any]) -> None:
        dropped = int(record.get("dropped") or 0)
        if dropped:
            self._line(Text(f"  ({plural(dropped, 'log line')} dropped)", style="dim"))
        for line in record.get("lines") or ():
            self._line(Text(f"  log {line}", style="dim"))

    def _limit(self, record: dict[str, Any]) -> None:
        self._line(Text(f"  {ceiling_line(read_limit(record), self._marks)}", style="yellow"))

    def _finished(self, record: dict[str, Any]) -> None:
        status = str(record.get("status", ""))
        turns = int(record.get("turns") or 0)
        dot = f" {self._marks.dot} "
        facts = [
            f"exit {record.get('exitCode')}",
            plural(turns, "turn"),
            format_duration(record.get("durationMs")),
        ]
        self._console.print()
        self._line(status_text(status).append(dot + dot.join(facts), style="default"))
        if record.get("message"):
            self._line(Text(str(record["message"]), style="red" if status != "completed" else ""))
        self._final_text(str(record.get("finalText") or ""))
        run_id = str(record.get("runId", ""))
        if self._lost:
            self._line(Text(f"run {run_id} {self._marks.dash} its record is incomplete (see above)", "red"))
        else:
            self._line(
                Text(f"run {run_id} {self._marks.dash} see it all with: {SHOW_COMMAND} {run_id}", "dim")
            )

    def _final_text(self, text: str) -> None:
        lines = text.strip().splitlines()
        if not lines:
            return
        shown = lines[:MAX_FINAL_LINES]
        if len(lines) > len(shown):
            shown.append(f"{self._marks.more} ({len(lines) - len(shown)} more lines)")
        for line in shown:
            self._line(Text(f"  {self._marks.quote} {line}"))

    def _line(self, text: Text) -> None:
        if self._agent != ROOT_AGENT:
            text = Text(f"{self._agent} {self._marks.dot} ", style="cyan").append_text(text)
        self._console.print(encodable(text, self._console), highlight=False, soft_wrap=True)
