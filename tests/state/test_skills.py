"""The skills read set: each skill once, in read order; a fork copies it, a successor keeps it."""

from __future__ import annotations

from gg.state.skills import SkillReads, SkillsModule


def test_a_skill_is_recorded_once_at_its_first_read_in_read_order() -> None:
    reads = SkillReads()
    assert reads.record("csv-tools") and reads.record("auth-notes")
    assert not reads.record("csv-tools")
    assert reads.names == ("csv-tools", "auth-notes") and "auth-notes" in reads


def test_a_fork_copies_the_read_set_and_the_two_diverge() -> None:
    original = SkillReads(("csv-tools",))
    copy = original.fork()
    copy.record("auth-notes")
    assert original.names == ("csv-tools",) and copy.names == ("csv-tools", "auth-notes")


def test_a_successor_keeps_the_read_set_verbatim() -> None:
    assert SkillReads(("b", "a")).adopt().names == ("b", "a")


def test_the_read_set_follows_the_window_a_fork_copies_it_and_a_share_aliases_it() -> None:
    module = SkillsModule(None, SkillReads(("guide",)))
    copied, shared = module.copy(), module.share()
    module.reads.record("torque")
    assert isinstance(shared, SkillsModule) and shared.reads is module.reads
    assert copied.reads.names == ("guide",) and shared.reads.names == ("guide", "torque")
