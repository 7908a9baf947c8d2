"""The Ray executor: one Ray task per cell, on a cluster this driver joins or starts.

Rules:
- `--ray auto` joins the cluster Ray finds (`RAY_ADDRESS`, or one started on this machine with
  `ray start`); `--ray local` starts a private one for this study and stops it after; any other
  value is a cluster address (`HOST:PORT`, `ray://HOST:PORT`);
- the study's folder is shipped to the cluster as the job's working directory (run stores,
  `.git` and virtual environments left out), and each worker moves the cell's paths to its copy;
  every worker needs gg installed (`pip install 'gg[ray]'`), and a host that can jail checks: a
  worker that cannot scores its cells' checks `not-run`, naming why;
- a task returns the cell's report to the driver, which alone writes the run store; a worker
  never opens it;
- a worker that dies mid-cell costs that cell a retry (Ray's `max_retries`); past them the cell
  is delivered `Lost`; a task's own exception is never retried (a cell never raises);
- the cluster is joined (`joined()`) before the driver records anything; one that cannot be
  joined refuses the study naming the address tried and how to start a cluster (or `--ray local`);
  an address (`HOST:PORT`, `ray://HOST:PORT`, given or in `RAY_ADDRESS`) that takes no connection
  within `PROBE_SECS` is refused so, before Ray is asked (Ray itself retries for minutes);
- leaving the iteration cancels what is still running; leaving `joined()` disconnects.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

from gg.study.cell import ArmShelf, CellReport, CellSpec, relocated, run_cell
from gg.study.delivery import DEFAULT_MAX_RETRIES, Delivered, Delivery, Lost
from gg.study.workplace import Workplace

__all__ = ["LOCAL", "SHIPPING_EXCLUDES", "RayCluster", "RayUnavailable"]

LOCAL = "local"
AUTO = "auto"
RAY_ADDRESS = "RAY_ADDRESS"
SHIPPING_EXCLUDES = [".gg", ".git", ".venv", "venv", "__pycache__", "node_modules"]
PROBE_SECS = 5.0


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be joined."""


class RayCluster:
    """Cells as Ray tasks. `cpus` sizes a `local` cluster; a joined cluster brings its own."""

    name = "ray"

    def __init__(self, address: str, root: Path, cpus: int, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        self.address = address
        self.root = root
        self.cpus = cpus
        self.max_retries = max_retries

    @contextlib.contextmanager
    def joined(self) -> Generator[None]:
        """The cluster joined (or started, for `local`), and left on the way out."""
        ray = _import_ray()
        self._connect(ray)
        try:
            yield
        finally:
            ray.shutdown()

    def run(self, specs: Sequence[CellSpec]) -> Iterator[Delivery]:
        ray = _import_ray()
        pending: dict[Any, CellSpec] = {}
        try:
            task = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)(run_on_worker)
            pending = {task.remote(spec): spec for spec in specs}
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                spec = pending.pop(ready[0])
                yield self._delivery(ray, ready[0], spec)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def _connect(self, ray: Any) -> None:
        runtime_env = {"working_dir": str(self.root), "excludes": SHIPPING_EXCLUDES}
        options: dict[str, Any] = {
            "runtime_env": runtime_env,
            "log_to_driver": False,
            "logging_level": "warning",
        }
        if self.address == LOCAL:
            options |= {"num_cpus": self.cpus, "include_dashboard": False}
        else:
            options["address"] = self.address
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            _probe(os.environ.get(RAY_ADDRESS) or self.address)
            ray.init(**options)
        except Exception as failure:  # Ray raises ConnectionError, RuntimeError, ValueError…
            raise RayUnavailable(unreachable(self.address, os.environ.get(RAY_ADDRESS), failure)) from failure

    def _delivery(self, ray: Any, ref: Any, spec: CellSpec) -> Delivery:
        try:
            report: CellReport = ray.get(ref)
        except ray.exceptions.RayError as failure:
            return Lost(spec, f"its Ray task failed: {type(failure).__name__}", self.max_retries + 1)
        return Delivered(report, attempts=None)  # Ray does not say how often it retried a task


def unreachable(address: str, from_environment: str | None, failure: Exception) -> str:
    """Why the cluster `--ray address` names could not be joined, and what to do about it.
    `from_environment` is `RAY_ADDRESS`, which Ray prefers to `auto` and to any address given."""
    if address == LOCAL:
        return f"cannot start a private Ray cluster for the study: {_first_line(failure)}"
    remedy = "or give the study a private cluster with --ray local."
    if address == AUTO and not from_environment:
        return (
            "--ray auto found no Ray cluster to join: RAY_ADDRESS is not set and no cluster runs on this"
            f" machine. Start one with `ray start --head`, name one with --ray HOST:PORT, {remedy}"
        )
    tried = f"{from_environment} (RAY_ADDRESS)" if from_environment else address
    return (
        f"cannot join the Ray cluster at {tried}: {_first_line(failure)}. Start it there with"
        f" `ray start --head`, {remedy}"
    )


def _probe(address: str) -> None:
    """An `OSError` when the cluster address takes no TCP connection within `PROBE_SECS`; nothing
    for `local`, `auto` and what is not `HOST:PORT`."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return
    with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECS):
        pass


def _first_line(failure: Exception) -> str:
    return next((line.strip() for line in str(failure).splitlines() if line.strip()), type(failure).__name__)


def run_on_worker(spec: CellSpec) -> CellReport:
    """The Ray task: the cell, with its paths moved to this worker's copy of the study."""
    return run_cell(relocated(spec, Path.cwd()), _worker_shelf(), _worker_workplace())


@functools.cache
def _worker_shelf() -> ArmShelf:
    """A Ray worker process's warm arms, kept between the cells it runs."""
    return ArmShelf()


@functools.cache
def _worker_workplace() -> Workplace:
    """A Ray worker process's workspace path and check jail, kept between the cells it runs."""
    return Workplace()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as missing:
        raise RayUnavailable(
            "running a study on Ray needs the ray package: pip install 'gg[ray]'"
        ) from missing
    return ray
