"""A journal shared by many agents (`JournalBook`): a line naming an agent is that instance's; every
other instance replays its profile's script from its first line; unnamed lines are the owner's.
A name the run cannot know (a profile it does not have, an agent id of no id's shape) refuses the
book; an agent id of a valid shape the run never opened is listed as unused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gg.errors import ConfigError
from gg.providers.book import JournalBook
from gg.providers.journal import parse_journal


def _book(text: str, owner: str = "root") -> JournalBook:
    return JournalBook(parse_journal(text, "journal"), owner)


JOURNAL = "\n".join(
    [
        '{"text": "root one"}',
        '{"profile": "worker", "text": "worker one"}',
        '{"agent": "root.2", "text": "second child"}',
        '{"text": "root two"}',
        '{"profile": "worker", "text": "worker two"}',
    ]
)


def test_every_instance_of_a_profile_replays_its_script_from_the_first_line() -> None:
    book = _book(JOURNAL)
    assert [r.text for r in book.script("root.1", "worker")] == ["worker one", "worker two"]
    assert [r.text for r in book.script("root.3", "worker")] == ["worker one", "worker two"]


def test_an_instance_with_lines_of_its_own_replays_exactly_those() -> None:
    assert [r.text for r in _book(JOURNAL).script("root.2", "worker")] == ["second child"]


def test_unnamed_lines_are_the_owners_script() -> None:
    book = _book(JOURNAL)
    assert [r.text for r in book.script("root", "root")] == ["root one", "root two"]
    assert book.script("root.f1", "reviewer") == ()
    assert [r.text for r in _book(JOURNAL, owner="lead").script("root", "lead")] == ["root one", "root two"]


def test_receipt_placeholders_count_the_replies_of_their_own_script() -> None:
    def call(program: str, **whose: str) -> str:
        return json.dumps({**whose, "calls": [{"name": "submit_program", "arguments": {"program": program}}]})

    text = "\n".join([call("a"), call("b", profile="worker"), call("{{receipt 1.1}}", profile="worker")])
    assert len(parse_journal(text, "journal")) == 3
    with pytest.raises(ConfigError) as refused:
        parse_journal(
            '{"agent": "root.1", "calls": [{"name": "x", "arguments": "{{receipt 1.1}}"}]}', "journal"
        )
    assert "earlier reply" in refused.value.defects[0].reason


def test_a_line_naming_both_an_agent_and_a_profile_or_a_blank_name_is_refused() -> None:
    with pytest.raises(ConfigError) as refused:
        parse_journal('{"agent": "root.1", "profile": "worker"}\n{"agent": ""}', "journal")
    assert [d.path for d in refused.value.defects] == ["line 1", "line 2"]


def test_a_book_reads_its_journal_file_once(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_text(JOURNAL)
    book = JournalBook.open(path, "root", ["root", "worker"])
    path.unlink()
    assert [r.text for r in book.script("root.1", "worker")] == ["worker one", "worker two"]


def test_a_line_naming_an_unknown_profile_or_no_agent_id_refuses_the_book_with_every_other_defect(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    lines = [
        '{"text": "root one"}',
        '{"profile": "reviewer", "text": "nobody\'s"}',
        "not json",
        '{"agent": "worker", "text": "a profile, not an id"}',
        '{"agent": "root.0", "text": "no id counts from 0"}',
        '{"agent": "root.2.f1@2", "text": "a valid id"}',
    ]
    path.write_text("\n".join(lines))
    with pytest.raises(ConfigError) as refused:
        JournalBook.open(path, "root", ["root", "worker"])
    defects = refused.value.defects
    assert [(d.path, d.found) for d in defects] == [
        ("line 2", '"reviewer"'),
        ("line 3", '"not json"'),
        ("line 4", '"worker"'),
        ("line 5", '"root.0"'),
    ]
    assert defects[0].reason.endswith("the profiles are `root`, `worker`")
    assert "`worker` is a profile: name its script with `profile`" in defects[2].reason
    assert "no agent id" in defects[3].reason and "`root`, `worker`" in defects[3].reason


def test_a_line_naming_an_agent_id_the_run_never_opened_is_kept_and_listed_unused(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_text(JOURNAL + '\n{"agent": "root.7", "text": "never asked"}')
    book = JournalBook.open(path, "root", ["root", "worker"])
    book.script("root", "root")
    book.script("root.2", "worker")
    assert [(r.line, r.agent) for r in book.unused()] == [(6, "root.7")]
