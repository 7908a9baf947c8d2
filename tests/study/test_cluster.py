"""The study on a real local Ray cluster (started by the test, two CPUs, torn down after): its
results equal the local pool's on the same replayed inputs, and a Ray worker that dies mid-cell
costs that cell a retry, never a duplicate result; a cluster that cannot be joined refuses the
study before anything of it is recorded."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gg.record.store import RunStore
from gg.study.ledger import Ledger
from gg.study.load import load_study
from gg.study.local import LocalPool
from gg.study.progress import QuietProgress
from gg.study.results import config_results
from gg.study.rows import CellRow
from gg.study.runner import FINISHED, run_study
from gg.study.tables import results_table
from gg.telemetry.location import parse_store_url
from gg.telemetry.ndjson import read_events
from support.postgres_server import PostgresServer

from .processes import WorkerKiller, released_then
from .studies import arms_study
from .test_local import REAL_CHECK

GG = str(Path(sys.executable).parent / "gg")
UNSHARE = shutil.which("unshare") or "/usr/bin/unshare"  # util-linux, on every Debian machine
HEAD = Path(__file__).with_name("ray_head.py")
TIMING = ("wallMsMedian", "wallMsP90")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a private two-CPU Ray cluster."""
    head = subprocess.Popen(
        [sys.executable, str(HEAD), "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert head.stdout is not None and head.stdin is not None
    address = head.stdout.readline().strip()
    try:
        assert address, "the Ray head did not start"
        yield address
    finally:
        head.stdin.close()
        head.wait(timeout=120)


def _ray_run(file: Path, base: Path, address: str) -> list[CellRow]:
    environment = {**os.environ, "RAY_AUTH_MODE": "token"}  # the head's token, in ~/.ray, joins the driver
    run = subprocess.run(
        [GG, "study", "run", str(file), "--ray", address],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=900,
        env=environment,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    with Ledger(base / ".gg" / "runs.db") as ledger:
        study = ledger.find_study("latest")
        assert (study.status, study.executor) == (FINISHED, "ray")
        return ledger.cells(study.id)


def _outcome(row: CellRow) -> tuple[object, ...]:
    """What a cell's result says, leaving out where, when and how long."""
    return (
        row.config,
        row.task,
        row.repeat,
        row.status,
        row.exit_code,
        row.verdict,
        row.solved,
        row.check_exit,
        row.check_detail,
        row.turns,
        row.programs,
        row.error_turns,
        row.error_types,
        row.input_tokens,
        row.output_tokens,
        row.cost_usd,
    )


def _table(rows: list[CellRow]) -> list[dict[str, object]]:
    records = results_table(config_results(rows, ["javascript", "typescript"])).records()
    return [{key: value for key, value in record.items() if key not in TIMING} for record in records]


@pytest.mark.timeout(600)  # a real cluster or real gg processes on a shared machine
def test_the_ray_run_equals_the_local_run_on_the_same_inputs(cluster: str, tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1)
    local_base, ray_base = tmp_path / "local", tmp_path / "ray"
    local_base.mkdir()
    ray_base.mkdir()
    end = run_study(load_study(file), LocalPool(2), local_base, QuietProgress())
    with Ledger(local_base / ".gg" / "runs.db") as ledger:
        local = ledger.cells(end.study_id)
    remote = _ray_run(file, ray_base, cluster)
    assert len(remote) == 6
    assert [_outcome(row) for row in remote] == [_outcome(row) for row in local]
    assert _table(remote) == _table(local)
    assert all(not row.worker.endswith(f":{pid}") for row in remote for pid in _driver_pids(ray_base))


def _driver_pids(base: Path) -> list[int]:
    with Ledger(base / ".gg" / "runs.db") as ledger:
        return [pid for pid in [ledger.find_study("latest").pid] if pid is not None]


@pytest.mark.timeout(600)  # a real cluster or real gg processes on a shared machine
def test_a_ray_worker_runs_on_its_own_copy_of_the_study_and_its_death_costs_a_retry(
    cluster: str, tmp_path: Path
) -> None:
    marker = f"ray-worker-dies-{secrets.token_hex(4)}"
    check = 'echo "$GG_STUDY_DIR"; ' + released_then(marker, REAL_CHECK)
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",), check=check)
    base = tmp_path / "base"
    base.mkdir()
    with WorkerKiller(marker, once=True) as killer:
        cells = _ray_run(file, base, cluster)
    assert killer.kills == 1
    assert sorted((row.config, row.verdict) for row in cells) == [
        ("javascript", "failed"),
        ("typescript", "solved"),
    ]
    for row in cells:  # the check ran in the worker's copy of the study, shipped as the job's working dir
        seen = Path(row.check_detail.splitlines()[0])
        assert seen != file.parent and seen.parent.name == "working_dir_files"
    with Ledger(base / ".gg" / "runs.db") as ledger:
        assert len(ledger.cells(ledger.find_study("latest").id)) == 2


@pytest.mark.timeout(300)  # a real gg process importing Ray, on a shared machine
def test_ray_auto_with_no_cluster_to_join_refuses_the_study_before_recording_anything(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    base, ray_files = tmp_path / "base", tmp_path / "ray"
    base.mkdir()
    ray_files.mkdir()
    environment = {name: value for name, value in os.environ.items() if name != "RAY_ADDRESS"}
    environment["RAY_TMPDIR"] = str(ray_files)  # no address a `ray start` on this machine left behind
    run = subprocess.run(  # in a PID namespace of its own: no cluster another process runs is seen
        [UNSHARE, "--pid", "--fork", "--mount-proc", GG, "study", "run", str(file), "--ray", "auto"],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=240,
        env=environment,
    )
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        "gg study run: --ray auto found no Ray cluster to join: RAY_ADDRESS is not set and no cluster"
        " runs on this machine. Start one with `ray start --head`, name one with --ray HOST:PORT, or"
        " give the study a private cluster with --ray local."
    ]
    assert run.stdout == ""
    assert not (base / ".gg").exists()


def test_a_cluster_address_that_takes_no_connection_refuses_the_study_at_once(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    base = tmp_path / "base"
    base.mkdir()
    with socket.socket() as holder:  # a port of this machine that nothing listens on
        holder.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{holder.getsockname()[1]}"
    environment = {name: value for name, value in os.environ.items() if name != "RAY_ADDRESS"}
    run = subprocess.run(
        [GG, "study", "run", str(file), "--ray", address],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )
    assert run.returncode == 2
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"gg study run: cannot join the Ray cluster at {address}: ")
    assert line.endswith(
        "Start it there with `ray start --head`, or give the study a private cluster with --ray local."
    )
    assert not (base / ".gg").exists()


@pytest.mark.timeout(600)  # a real cluster and a real PostgreSQL on a shared machine
def test_a_ray_study_whose_driver_names_a_postgresql_store_reads_back_whole(
    cluster: str, postgres: PostgresServer, tmp_path: Path
) -> None:
    file = arms_study(tmp_path / "study", repeats=1)
    base = tmp_path / "ray"
    base.mkdir()
    url = postgres.fresh_database()
    environment = {**os.environ, "RAY_AUTH_MODE": "token", "GG_STORE": url}
    run = subprocess.run(
        [GG, "study", "run", str(file), "--ray", cluster], cwd=base, capture_output=True, text=True,
        timeout=900, env=environment,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    where = parse_store_url(url, base=base)
    with Ledger(where) as ledger:
        study = ledger.find_study("latest")
        assert (study.status, study.executor, study.cells, len(ledger.cells(study.id))) == (
            FINISHED,
            "ray",
            6,
            6,
        )
        cells = ledger.cells(study.id)
    store = RunStore(where, create=False)
    assert sorted(row.id for row in store.list_runs()) == sorted(cell.run_id for cell in cells)
    for cell in cells:
        kept = read_events(base / ".gg" / "runs" / cell.run_id / "events.ndjson")
        assert [dict(record) for record in store.events(cell.run_id)] == kept
        assert store.run(cell.run_id).status == cell.status == "completed"
    assert not (base / ".gg" / "runs.db").exists()  # the runs went to PostgreSQL alone
