"""The OpenTelemetry tests' world: the planner example with token figures in its journal, run by the
real `gg` command, and a real Arize Phoenix on loopback (its SQLite storage in a temporary folder)
that the spans are sent to and read back from through Phoenix's own client."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "planner"
GG = Path(sys.executable).parent / "gg"
PHOENIX_START_SECS = 300  # a cold Phoenix migrates its database first; the machine may be loaded
PHOENIX_TESTS_SECS = 900  # the timeout of a test that starts Phoenix and imports its client
INGEST_SECS = 60
RUN_SECS = 180


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Phoenix:
    url: str
    client: Any  # phoenix.client.Client

    def spans_of_run(self, run_id: str, expected: int) -> list[dict[str, Any]]:
        """Every span of the run's trace, once Phoenix holds `expected` of them."""
        client = self.client
        deadline = time.monotonic() + INGEST_SECS
        spans: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            roots = client.spans.get_spans(project_identifier="default", attributes={"gg.run.id": run_id})
            if roots:
                trace = roots[0]["context"]["trace_id"]
                spans = [dict(s) for s in client.spans.get_spans(
                    project_identifier="default", trace_ids=[trace], limit=10_000
                )]  # fmt: skip
                if len(spans) >= expected:
                    return spans
            time.sleep(0.2)
        raise AssertionError(f"Phoenix holds {len(spans)} of the run's {expected} spans")


@pytest.fixture(scope="session")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    folder = tmp_path_factory.mktemp("phoenix")
    port, grpc = free_port(), free_port()
    env = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(folder),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(grpc),
    }
    log = (folder / "phoenix.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "phoenix.server.main", "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(server, url, folder / "phoenix.log")
        from phoenix.client import Client  # imports much of Phoenix: seconds, once

        yield Phoenix(url, Client(base_url=url))
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _wait_until_up(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + PHOENIX_START_SECS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"Phoenix exited {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"Phoenix did not come up in {PHOENIX_START_SECS} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the planner example whose every reply spent tokens (its own, per line) and cost."""
    copy = tmp_path_factory.mktemp("planner") / "planner"
    shutil.copytree(EXAMPLE, copy)
    journal = copy / "journal.jsonl"
    lines = journal.read_text().splitlines()
    for number, line in enumerate(lines):
        if line.strip() and not line.lstrip().startswith("//"):
            reply = json.loads(line)
            reply["usage"] = {
                "inputTokens": 1000 + 17 * number,
                "outputTokens": 50 + number,
                "cacheReadTokens": 400 + number,
                "cacheWriteTokens": 30 + number,
            }
            reply["costUsd"] = round(0.001 * (number + 1), 6)
            lines[number] = json.dumps(reply)
    journal.write_text("\n".join(lines) + "\n")
    return copy


def gg(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real `gg` command, run to its end."""
    return subprocess.run(
        [str(GG), *args], cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True,
        timeout=RUN_SECS, check=False,
    )  # fmt: skip


def run_id_of(output: str) -> str:
    """The run id `gg run` names on its last line."""
    return next(word for word in output.split() if word.startswith("run-"))


def shown(cwd: Path, run_id: str) -> dict[str, Any]:
    result = gg(["show", run_id, "--json"], cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def exported_json(cwd: Path, run_id: str, name: str, *extra: str) -> list[dict[str, Any]]:
    """The run's spans as `gg export otel --json` writes them."""
    target = cwd / name
    result = gg(["export", "otel", run_id, "--json", str(target), *extra], cwd)
    assert result.returncode == 0, result.stderr
    document = json.loads(target.read_text())
    return document["resourceSpans"][0]["scopeSpans"][0]["spans"]
