"""One `deno lsp` process holding one in-memory document, `program.ts`, and the JSON-RPC spoken
with it over its stdin and stdout.

Rules kept here:
- the server is a guest process (`gg.sandbox.process`) in a private temporary directory (its
  `DENO_DIR`, `HOME` and the folder `check/` it checks in), with an environment that sends any
  network fetch to a closed local port;
- `check/` holds `gg.d.ts` and a `deno.json`: strict mode, the ES2022 library and nothing else (no
  DOM, no Deno namespace); every `file:` URL but `gg.d.ts` is mapped by the import map to an
  unloadable `denied:` URL;
- each document version's answer is the first `publishDiagnostics` for that version; the server's
  own requests are answered as they come (`workspace/configuration` with the settings below);
- a server that gives no answer in time, stops taking input or exits is gg's defect
  (`GgDefect(FatalFault.TOOLCHAIN)`), with its last words and its directory hidden.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from deno import find_deno_bin

from gg.errors import FatalFault, GgDefect
from gg.sandbox.process import GuestProcess, Launch, private_folder

LAST_WORDS_CHARS = 600
_SETTINGS = {
    "enable": True,
    "lint": False,
    "codeLens": {"implementations": False, "references": False, "test": False},
    "suggest": {"imports": {"autoDiscover": False, "hosts": {}}},
}
_CLOSED = object()  # the server's output ended


class LspServer:
    """One `deno lsp` process checking `program.ts` against `declarations`, started at once."""

    def __init__(self, declarations: str, answer_secs: float) -> None:
        self._answer_secs = answer_secs
        self.directory = private_folder("gg-tscheck-", "check", "deno", "home")
        self.check_dir = os.path.join(self.directory, "check")
        self.uri = f"file://{self.check_dir}/program.ts"
        _write_config(self.check_dir, declarations)
        self._messages: queue.Queue[Any] = queue.Queue()
        self._version = 0
        self._next_id = 0
        try:
            self._process = GuestProcess(_launch(self.directory, self.check_dir))
        except OSError as error:
            raise GgDefect(FatalFault.TOOLCHAIN, f"the checker did not start: {error}") from error
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self._initialize()
        except GgDefect:
            self.stop()
            raise

    def alive(self) -> bool:
        return self._process.alive()

    def stop(self) -> None:
        self._process.kill()

    def publish(self, text: str, limit_secs: float) -> list[dict[str, Any]]:
        """`text` as the document's next version, and the diagnostics published for it within
        `limit_secs`."""
        self._version += 1
        version = self._version
        if version == 1:
            document = {"uri": self.uri, "languageId": "typescript", "version": version, "text": text}
            self._notify("textDocument/didOpen", {"textDocument": document})
        else:
            changed = {"uri": self.uri, "version": version}
            self._notify(
                "textDocument/didChange", {"textDocument": changed, "contentChanges": [{"text": text}]}
            )
        published = self._await(lambda m: _is_publication(m, self.uri, version), limit_secs)
        return published["params"]["diagnostics"]

    # ---- JSON-RPC ----------------------------------------------------------------------------

    def _initialize(self) -> None:
        self._next_id += 1
        request = self._next_id
        root = f"file://{self.check_dir}"
        capabilities = {
            "textDocument": {"publishDiagnostics": {"versionSupport": True, "relatedInformation": True}},
            "workspace": {"configuration": True},
        }
        params = {
            "processId": os.getpid(),
            "rootUri": root,
            "workspaceFolders": [{"uri": root, "name": "check"}],
            "capabilities": capabilities,
            "initializationOptions": _SETTINGS,
        }
        self._send({"jsonrpc": "2.0", "id": request, "method": "initialize", "params": params})
        self._await(lambda m: m.get("id") == request and "method" not in m, self._answer_secs)
        self._notify("initialized", {})

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        try:
            self._process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self._process.stdin.flush()
        except (OSError, ValueError) as error:
            raise self._defect(f"the checker stopped taking input ({error})") from error

    def _await(self, wanted: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        """Pump messages until one satisfies `wanted`, answering the server's own requests."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                message = self._messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise self._defect(f"the checker gave no answer within {timeout:g} s") from None
            if message is _CLOSED:
                raise self._defect("the checker exited")
            if "method" in message and "id" in message:
                self._answer(message)
            elif wanted(message):
                return message

    def _answer(self, request: dict[str, Any]) -> None:
        result: Any = None
        if request["method"] == "workspace/configuration":
            items = request["params"]["items"]
            result = [_SETTINGS if item.get("section") == "deno" else {} for item in items]
        self._send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def _defect(self, what: str) -> GgDefect:
        words = self._process.last_words()[-LAST_WORDS_CHARS:].replace(self.directory, "<checker>")
        return GgDefect(FatalFault.TOOLCHAIN, f"{what}; its last words: {words.strip() or '(none)'}")

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while (message := _frame(self._process.stdout)) is not None:
                self._messages.put(message)
        self._messages.put(_CLOSED)


def _write_config(check_dir: str, declarations: str) -> None:
    declared = f"file://{check_dir}/gg.d.ts"
    config = {
        "compilerOptions": {"strict": True, "lib": ["es2022"], "types": ["./gg.d.ts"]},
        "lock": False,
        "nodeModulesDir": "none",
        "imports": {"file:///": "denied:/", declared: "./gg.d.ts"},
    }
    with open(os.path.join(check_dir, "gg.d.ts"), "w", encoding="utf-8") as out:
        out.write(declarations)
    with open(os.path.join(check_dir, "deno.json"), "w", encoding="utf-8") as out:
        json.dump(config, out)


def _launch(directory: str, check_dir: str) -> Launch:
    closed = "http://127.0.0.1:9"
    env = {
        "DENO_DIR": os.path.join(directory, "deno"),
        "HOME": os.path.join(directory, "home"),
        "NO_COLOR": "1",
        "DENO_NO_UPDATE_CHECK": "1",
        "DENO_NO_PACKAGE_JSON": "1",
        "HTTP_PROXY": closed,
        "HTTPS_PROXY": closed,
        "NPM_CONFIG_REGISTRY": closed + "/",
    }
    return Launch([find_deno_bin(), "lsp"], directory, env, cwd=check_dir, pipes=True)


def _frame(stream: IO[bytes]) -> dict[str, Any] | None:
    """One framed JSON-RPC message, or None at the end of the stream."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        return None
    body = stream.read(length)
    return json.loads(body) if len(body) == length else None


def _is_publication(message: dict[str, Any], uri: str, version: int) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    params = message.get("params") or {}
    return params.get("uri") == uri and params.get("version") == version
