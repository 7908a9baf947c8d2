"""`gg export otel` refuses what it cannot do before sending anything (issue 24): a run it cannot
find, and a `--json` file that already exists, which it leaves as it was."""

from __future__ import annotations

import json
from pathlib import Path

from otel.conftest import gg, run_id_of


def test_a_run_that_is_not_there_ends_the_export_having_sent_nothing(tmp_path: Path) -> None:
    result = gg(["export", "otel", "latest", "--json", str(tmp_path / "out.json")], tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("gg export otel: no runs yet:")
    assert not (tmp_path / "out.json").exists()


def test_json_to_a_file_that_exists_is_refused_and_the_file_kept(planner: Path) -> None:
    ran = gg(["run", str(planner)], planner.parent)
    assert ran.returncode == 0, ran.stderr
    kept = planner.parent / "kept.json"
    kept.write_text("mine")
    result = gg(["export", "otel", run_id_of(ran.stdout), "--json", str(kept)], planner.parent)
    assert result.returncode == 2 and "exists; name a new file" in result.stderr
    assert kept.read_text() == "mine"
    missing = gg(["export", "otel", "run-nope", "--json", str(planner.parent / "new.json")], planner.parent)
    assert missing.returncode == 1 and "no run matches `run-nope`" in missing.stderr


def test_the_export_reads_the_store_gg_store_or_store_names(planner: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "team" / "runs.db"
    ran = gg(["run", str(planner), "--store", f"sqlite:///{elsewhere}"], planner.parent)
    assert ran.returncode == 0, ran.stderr
    run_id = run_id_of(ran.stdout)
    here = gg(["export", "otel", "latest", "--json", str(tmp_path / "here.json")], tmp_path)
    assert here.returncode == 1 and "no runs yet" in here.stderr  # this folder holds none
    named = gg(
        ["export", "otel", "latest", "--json", str(tmp_path / "named.json")],
        tmp_path,
        {"GG_STORE": str(elsewhere)},
    )
    assert named.returncode == 0, named.stderr
    assert run_id in (tmp_path / "named.json").read_text()
    flagged = gg(
        ["export", "otel", "latest", "--store", str(elsewhere), "--json", str(tmp_path / "f.json")], tmp_path
    )
    assert flagged.returncode == 0 and run_id in (tmp_path / "f.json").read_text()


def test_json_into_a_folder_that_does_not_exist_is_one_line_exit_2_naming_the_path(
    planner: Path, tmp_path: Path
) -> None:
    ran = gg(["run", str(planner)], planner.parent)
    assert ran.returncode == 0, ran.stderr
    nowhere = tmp_path / "no" / "such" / "t.json"
    result = gg(["export", "otel", run_id_of(ran.stdout), "--json", str(nowhere)], planner.parent)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    assert result.stderr == f"gg export otel: cannot write {nowhere}: No such file or directory\n"


def test_a_run_named_twice_is_exported_once(planner: Path, tmp_path: Path) -> None:
    ran = gg(["run", str(planner)], planner.parent)
    assert ran.returncode == 0, ran.stderr
    run_id = run_id_of(ran.stdout)
    written = tmp_path / "once.json"
    result = gg(["export", "otel", "latest", run_id, run_id[:-2], "--json", str(written)], planner.parent)
    assert result.returncode == 0, result.stderr
    assert " spans of 1 run to " in result.stdout
    document = json.loads(written.read_text())
    spans = [s for r in document["resourceSpans"] for scope in r["scopeSpans"] for s in scope["spans"]]
    assert len(spans) == len({span["spanId"] for span in spans}) > 0
