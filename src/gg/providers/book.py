"""A journal's scripts, one per agent instance (`JournalBook`): the rule by which the lines of one
journal file are shared among the agents of a run.

- A line naming an agent (`"agent": "root.1"`) is that instance's; an instance with lines of its
  own replays exactly those, in file order.
- Every other instance replays its profile's script from its first line: the lines naming its
  profile (`"profile": "worker"`), and, for the journal's owner, the lines naming no one. So two
  `worker` children each replay the one `worker` script, whatever their threads' timing.
- A journal's owner is the first profile whose model names the file (the root, for a journal
  given on the command line), so every one-agent journal stays the root's.
A book hands each instance its own script; each instance replays it on its own client.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gg.providers.journal import JournalReply, load_journal


class JournalBook:
    def __init__(self, replies: Sequence[JournalReply], owner: str) -> None:
        self._replies = tuple(replies)
        self.owner = owner

    @classmethod
    def open(cls, path: Path, owner: str) -> JournalBook:
        """The book of the journal at `path`; raises `JournalError` naming every bad line."""
        return cls(load_journal(path), owner)

    def script(self, agent_id: str, profile: str) -> tuple[JournalReply, ...]:
        """The replies the instance `agent_id` of `profile` replays, in order."""
        own = tuple(reply for reply in self._replies if reply.agent == agent_id)
        if own:
            return own
        return tuple(reply for reply in self._replies if reply.agent is None and self._of(reply, profile))

    def _of(self, reply: JournalReply, profile: str) -> bool:
        return reply.profile == profile or (reply.profile is None and profile == self.owner)
