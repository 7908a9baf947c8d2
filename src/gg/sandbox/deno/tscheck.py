"""The TypeScript checker: one warm `deno lsp` per arm, checking the reply as `program.ts`.

Rules kept here:
- the checker is one `deno lsp` (`gg.sandbox.deno.lsp`: a private temporary directory, no
  network), started on first use and killed by `close()`;
- the reply is checked as one in-memory document, `program.ts`, against `gg.d.ts` under strict
  mode with the ES2022 library and nothing else (no DOM, no Deno namespace);
- the checker reads no file but `gg.d.ts`: every `file:` URL is mapped by the import map to an
  unloadable `denied:` URL, and triple-slash directives are blanked (`///` becomes `// `, same
  length, wherever `///` is followed by `<`) in the copy the checker reads, so they are ignored;
- a check's answer is the first `publishDiagnostics` for the document's new version; only errors
  are kept (warnings, hints and unused-name notes are not);
- one check runs at a time: a check never waits on the host, so a second agent's check waits
  for the first (tens of milliseconds) and no agent can stop another's;
- a check bounded by the caller's `limit_secs` (the program's own time ceiling plus a grace) that
  has not answered by then raises `CheckOverran`: the program made the checker work too long, so
  the checker is replaced and the program is refused, never gg's failure;
- a checker that does not answer within `check_secs` (default 60 s), or that exits, is gg's defect
  (`GgDefect(FatalFault.TOOLCHAIN)`); the next check starts a new checker.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

from gg.errors import GgDefect
from gg.sandbox.deno.lsp import LspServer

CHECK_SECS = 60.0
_ERROR_SEVERITY = 1
_TRIPLE_SLASH = re.compile(r"///(?=[\s\ufeff]*<)")


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
        self._server: LspServer | None = None

    @property
    def scrubbed(self) -> tuple[str, ...]:
        """Host paths that must not reach a diagnostic (the checker's private directory)."""
        return () if self._server is None else (f"file://{self._server.check_dir}/", self._server.directory)

    def check(self, source: str, limit_secs: float | None = None) -> list[Diagnostic]:
        """The errors of `source` as `program.ts`. Raises `CheckOverran` when the check runs past
        `limit_secs`, and `GgDefect` when the checker fails."""
        with self._lock:
            server = self._server if self._server is not None and self._server.alive() else self._start()
            limit = self._check_secs if limit_secs is None else min(limit_secs, self._check_secs)
            try:
                published = server.publish(blank_directives(source), limit)
            except GgDefect:
                overran = limit < self._check_secs and server.alive()
                self._discard()
                if overran:
                    raise CheckOverran(limit) from None
                raise
            return [_diagnostic(d, server.uri) for d in published if _is_error(d)]

    def warm(self) -> None:
        """Start the checker and check an empty program, so the first real check is warm."""
        self.check("")

    def close(self) -> None:
        with self._lock:
            self._discard()

    def _start(self) -> LspServer:
        self._discard()
        self._server = LspServer(self._declarations, self._check_secs)
        return self._server

    def _discard(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.stop()


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
