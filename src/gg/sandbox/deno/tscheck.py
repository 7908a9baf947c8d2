"""The TypeScript checker: one warm `deno lsp` per arm, checking the reply as `program.ts`.

Rules kept here:
- the checker runs in a private temporary directory (its `DENO_DIR`, `HOME` and cwd), with an
  environment that sends any network fetch to a closed local port; it is started on first use and
  killed by `close()`;
- the reply is checked as one in-memory document, `program.ts`, against `gg.d.ts` under strict
  mode with the ES2022 library and nothing else (no DOM, no Deno namespace);
- the checker reads no file but `gg.d.ts`: every `file:` URL is mapped by the import map to an
  unloadable `denied:` URL, and triple-slash directives are blanked (`///` becomes `// `, same
  length, wherever `///` is followed by `<`) in the copy the checker reads, so they are ignored;
- a check's answer is the first `publishDiagnostics` for the document's new version; only errors
  are kept (warnings, hints and unused-name notes are not);
- a check bounded by the caller's `limit_secs` (the program's own time ceiling plus a grace) that
  has not answered by then raises `CheckOverran`: the program made the checker work too long, so
  the checker is replaced and the program is refused, never gg's failure;
- a checker that does not answer within `check_secs` (default 60 s), or that exits, is gg's defect
  (`GgDefect(FatalFault.TOOLCHAIN)`); the next check starts a new checker.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from deno import find_deno_bin

from gg.errors import FatalFault, GgDefect

CHECK_SECS = 60.0
_ERROR_SEVERITY = 1
_TRIPLE_SLASH = re.compile(r"///(?=[\s\ufeff]*<)")
_SETTINGS = {
    "enable": True,
    "lint": False,
    "codeLens": {"implementations": False, "references": False, "test": False},
    "suggest": {"imports": {"autoDiscover": False, "hosts": {}}},
}
_CLOSED = object()  # the checker's output ended


class CheckOverran(Exception):
    """The check of one program ran past its limit; the checker has been replaced."""

    def __init__(self, limit_secs: float) -> None:
        super().__init__(f"the type check ran past {limit_secs:g} s")
        self.limit_secs = limit_secs


@dataclass(frozen=True)
class Diagnostic:
    """One error the checker reported: 0-based start and end positions (UTF-16 columns), as LSP
    gives them; `source` is `deno-ts` for TypeScript's own, `deno` for module resolution."""

    line: int
    character: int
    end_line: int
    end_character: int
    code: int | str
    source: str
    message: str
    related: tuple[tuple[int, int, str], ...] = ()  # (line, character, message) in program.ts


def blank_directives(source: str) -> str:
    """`source` with every `///` that opens a directive (`/// <...`) turned into `// `, keeping
    every position. Matching anywhere, not only at a line's start, covers every line terminator
    JavaScript knows (a lone carriage return, U+2028, U+2029) and a byte-order mark."""
    return _TRIPLE_SLASH.sub("// ", source)


