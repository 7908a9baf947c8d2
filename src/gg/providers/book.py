"""A journal's scripts, one per agent instance (`JournalBook`): the rule by which the lines of one
journal file are shared among the agents of a run.

- A line naming an agent (`"agent": "root.1"`) is that instance's; an instance with lines of its
  own replays exactly those, in file order.
- Every other instance replays its profile's script from its first line: the lines naming its
  profile (`"profile": "worker"`), and, for the journal's owner, the lines naming no one. So two
  `worker` children each replay the one `worker` script, whatever their threads' timing.
- A journal's owner is the first profile whose model names the file (the root, for a journal
  given on the command line), so every one-agent journal stays the root's.
- The names a line gives are judged when the book is opened, with the journal's other defects
  and in line order: a profile the run does not have, and an agent id of no id's shape
  (`gg.ids.is_agent_id`: `root`, `root.1`, `root.1.f1`, `root@2`), each refuse the launch,
  naming the line, the name and the run's profiles.
- An agent id of a valid shape cannot be known at launch (the run mints its ids as it goes): a
  line naming one the run never opened is not refused; `unused` lists such lines once the run is
  over, for its end to report.
A book hands each instance its own script; each instance replays it on its own client.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from pathlib import Path

from gg.errors import ConfigDefect, shown_found
from gg.ids import is_agent_id
from gg.providers.journal import JournalError, JournalReply, read_journal


class JournalBook:
    def __init__(self, replies: Sequence[JournalReply], owner: str) -> None:
        self._replies = tuple(replies)
        self.owner = owner
        self._asked: set[str] = set()
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: Path, owner: str, profiles: Collection[str]) -> JournalBook:
        """The book of the journal at `path` for a run of `profiles`; raises `JournalError` naming
        every bad line, a name the run does not know included."""
        replies, defects = read_journal(path)
        defects = sorted([*defects, *name_defects(replies, profiles)], key=_line_order)
        if defects:
            raise JournalError(str(path), defects)
        return cls(replies, owner)

    def script(self, agent_id: str, profile: str) -> tuple[JournalReply, ...]:
        """The replies the instance `agent_id` of `profile` replays, in order."""
        with self._lock:
            self._asked.add(agent_id)
        own = tuple(reply for reply in self._replies if reply.agent == agent_id)
        if own:
            return own
        return tuple(reply for reply in self._replies if reply.agent is None and self._of(reply, profile))

    def unused(self) -> tuple[JournalReply, ...]:
        """The lines naming an agent no instance of the run asked this book for."""
        with self._lock:
            asked = set(self._asked)
        return tuple(r for r in self._replies if r.agent is not None and r.agent not in asked)

    def _of(self, reply: JournalReply, profile: str) -> bool:
        return reply.profile == profile or (reply.profile is None and profile == self.owner)


def name_defects(replies: Sequence[JournalReply], profiles: Collection[str]) -> list[ConfigDefect]:
    """A defect for each line naming a profile not among `profiles`, or an agent id of no id's
    shape."""
    known = ", ".join(f"`{slug}`" for slug in profiles)
    defects: list[ConfigDefect] = []
    for reply in replies:
        if reply.profile is not None and reply.profile not in profiles:
            reason = f"`profile` names no profile of this run; the profiles are {known}"
            defects.append(ConfigDefect(f"line {reply.line}", shown_found(reply.profile), reason))
        elif reply.agent is not None and not is_agent_id(reply.agent):
            reason = _not_an_id(reply.agent, profiles, known)
            defects.append(ConfigDefect(f"line {reply.line}", shown_found(reply.agent), reason))
    return defects


NOT_AN_AGENT_ID = "`agent` is no agent id (`root`, `root.1`, `root.1.f1`, `root@2`)"
"""Why a journal line's `agent` (a reply's, or a host answer's) is refused, when it is of no id's shape."""


def _not_an_id(agent: str, profiles: Collection[str], known: str) -> str:
    hint = f", and `{agent}` is a profile: name its script with `profile`" if agent in profiles else ""
    return f"{NOT_AN_AGENT_ID}{hint}; the profiles are {known}"


def _line_order(defect: ConfigDefect) -> int:
    number = defect.path.removeprefix("line ")
    return int(number) if number.isdigit() else 0
