"""Each documented view answers a known question about the examples' runs with the right figures.

The spec-audit and planner examples and the study-arms study are replayed offline from their
recorded journals by the real `gg run` / `gg study run` into one temporary store; each view's
answer is checked against what `gg show --json` says of the same runs, and against the figures the
examples are known to produce (pinned literally), on an SQLite store and on a PostgreSQL one the
same runs are recorded into (`--store postgresql://...`)."""

from __future__ import annotations

import contextlib
import json
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gg.cli import main
from gg.record.query import run_query
from gg.telemetry.location import StoreLocation, parse_store_url
from support.postgres_server import PostgresServer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
pytestmark = pytest.mark.timeout(900)  # three example runs and a nine-cell study, on a loaded machine


@dataclass(frozen=True)
class Examples:
    """The examples' folder and the store their runs were recorded into: its SQLite file, or a
    PostgreSQL database (`--store postgresql://...`)."""

    folder: Path
    where: Path | StoreLocation

    @property
    def store(self) -> str:
        return str(self.where) if isinstance(self.where, Path) else str(self.where.url)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Examples]:
    folder = tmp_path_factory.mktemp("examples")
    for name in ("spec-audit", "planner", "study-arms"):
        shutil.copytree(EXAMPLES / name, folder / name)
    if request.param == "sqlite":
        examples = Examples(folder, folder / ".gg" / "runs.db")
    else:
        server: PostgresServer = request.getfixturevalue("postgres")
        examples = Examples(folder, parse_store_url(server.fresh_database(), base=folder))
    runner = CliRunner()
    with contextlib.chdir(folder):
        for args in (["run", "spec-audit"], ["run", "planner"], ["study", "run", "study-arms"]):
            result = runner.invoke(main, [*args, "--store", examples.store])
            assert result.exit_code == 0, result.output
        yield examples


def rows(base: Examples, sql: str) -> list[tuple[Any, ...]]:
    answer = run_query(base.where, sql)
    assert not answer.truncated
    return answer.rows


def shown(base: Examples, run_id: str) -> dict[str, Any]:
    with contextlib.chdir(base.folder):
        result = CliRunner().invoke(main, ["show", run_id, "--json", "--store", base.store])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def run_named(base: Examples, name: str) -> str:
    ((run_id,),) = rows(base, f"SELECT run_id FROM runs WHERE name = '{name}'")
    return run_id


def test_runs_holds_each_run_as_gg_show_tells_it(base: Examples) -> None:
    run_id = run_named(base, "spec-audit")
    run = shown(base, run_id)["run"]
    ((name, arm, model, status, exit_code, turns, max_turns),) = rows(
        base,
        f"SELECT name, arm, model, status, exit_code, turns, max_turns FROM runs WHERE run_id = '{run_id}'",
    )
    assert (name, arm, model, status, exit_code, turns) == (
        run["name"], run["arm"], run["model"], run["status"], run["exitCode"], run["turns"]
    )  # fmt: skip
    assert (turns, max_turns) == (5, 12)
    assert rows(base, "SELECT COUNT(*) FROM runs") == [(11,)]  # two runs and nine cells


def test_turns_tell_the_error_turns_and_tokens_gg_show_tells(base: Examples) -> None:
    run_id = run_named(base, "spec-audit")
    document = shown(base, run_id)
    got = rows(
        base,
        "SELECT agent_id, turn, outcome, error_type, input_tokens, output_tokens FROM turns"
        f" WHERE run_id = '{run_id}' ORDER BY agent_id, turn",
    )
    expected = [
        (t["agentId"], t["turn"], t["outcome"]["outcome"], t["outcome"]["errorType"],
         t["reply"]["inputTokens"], t["reply"]["outputTokens"])
        for t in document["turns"]
    ]  # fmt: skip
    assert got == sorted(expected)
    ((errors, tokens_in, tokens_out),) = rows(
        base,
        f"SELECT SUM(error_turn), SUM(input_tokens), SUM(output_tokens) FROM turns WHERE run_id = '{run_id}'",
    )
    run = document["run"]
    assert (errors, tokens_in, tokens_out) == (run["errorTurns"], run["inputTokens"], run["outputTokens"])
    assert (errors, tokens_in, tokens_out) == (1, 14840, 860)
    assert rows(
        base, f"SELECT agent_id, turn, error_type FROM turns WHERE run_id = '{run_id}' AND error_turn = 1"
    ) == [("root", 2, "program_throw")]


