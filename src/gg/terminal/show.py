"""After the fact: `gg show RUN`, a run's transcript, on a rich Console (the table of runs:
`gg.terminal.runs`).

Rules:
- A turn opens with a rule; then what the model read (quoted; the system prompt cut to its first
  line unless `full`), the reply, its tokens and cost (dim; cache reads and writes when there
  were any; no cost when it is unknown), each call with its receipt (`↳ submit_program call_1 ·
  receipt k3p9`: an acknowledgement, never a verdict), each program's source with line numbers
  and its verdict, the program's own logs, the operator logs (dim), the outcome.
- A submission that handed over shows every link of its chain in the order run, each with its own
  source and verdict, so an error's line numbers are read against the program that ran them.
- A turn that never closed (the run was interrupted, its time ran out mid-turn, or its process
  vanished) shows the source of every program it submitted that never reported, each marked
  `interrupted` (the operator's Ctrl-C ended the run), `timed_out` (the run's time ran out) or
  `unfinished` (the run recorded no end), and ends `→ interrupted`, `→ timed_out` (with the
  ceiling that stopped it) or `→ unfinished`, never with a verdict it did not have.
- A program's line longer than `MAX_SOURCE_LINE_CHARS` is shown cut there, saying how many
  characters more it held (`--json` holds the whole program), so a program of megabytes on one
  line shows at once.
- Echoes (the previous reply and receipts, repeated in the next request) are not shown twice.
- A run of many agents prints its agent tree first (`agents_view`), then each agent's turns
  under a heading of its own, agent after agent in tree order.
- Feedback the model read is quoted in the turn that read it; feedback that no turn read (the run
  ended) is quoted under the outcome.
- The end: status, exit code, totals (turns, duration, tokens, cost, how many replies had no
  known cost), the final text.
- Text from a run is never read as markup, and is printed only as `terminal_safe` made it: the
  transcript's every record (`fold_transcript`).
"""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.syntax import Syntax
from rich.text import Text

from gg.ids import ROOT_ID
from gg.record.records import LinkRun, RecordedCall, RecordedMessage, RecordedProgram
from gg.record.runs import INTERRUPTED, TIMED_OUT
from gg.record.tally import TokenCounts
from gg.record.transcript import Totals, Transcript, Turn
from gg.terminal.agents_view import agent_heading, render_agent_tree
from gg.terminal.glyphs import (
    HOOK_STYLES,
    LOG_STYLES,
    OUTCOME_STYLES,
    Glyphs,
    ceiling_line,
    format_duration,
    glyphs_for,
    plural,
    program_line,
    status_text,
)

LEXERS = {"javascript": "javascript", "typescript": "typescript", "python": "python"}
SYNTAX_THEME = "ansi_dark"
INDENT = "  "
MAX_SOURCE_LINE_CHARS = 2_000  # a longer line of a program is shown cut, saying how much more it held


def render_transcript(transcript: Transcript, console: Console, *, full: bool = False) -> None:
    """Print a whole run: its header, every turn, and its end."""
    marks = glyphs_for(console)
    _header(transcript, console)
    many = len(transcript.agents) > 1
    if many:
        render_agent_tree(transcript.agents, console, marks)
    heading: str | None = None
    turns = _by_agent(transcript) if many else list(transcript.turns)
    for index, turn in enumerate(turns):
        if many and turn.agent_id != heading:
            heading = turn.agent_id
            _agent_rule(transcript, heading, console, marks)
        read_later = any(t.agent_id == turn.agent_id for t in turns[index + 1 :])
        lexer = _lexer(transcript.language, console)
        _turn(turn, lexer, console, marks, full=full, read_later=read_later, cut=transcript.cut_word)
    for hook in transcript.hooks:
        console.print(Text(f"hook {hook.summary}", HOOK_STYLES.get(hook.action, "dim")), highlight=False)
    for log in transcript.logs:
        console.print(Text(f"{log.level} {log.message}", LOG_STYLES.get(log.level, "dim")), highlight=False)
    _end(transcript, console, marks)


_WHY_CUT = {
    INTERRUPTED: "the operator interrupted the run",
    TIMED_OUT: "the run's time ran out during the turn",
}


def _by_agent(transcript: Transcript) -> list[Turn]:
    """The turns, agent after agent in tree order, each agent's in the order they ran."""
    order = {agent.id: position for position, agent in enumerate(transcript.agents)}
    return sorted(transcript.turns, key=lambda turn: order.get(turn.agent_id, len(order)))


def _agent_rule(transcript: Transcript, agent_id: str, console: Console, marks: Glyphs) -> None:
    agent = next((a for a in transcript.agents if a.id == agent_id), None)
    console.print()
    title = agent_heading(agent, marks) if agent else Text(f"agent {agent_id}", style="bold cyan")
    console.rule(title, align="left", characters="═")


def _header(transcript: Transcript, console: Console) -> None:
    facts = [f for f in (transcript.name, transcript.model, transcript.language) if f]
    console.print(Text.assemble(("run ", "bold"), (transcript.run_id, "bold cyan"), "  ", " · ".join(facts)))
    where = [f"started {transcript.started_at}"]
    if transcript.config_path:
        where.append(f"config {transcript.config_path}")
    console.print(Text(" · ".join(where), style="dim"), highlight=False)


