"""`gg console`: which store it serves, where it binds, what it says."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx

from console.conftest import GG, Recorded
from gg.console.command import address_of, notices, resolve_store
from gg.console.hosts import is_loopback

START_SECS = 20.0


def test_the_store_is_this_folders_unless_told(tmp_path: Path):
    assert resolve_store(None, tmp_path) == tmp_path / ".gg" / "runs.db"
    (tmp_path / "other" / ".gg").mkdir(parents=True)
    assert resolve_store(tmp_path / "other", tmp_path) == tmp_path / "other" / ".gg" / "runs.db"
    assert resolve_store(tmp_path / "other" / ".gg", tmp_path) == tmp_path / "other" / ".gg" / "runs.db"
    assert resolve_store(tmp_path / "some.db", tmp_path) == tmp_path / "some.db"


def test_loopback_addresses_are_told_from_the_rest():
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.1.2.3", "::1", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "192.168.1.20", "example.org"))


def test_binding_beyond_loopback_is_said_and_loopback_says_nothing(tmp_path: Path):
    store = tmp_path / "runs.db"
    store.write_bytes(b"")
    assert notices("127.0.0.1", 8765, store) == []
    (warning,) = notices("192.168.1.20", 8765, store)
    assert "binding 192.168.1.20, beyond loopback" in warning and "8765" in warning
    warning, names = notices("0.0.0.0", 8765, store)
    assert "binding 0.0.0.0, beyond loopback" in warning and "--allow-host NAME" in names
    (missing,) = notices("127.0.0.1", 8765, tmp_path / "none.db")
    assert "no run store at" in missing


def test_addresses_read_as_urls():
    assert address_of("127.0.0.1", 8765) == "http://127.0.0.1:8765/"
    assert address_of("::1", 9000) == "http://[::1]:9000/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_console(store: Path, args: list[str]) -> Iterator[tuple[str, str]]:
    """`gg console --store store *args` on loopback, once it answers: its base URL and the first
    line it printed."""
    port = args[args.index("--port") + 1]
    process = subprocess.Popen(
        [str(GG), "console", "--store", str(store), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        _get_when_up(f"http://127.0.0.1:{port}/")
        yield f"http://127.0.0.1:{port}", line
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_gg_console_prints_its_address_and_serves_the_store(crew_run: Recorded):
    store = crew_run.store
    port = free_port()
    with running_console(store, ["--port", str(port)]) as (base, line):
        assert line.strip() == f"gg console: serving {store} on http://127.0.0.1:{port}/ (Ctrl-C stops it)"
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200 and "parts-count" in page.text


def test_gg_console_on_a_port_another_program_holds_says_so_and_exits_2(tmp_path: Path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [str(GG), "console", "--port", str(port)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "serving" not in done.stdout + done.stderr
    assert done.stderr.strip() == (
        f"gg console: port {port} on 127.0.0.1 is taken (another program listens there); "
        "choose another with --port."
    )


def test_gg_console_refuses_an_allowed_host_that_is_no_name_with_exit_2(tmp_path: Path):
    done = subprocess.run(
        [str(GG), "console", "--allow-host", "*"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "`*` is no host name or IP address" in done.stderr
    assert "serving" not in done.stdout


def test_gg_lists_the_console_command():
    done = subprocess.run([str(GG), "--help"], capture_output=True, text=True, timeout=60)
    assert "console" in done.stdout


def _get_when_up(url: str) -> httpx.Response:
    deadline = time.monotonic() + START_SECS
    while True:
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
