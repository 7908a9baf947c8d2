"""A jailed command's network, on a real bubblewrap: none at all unless the policy shares the
host's (`network: true`); a listener on the host's loopback is never reached otherwise."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from jailworld import exited, jail_over, workspace_in

CONNECT = "bash -c 'exec 3<>/dev/tcp/{host}/{port} && echo connected' 2>&1; true"


class Listener:
    """A TCP listener on the host's loopback that counts the connections it accepts."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.accepted = 0
        self._first = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.accepted += 1
            self._first.set()
            connection.close()

    def wait_for_one(self, seconds: float) -> bool:
        return self._first.wait(seconds)

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    listening = Listener()
    yield listening
    listening.close()


def test_a_command_reaches_no_listener_on_the_hosts_loopback(tmp_path: Path, listener: Listener) -> None:
    jail = jail_over(workspace_in(tmp_path))
    text = exited(jail.run(CONNECT.format(host="127.0.0.1", port=listener.port), 10.0)).output.text
    assert "connected" not in text and "Connection refused" in text
    assert not listener.wait_for_one(1.0) and listener.accepted == 0


def test_a_command_reaches_no_outside_address(tmp_path: Path) -> None:
    jail = jail_over(workspace_in(tmp_path))
    text = exited(jail.run(CONNECT.format(host="192.0.2.1", port=80), 10.0)).output.text
    assert "connected" not in text and "Network is unreachable" in text


def test_only_the_loopback_interface_exists_in_the_jail(tmp_path: Path) -> None:
    jail = jail_over(workspace_in(tmp_path))
    names = exited(jail.run("ls /sys/class/net 2>/dev/null || cut -d: -f1 /proc/net/dev | tail -n +3", 10.0))
    assert names.output.text.split() == ["lo"]


def test_a_shared_network_reaches_the_hosts_loopback(tmp_path: Path, listener: Listener) -> None:
    jail = jail_over(workspace_in(tmp_path), network=True)
    text = exited(jail.run(CONNECT.format(host="127.0.0.1", port=listener.port), 10.0)).output.text
    assert text == "connected\n"
    assert listener.wait_for_one(5.0) and listener.accepted == 1
