"""A journal shared by many agents (`JournalBook`): a line naming an agent is that instance's; every
other instance replays its profile's script from its first line; unnamed lines are the owner's."""

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
    book = JournalBook.open(path, "root")
    path.unlink()
    assert [r.text for r in book.script("root.1", "worker")] == ["worker one", "worker two"]