def _turn(
    turn: Turn, lexer: str, console: Console, marks: Glyphs, *, full: bool, read_later: bool, cut: str
) -> None:
    who = "" if turn.agent_id == ROOT_ID else f"{turn.agent_id} · "
    console.print()
    console.rule(Text(f"{who}turn {turn.number}", style="bold"), align="left")
    for message in turn.read:
        if not message.echo:
            console.print(_read(message, marks, full=full))
    if turn.reply_text.strip():
        console.print(Group(Text("reply:", style="bold dim"), _prefixed(turn.reply_text, INDENT, "italic")))
    if turn.usage:
        console.print(Text(_spend(turn.tokens, turn.cost_usd), style="dim"), highlight=False)
    ran = {program.call_id for program in turn.programs}
    cut_short = turn.cut_short
    for call in turn.calls:
        if call.call_id not in ran:
            console.print(_call_line(call, marks), highlight=False)
            if call in cut_short:
                console.print(_cut_short(call, lexer, marks, cut))
    for program in turn.programs:
        call = next((c for c in turn.calls if c.call_id == program.call_id), None)
        if call is not None:
            console.print(_call_line(call, marks), highlight=False)
        console.print(_program(program, lexer, marks))
    for hook in turn.hooks:
        console.print(Text(f"  hook {hook.summary}", HOOK_STYLES.get(hook.action, "dim")), highlight=False)
    for log in turn.logs:
        fields = "".join(f" {k}={v}" for k, v in log.fields.items())
        console.print(
            Text(f"  {log.level} {log.message}{fields}", LOG_STYLES.get(log.level, "dim")), highlight=False
        )
    _outcome(turn, console, marks, read_later=read_later, cut=cut)


def _tokens(tokens: TokenCounts) -> str:
    """`1,200 in / 80 out tokens`, then the cache's share of the input when it had one."""
    text = f"{tokens.input:,} in / {tokens.output:,} out tokens"
    cached = [
        f"{count:,} cache {what}"
        for count, what in ((tokens.cache_read, "read"), (tokens.cache_write, "write"))
        if count
    ]
    return text + (f" ({', '.join(cached)})" if cached else "")


def _spend(tokens: TokenCounts, cost_usd: float | None) -> str:
    return _tokens(tokens) + ("" if cost_usd is None else f" · ${cost_usd:.4f}")


def _cost(totals: Totals) -> str:
    unpriced = totals.unpriced
    note = f" (+{unpriced} {'reply' if unpriced == 1 else 'replies'} unpriced)" if unpriced else ""
    return f"${totals.cost or 0.0:.4f}{note}"


def _call_line(call: RecordedCall, marks: Glyphs) -> Text:
    receipt = f" {marks.dot} receipt {call.receipt}" if call.receipt is not None else ""
    return Text(f"{marks.receipt} {call.tool} {call.call_id}{receipt}", style="dim")


def _cut_short(call: RecordedCall, lexer: str, marks: Glyphs, cut: str) -> RenderableType:
    """A program of a turn that never closed, which never reported: its source, and that the run
    was `cut` (interrupted, or unfinished) before it did."""
    name = f"program {call.program_id}" if call.program_id else f"the program of {call.call_id}"
    verdict = Text.assemble((f"{marks.failed} ", "magenta"), f"{name}: ", (cut, "magenta"))
    verdict.append(f" {marks.dash} the run stopped before it reported")
    return Group(_source(call.program or "", lexer), verdict)


def _read(message: RecordedMessage, marks: Glyphs, *, full: bool) -> RenderableType:
    """A message the model read, as a quoted block labelled with its role."""
    body = message.content
    if message.role == "system" and not full:
        lines = body.splitlines() or [""]
        body = lines[0] + (f"  … ({plural(len(lines) - 1, 'more line')})" if len(lines) > 1 else "")
    label = message.role + (f" {message.tool_call_id}" if message.tool_call_id else "")
    style = "yellow" if message.role in ("tool", "user") else "dim"
    return Group(Text(f"{label}:", style="bold dim"), _quote(body, marks, style))


def _quote(text: str, marks: Glyphs, style: str) -> Text:
    return _prefixed(text, f"{marks.quote} ", style)


def _prefixed(text: str, prefix: str, style: str) -> Text:
    """Each line of `text` after a dim `prefix` (an indent or a quote bar)."""
    out = Text()
    for index, line in enumerate(text.splitlines() or [""]):
        if index:
            out.append("\n")
        out.append(prefix, "dim")
        out.append(line, style)
    return out


