"""DNS rebinding: the console answers only to the names of the address it binds. A real uvicorn
serves it on loopback; raw HTTP requests forge their `Host:` header."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from console.browser import served
from console.conftest import Recorded
from gg.console.hosts import NotAHostName, answered_names, host_name
from gg.record.store import RunStore

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def raw_get(base: str, path: str, host: str | None, *, version: str = "1.1") -> tuple[int, str]:
    """`GET path` sent byte for byte to the server at `base`, naming `host` (or no `Host:` at
    all): the status and the body."""
    address, port = base.removeprefix("http://").split(":")
    head = f"GET {path} HTTP/{version}\r\n" + (f"Host: {host}\r\n" if host is not None else "")
    with socket.create_connection((address, int(port)), timeout=30) as conn:
        conn.sendall(f"{head}Connection: close\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


def test_a_loopback_bind_answers_to_the_loopback_names_and_its_own_address():
    assert answered_names("127.0.0.1") == LOOPBACK
    assert answered_names("::1") == LOOPBACK
    assert answered_names("localhost") == LOOPBACK
    assert answered_names("127.0.0.2") == (*LOOPBACK, "127.0.0.2")


def test_any_other_bind_answers_to_its_address_and_every_address_to_loopback_and_what_is_allowed():
    assert answered_names("192.168.1.20") == ("192.168.1.20",)
    assert answered_names("fd00::5") == ("[fd00::5]",)
    assert answered_names("0.0.0.0") == LOOPBACK
    assert answered_names("::", ("Console.Example.org", "10.0.0.5", "[FD00::5]")) == (
        *LOOPBACK,
        "console.example.org",
        "10.0.0.5",
        "[fd00::5]",
    )


@pytest.mark.parametrize(
    "written", ["*", "*.example.org", "example.org:8765", "http://example.org", "[x]", ""]
)
def test_a_wildcard_a_port_or_a_url_is_no_host_name(written: str):
    with pytest.raises(NotAHostName, match="no host name or IP address"):
        host_name(written)


def test_the_served_console_answers_421_to_any_host_but_its_own_names(crew_run: Recorded):
    run_page = f"/runs/{crew_run.run_id}/instances/root/activity"
    with served(crew_run.store) as base:
        port = base.rsplit(":", 1)[1]
        for host in (
            "127.0.0.1",
            f"127.0.0.1:{port}",
            "localhost",
            f"localhost:{port}",
            "[::1]",
            f"[::1]:{port}",
        ):
            status, body = raw_get(base, run_page, host)
            assert status == 200 and "parts-count" in body, host
        for host in (
            "attacker.example",
            f"attacker.example:{port}",
            "localhost.attacker.example",
            "127.0.0.2",
        ):
            status, body = raw_get(base, run_page, host)
            assert status == 421, host
            assert "parts-count" not in body and "Misdirected request" in body
        assert raw_get(base, "/", None, version="1.0")[0] == 421  # no Host: at all
        assert raw_get(base, "/static/console.css", "attacker.example")[0] == 421


def test_gg_console_answers_the_names_allow_host_adds(tmp_path: Path):
    from console.test_command import free_port, running_console

    port = free_port()
    args = ["--port", str(port), "--allow-host", "console.example.org"]
    RunStore(tmp_path / "runs.db").close()
    with running_console(tmp_path / "runs.db", args) as (base, _):
        assert raw_get(base, "/", "console.example.org")[0] == 200
        assert raw_get(base, "/", f"localhost:{port}")[0] == 200
        assert raw_get(base, "/", "attacker.example")[0] == 421
