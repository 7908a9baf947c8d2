"""The agent tree as `gg show` prints it, before the agents' transcripts (a run of one agent prints
none): one line per instance, indented under the instance that made it, each naming its id, its
profile, how it came to be (a subagent, a fork's copy, an exec's or a machine's successor), its
depth, its state in a machine, its end and its brief or final word. Text from a run is never read
as markup."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from gg.record.agents import RecordedInstance
from gg.terminal.glyphs import Glyphs, first_line, status_text


def render_agent_tree(agents: Sequence[RecordedInstance], console: Console, marks: Glyphs) -> None:
    console.print(Text("agents:", style="bold"))
    known = {agent.id: agent for agent in agents}
    for agent in agents:
        console.print(_agent_line(agent, _level(agent, known), marks), highlight=False)


def agent_heading(agent: RecordedInstance, marks: Glyphs) -> Text:
    """The rule's title over one agent's turns."""
    facts = [agent.profile or "?", *([f"state {agent.state}"] if agent.state else [])]
    return Text(f"agent {agent.id} {marks.dot} {f' {marks.dot} '.join(facts)}", style="bold cyan")


def _level(agent: RecordedInstance, known: dict[str, RecordedInstance]) -> int:
    level, seen, parent = 0, {agent.id}, agent.parent
    while parent is not None and parent in known and parent not in seen:
        seen.add(parent)
        level, parent = level + 1, known[parent].parent
    return level


def _agent_line(agent: RecordedInstance, level: int, marks: Glyphs) -> Text:
    dot = f" {marks.dot} "
    facts = [agent.profile or "?", agent.relation, f"depth {agent.depth}"]
    if agent.state:
        facts.append(f"state {agent.state}")
    line = Text("  " * (level + 1)).append(agent.id, style="bold").append(dot + dot.join(facts) + dot)
    line.append_text(status_text(agent.status))
    said = first_line(agent.summary or agent.brief or "")
    if said:
        line.append(f" {marks.dash} {said}", style="dim")
    return line