def _program(program: RecordedProgram, lexer: str, marks: Glyphs) -> RenderableType:
    parts: list[RenderableType] = []
    if program.links:
        for number, link in enumerate(program.links, 1):
            parts.extend(_link(link, number, len(program.links), lexer, marks))
    elif program.source is not None:
        parts.append(_source(program.source, lexer))
    parts.append(program_line(program, marks))
    if program.error and not program.ok:
        parts.append(_prefixed(program.error, INDENT, "dim red"))
    if program.logs_suppressed:
        parts.append(Text(f"  ({plural(program.logs_suppressed, 'log line')} dropped)", style="dim"))
    for line in program.logs:
        parts.append(Text(f"  log {line}", style="dim"))
    failed = [api for api in program.api if api.ok is False]
    for api in failed:
        parts.append(Text(f"  {marks.failed} {api.operation}: {api.failure or 'failed'}", style="dim red"))
    return Group(*parts)


def _lexer(language: str, console: Console) -> str:
    """The arm's lexer on a console that shows colour; plain text where highlighting shows nothing."""
    return LEXERS.get(language, "text") if console.color_system is not None else "text"


def _source(source: str, lexer: str) -> Syntax:
    return Syntax(_cut_lines(source), lexer, line_numbers=True, theme=SYNTAX_THEME, word_wrap=True)


def _cut_lines(source: str) -> str:
    """`source` with each line longer than `MAX_SOURCE_LINE_CHARS` cut there and told how much
    more it held: wrapping one line costs the square of its length (each wrapped row copies
    what follows it), so a line is cut before it is wrapped and showing a program costs time in
    proportion to its size."""
    if len(source) <= MAX_SOURCE_LINE_CHARS:
        return source
    return "\n".join(
        line if len(line) <= MAX_SOURCE_LINE_CHARS else _cut_line(line) for line in source.split("\n")
    )


def _cut_line(line: str) -> str:
    more = len(line) - MAX_SOURCE_LINE_CHARS
    return f"{line[:MAX_SOURCE_LINE_CHARS]} … (+{more:,} characters; gg show --json holds the whole program)"


def _link(link: LinkRun, number: int, count: int, lexer: str, marks: Glyphs) -> list[RenderableType]:
    """One program of a hand-over chain: which link it is, its own source, its own verdict."""
    role = "the submission" if number == 1 else f"handed over by link {number - 1}"
    head = Text(f"link {number} of {count} {marks.dot} {role}", style="bold dim")
    if link.ok:
        verdict = Text.assemble((f"{marks.ok} ", "green"), f"ran in {format_duration(link.duration_ms)}")
        verdict.append(f" {marks.dash} {plural(link.api_calls, 'call')}")
    else:
        where = f" at {link.location}" if link.location else ""
        verdict = Text.assemble((f"{marks.failed} ", "red"), (link.error_type or "failed", "red"), where)
        if link.error_line:
            verdict.append(f" {marks.dash} {link.error_line}")
    return [head, _source(link.source, lexer), Text("  ").append_text(verdict)]


def _outcome(turn: Turn, console: Console, marks: Glyphs, *, read_later: bool, cut: str) -> None:
    outcome = turn.outcome
    if outcome is None:
        why = _WHY_CUT.get(cut, "no outcome recorded")
        console.print(Text(f"{marks.arrow} {cut} ({why})", style="magenta"))
        for limit in turn.limits:
            console.print(Text(ceiling_line(limit, marks), style="yellow"), highlight=False)
        return
    line = Text(f"{marks.arrow} ").append(outcome.outcome, OUTCOME_STYLES.get(outcome.outcome, "bold"))
    if outcome.error_type:
        line.append(f": {outcome.error_type}", "red")
    if outcome.consecutive_errors > 1:
        line.append(f" ({outcome.consecutive_errors} in a row)", "red")
    console.print(line)
    if outcome.report:
        console.print(Text(f"  report: {outcome.report}", style="dim"), highlight=False)
    for limit in turn.limits:
        console.print(Text(ceiling_line(limit, marks), style="yellow"), highlight=False)
    if not read_later:
        for text in outcome.feedback:
            console.print(
                Group(Text("feedback (never read):", style="bold dim"), _quote(text, marks, "yellow"))
            )


def _end(transcript: Transcript, console: Console, marks: Glyphs) -> None:
    console.print()
    console.rule(style="dim")
    totals = transcript.totals
    status = status_text(transcript.status or "unfinished")
    facts = [f"{plural(totals.turns, 'turn')}", format_duration(totals.duration_ms)]
    if transcript.exit_code is not None:
        facts.insert(0, f"exit {transcript.exit_code}")
    tokens = TokenCounts(
        totals.input_tokens, totals.output_tokens, totals.cache_read_tokens, totals.cache_write_tokens
    )
    facts.append(_tokens(tokens))
    if totals.cost is not None:
        facts.append(_cost(totals))
    counted = f"{totals.failed_programs} failed"
    if totals.cut_programs:
        counted += f", {totals.cut_programs} {transcript.cut_word}"
    facts.append(f"{plural(totals.programs, 'program')} ({counted})")
    console.print(status.append(" · " + " · ".join(facts), style="default"), highlight=False)
    if transcript.message:
        console.print(Text(transcript.message, style="red"), highlight=False)
    if transcript.final_text:
        console.print(Group(Text("final text:", style="bold"), _quote(transcript.final_text, marks, "")))
