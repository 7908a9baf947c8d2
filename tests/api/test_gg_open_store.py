"""`gg.open_store`: the runs a store keeps, their typed events and their transcripts, read back."""

from __future__ import annotations

from pathlib import Path

import pytest

import gg


class Finisher:
    model_id = "scripted:store"

    def __init__(self, word: str) -> None:
        self.word = word

    def complete(self, request: gg.Request) -> gg.Reply:
        program = f'import {{ session }} from "gg";\nsession.finish("{self.word}");\n'
        return gg.Reply("", (gg.ToolCall("c1", "submit_program", {"program": program}),), gg.Usage(1, 1), "s")


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, list[gg.RunResult], list[gg.Event]]:
    (tmp_path / "ws").mkdir()
    (tmp_path / "j.jsonl").write_text("{}\n")
    document = {
        "name": "stored",
        "workspace": str(tmp_path / "ws"),
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay", "journal": str(tmp_path / "j.jsonl")},
                "capabilities": [{"id": "responses-as-code"}],
            }
        ],
    }
    seen: list[gg.Event] = []
    first = gg.run(document, model=Finisher("one"), store=tmp_path)
    second = gg.run(document, model=Finisher("two"), store=tmp_path, on_event=seen.append)
    return tmp_path, [first, second], seen


def test_a_store_lists_its_runs_newest_first_and_finds_one_by_id_prefix_or_latest(
    runs: tuple[Path, list[gg.RunResult], list[gg.Event]],
) -> None:
    base, (first, second), _ = runs
    with gg.open_store(base) as store:
        listed = store.runs()
        assert [run.id for run in listed] == [second.run_id, first.run_id]
        assert [run.final_text for run in listed] == ["two", "one"]
        assert (listed[0].status, listed[0].exit_code, listed[0].language) == ("completed", 0, "javascript")
        assert [run.id for run in store.runs(limit=1)] == [second.run_id]
        assert store.run().id == store.run("latest").id == second.run_id
        assert store.run(first.run_id.removeprefix("run-")).id == first.run_id
        with pytest.raises(LookupError):
            store.run("run-19990101")


def test_a_stored_runs_events_are_the_typed_values_on_event_received(
    runs: tuple[Path, list[gg.RunResult], list[gg.Event]],
) -> None:
    base, (_, second), seen = runs
    with gg.open_store(base) as store:
        assert store.run(second.run_id).events() == seen
        transcript = store.run(second.run_id).transcript()
    assert len(transcript.turns) == 1 and transcript.turns[0].programs[0].ok


def test_a_store_opens_from_its_folder_its_gg_folder_or_its_file_as_a_path_or_a_url(
    runs: tuple[Path, list[gg.RunResult], list[gg.Event]],
) -> None:
    base, (_, second), _ = runs
    urls = (f"sqlite:///{base / '.gg' / 'runs.db'}", (base / ".gg").as_uri())
    for location in (base, base / ".gg", base / ".gg" / "runs.db", str(base), *urls):
        with gg.open_store(location) as store:
            assert store.run().id == second.run_id and store.path == base / ".gg" / "runs.db"


def test_a_location_with_no_store_is_not_found_and_opening_it_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no run store at"):
        gg.open_store(tmp_path)
    assert not (tmp_path / ".gg").exists()