class TypeChecker:
    """Checks programs against `declarations` (the text of `gg.d.ts`); one check at a time."""

    def __init__(self, declarations: str, *, check_secs: float = CHECK_SECS) -> None:
        self._declarations = declarations
        self._check_secs = check_secs
        self._lock = threading.Lock()
        self._server: _Server | None = None

    @property
    def scrubbed(self) -> tuple[str, ...]:
        """Host paths that must not reach a diagnostic (the checker's private directory)."""
        return () if self._server is None else (f"file://{self._server.check_dir}/", self._server.directory)

    def check(self, source: str, limit_secs: float | None = None) -> list[Diagnostic]:
        """The errors of `source` as `program.ts`. Raises `CheckOverran` when the check runs past
        `limit_secs`, and `GgDefect` when the checker fails."""
        with self._lock:
            server = self._server if self._server is not None and self._server.alive() else self._start()
            try:
                return server.check(blank_directives(source), limit_secs)
            except (GgDefect, CheckOverran):
                self._discard()
                raise

    def warm(self) -> None:
        """Start the checker and check an empty program, so the first real check is warm."""
        self.check("")

    def close(self) -> None:
        with self._lock:
            self._discard()

    def _start(self) -> _Server:
        self._discard()
        self._server = _Server(self._declarations, self._check_secs)
        return self._server

    def _discard(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.stop()


class _Server:
    """One `deno lsp` process and its document."""

    def __init__(self, declarations: str, check_secs: float) -> None:
        self._check_secs = check_secs
        self.directory = tempfile.mkdtemp(prefix="gg-tscheck-")
        self.check_dir = os.path.join(self.directory, "check")
        for sub in ("check", "deno", "home"):
            os.mkdir(os.path.join(self.directory, sub), 0o700)
        self.uri = f"file://{self.check_dir}/program.ts"
        self._write_config(declarations)
        self._messages: queue.Queue[Any] = queue.Queue()
        self._stderr: deque[bytes] = deque(maxlen=32)
        self._version = 0
        self._next_id = 0
        try:
            self._proc = subprocess.Popen(
                [find_deno_bin(), "lsp"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.check_dir,
                env=_environment(self.directory),
            )
        except OSError as error:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise GgDefect(FatalFault.TOOLCHAIN, f"the checker did not start: {error}") from error
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        try:
            self._initialize()
        except GgDefect:
            self.stop()
            raise

    def _write_config(self, declarations: str) -> None:
        declared = f"file://{self.check_dir}/gg.d.ts"
        config = {
            "compilerOptions": {"strict": True, "lib": ["es2022"], "types": ["./gg.d.ts"]},
            "lock": False,
            "nodeModulesDir": "none",
            "imports": {"file:///": "denied:/", declared: "./gg.d.ts"},
        }
        with open(os.path.join(self.check_dir, "gg.d.ts"), "w", encoding="utf-8") as out:
            out.write(declarations)
        with open(os.path.join(self.check_dir, "deno.json"), "w", encoding="utf-8") as out:
            json.dump(config, out)

    def alive(self) -> bool:
        return self._proc.poll() is None

    def check(self, text: str, limit_secs: float | None = None) -> list[Diagnostic]:
        self._version += 1
        version = self._version
        if version == 1:
            document = {"uri": self.uri, "languageId": "typescript", "version": version, "text": text}
            self._notify("textDocument/didOpen", {"textDocument": document})
        else:
            self._notify(
                "textDocument/didChange",
                {"textDocument": {"uri": self.uri, "version": version}, "contentChanges": [{"text": text}]},
            )
        limit = self._check_secs if limit_secs is None else min(limit_secs, self._check_secs)
        try:
            published = self._await(lambda m: _is_publication(m, self.uri, version), limit)
        except GgDefect:
            if limit < self._check_secs and self.alive():
                raise CheckOverran(limit) from None
            raise
        return [_diagnostic(d, self.uri) for d in published["params"]["diagnostics"] if _is_error(d)]

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    # ---- JSON-RPC ----------------------------------------------------------------------------

    def _initialize(self) -> None:
        self._next_id += 1
        request = self._next_id
        root = f"file://{self.check_dir}"
        capabilities = {
            "textDocument": {"publishDiagnostics": {"versionSupport": True, "relatedInformation": True}},
            "workspace": {"configuration": True},
        }
        self._send(
            {
                "jsonrpc": "2.0",
                "id": request,
                "method": "initialize",
                "params": {
                    "processId": os.getpid(),
                    "rootUri": root,
                    "workspaceFolders": [{"uri": root, "name": "check"}],
                    "capabilities": capabilities,
                    "initializationOptions": _SETTINGS,
                },
            }
        )
        self._await(lambda m: m.get("id") == request and "method" not in m, self._check_secs)
        self._notify("initialized", {})

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self._proc.stdin
        try:
            assert stdin is not None
            stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            stdin.flush()
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
            result = [
                _SETTINGS if item.get("section") == "deno" else {} for item in request["params"]["items"]
            ]
        self._send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def _defect(self, what: str) -> GgDefect:
        tail = b"".join(self._stderr).decode("utf-8", "replace")[-600:].replace(self.directory, "<checker>")
        return GgDefect(FatalFault.TOOLCHAIN, f"{what}; its last words: {tail.strip() or '(none)'}")

    def _read(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while (message := _frame(stream)) is not None:
                self._messages.put(message)
        self._messages.put(_CLOSED)

    def _drain(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(stream.fileno(), 4096):
                self._stderr.append(chunk)


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


def _environment(directory: str) -> dict[str, str]:
    closed = "http://127.0.0.1:9"
    return {
        "DENO_DIR": os.path.join(directory, "deno"),
        "HOME": os.path.join(directory, "home"),
        "NO_COLOR": "1",
        "DENO_NO_UPDATE_CHECK": "1",
        "DENO_NO_PACKAGE_JSON": "1",
        "HTTP_PROXY": closed,
        "HTTPS_PROXY": closed,
        "NPM_CONFIG_REGISTRY": closed + "/",
    }


def _is_publication(message: dict[str, Any], uri: str, version: int) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    params = message.get("params") or {}
    return params.get("uri") == uri and params.get("version") == version


def _is_error(raw: dict[str, Any]) -> bool:
    return raw.get("severity", _ERROR_SEVERITY) == _ERROR_SEVERITY


def _diagnostic(raw: dict[str, Any], uri: str) -> Diagnostic:
    start, end = raw["range"]["start"], raw["range"]["end"]
    related = tuple(
        (
            info["location"]["range"]["start"]["line"],
            info["location"]["range"]["start"]["character"],
            info["message"],
        )
        for info in raw.get("relatedInformation") or ()
        if info.get("location", {}).get("uri") == uri
    )
    return Diagnostic(
        line=start["line"],
        character=start["character"],
        end_line=end["line"],
        end_character=end["character"],
        code=raw.get("code", ""),
        source=str(raw.get("source", "")),
        message=str(raw.get("message", "")),
        related=related,
    )