def test_programs_and_their_chain_links_are_those_gg_show_lists(base: Examples) -> None:
    run_id = run_named(base, "spec-audit")
    programs = [
        (
            t["agentId"],
            t["turn"],
            p["submission"],
            int(p["ok"]),
            p["errorType"],
            p["apiCalls"],
            len(p["links"]) or 1,
        )
        for t in shown(base, run_id)["turns"]
        for p in t["programs"]
    ]
    got = rows(
        base,
        "SELECT agent_id, turn, submission, ok, error_type, api_calls, chain FROM programs"
        f" WHERE run_id = '{run_id}' ORDER BY agent_id, turn, submission",
    )
    assert got == sorted(programs)
    links = rows(
        base, f"SELECT turn, link, ok, api_calls FROM chain_links WHERE run_id = '{run_id}' ORDER BY link"
    )
    assert links == [(3, 0, 1, 2), (3, 1, 1, 10)]  # programs.rerun handed over to the fixed program


def test_api_calls_per_operation(base: Examples) -> None:
    run_id = run_named(base, "spec-audit")
    got = rows(
        base,
        "SELECT operation, COUNT(*), SUM(ok), MIN(duration_ms) >= 0 FROM api_calls"
        f" WHERE run_id = '{run_id}' GROUP BY operation ORDER BY operation",
    )
    assert got == [
        ("files.list_dir", 5, 5, 1),
        ("files.read_file", 17, 17, 1),
        ("files.write_file", 1, 1, 1),
        ("programs.get", 1, 1, 1),
        ("programs.rerun", 1, 1, 1),
        ("session.finish", 1, 1, 1),
        ("views.open_docs_view", 3, 3, 1),
        ("views.open_file", 1, 1, 1),
        ("views.open_text", 3, 3, 1),
    ]
    per_turn = Counter({(t["agentId"], t["turn"]): sum(p["apiCalls"] for p in t["programs"])
                        for t in shown(base, run_id)["turns"]})  # fmt: skip
    counted = rows(
        base, f"SELECT agent_id, turn, COUNT(*) FROM api_calls WHERE run_id = '{run_id}' GROUP BY 1, 2"
    )
    assert Counter({(agent, turn): n for agent, turn, n in counted}) == +per_turn


def test_agents_are_the_tree_gg_show_draws(base: Examples) -> None:
    run_id = run_named(base, "planner")
    tree = sorted(
        (a["id"], a["parentAgentId"], a["profileId"], a["modelId"], a["depth"], a["status"])
        for a in shown(base, run_id)["agents"]
    )
    got = rows(
        base,
        "SELECT agent_id, parent_agent_id, profile, model, depth, status FROM agents"
        f" WHERE run_id = '{run_id}' ORDER BY agent_id",
    )
    assert got == tree
    assert [agent for agent, *_ in got] == ["root", "root.1", "root.2", "root.3", "root.f1", "root@2"]


def test_modules_name_each_store_and_its_holders(base: Examples) -> None:
    run_id = run_named(base, "planner")
    shared = rows(
        base,
        "SELECT module_id, kind, holders, COUNT(*) FROM modules"
        f" WHERE run_id = '{run_id}' AND holders > 1 GROUP BY module_id, kind, holders ORDER BY module_id",
    )
    assert shared == [("board-0", "board", 6, 6), ("history-0", "history", 2, 2),
                      ("memories-1", "memories", 2, 2), ("tasks-0", "tasks", 2, 2)]  # fmt: skip
    handed = rows(
        base, f"SELECT agent_id, origin FROM modules WHERE run_id = '{run_id}' AND module_id = 'tasks-0'"
    )
    assert sorted(handed) == [("root", "created"), ("root@2", "transferred")]


def test_studies_and_cells_compare_the_configs(base: Examples) -> None:
    ((study_id, cells, status),) = rows(base, "SELECT study_id, cells, status FROM studies")
    assert (cells, status) == (9, "finished")
    solved = rows(base, "SELECT config, SUM(solved), COUNT(*) FROM cells GROUP BY config ORDER BY config")
    assert solved == [("javascript", 2, 3), ("no-library", 1, 3), ("typescript", 3, 3)]
    errors = rows(
        base,
        "SELECT c.config, t.error_type, COUNT(*) FROM cells c JOIN turns t USING (run_id)"
        " WHERE t.error_turn = 1 GROUP BY 1, 2 ORDER BY 1",
    )
    assert errors == [("javascript", "program_throw", 1), ("no-library", "program_throw", 1),
                      ("typescript", "transpile_compile", 3)]  # fmt: skip
    assert rows(base, f"SELECT COUNT(*) FROM cells WHERE study_id = '{study_id}'") == [(9,)]


def test_programs_per_arm_over_a_study(base: Examples) -> None:
    per_arm = rows(
        base,
        "SELECT p.arm, COUNT(*) FROM programs p JOIN cells c USING (run_id) GROUP BY p.arm ORDER BY p.arm",
    )
    assert per_arm == [("javascript", 11), ("typescript", 8)]
    shown_per_arm: Counter[str] = Counter()
    for (run_id,) in rows(base, "SELECT run_id FROM cells"):
        document = shown(base, run_id)
        shown_per_arm[document["run"]["arm"]] += sum(len(t["programs"]) for t in document["turns"])
    assert sorted(shown_per_arm.items()) == per_arm
