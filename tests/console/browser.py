"""The real browser the console's tests drive: Debian's Chromium, headless, through Playwright,
against the console served by uvicorn on an ephemeral loopback port.

Chromium must be installed (`python3 bootstrap.py test` installs Debian's `chromium` when it
is missing and it runs as root); a test that needs it fails, naming the reason, when it is not.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

from gg.console.app import create_app
from gg.console.server import server_config

CHROMIUM = Path(os.environ.get("GG_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
START_TIMEOUT_SECS = 10.0


def chromium_path() -> Path:
    """Debian's Chromium, or a failure that says how to get it (never a skip)."""
    if not CHROMIUM.is_file():
        found = shutil.which("chromium")
        if found is None:
            pytest.fail(
                f"the console's browser tests need Debian's Chromium at {CHROMIUM}; it is missing. "
                "`python3 bootstrap.py test` installs it as root (apt-get install -y chromium); "
                "otherwise install it yourself, or point GG_CHROMIUM at a Chromium binary."
            )
        return Path(found)
    return CHROMIUM


@contextmanager
def served(store: Path, *, poll_secs: float = 0.5) -> Iterator[str]:
    """The console over `store` on 127.0.0.1 at a free port; yields its base URL."""
    config = server_config(
        create_app(store, poll_secs=poll_secs),
        host="127.0.0.1",
        port=0,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="console-under-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_SECS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the console's server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=START_TIMEOUT_SECS)
