"""How a rejected TypeScript program reads: the checker's own diagnostics, at the reply's own
`program.ts:LINE:COL`.

Rules kept here:
- a diagnostic with a TypeScript code from 1000 to 1999 is a syntax diagnostic (the scanner's and
  the parser's range). A program with one is `transpile_syntax` and is reported by its syntax
  diagnostics alone, as tsc does; any other rejection is `transpile_compile`;
- diagnostics are listed in source order, one group each: a header
  `program.ts:LINE:COL - error TS<code>: <first line>` (1-based line and UTF-16 column), the
  message's further lines and the related notes located in `program.ts`, indented;
- at most `MAX_GROUPS` groups, then one line counting the rest;
- a module the checker could not resolve reads as the guest's own import refusal for the
  specifier as written; nothing of the checker's directory reaches the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gg.outcome import ErrorType
from gg.prompts import render
from gg.sandbox.deno.tscheck import Diagnostic
from gg.sandbox.execution import Failure

PROGRAM_NAME = "program.ts"
MAX_GROUPS = 8
SYNTAX_CODES = range(1000, 2000)
INDENT = "    "


def is_syntax(diagnostic: Diagnostic) -> bool:
    return isinstance(diagnostic.code, int) and diagnostic.code in SYNTAX_CODES


def compile_failure(
    diagnostics: Sequence[Diagnostic], source: str, words: Mapping[str, str], scrubbed: Sequence[str] = ()
) -> Failure:
    """The failure for a non-empty list of errors on `source`; `words` are the guest's sentences
    (`gg.sandbox.deno.bundle.guest_words`), `scrubbed` host paths that must not be shown."""
    syntax = [d for d in diagnostics if is_syntax(d)]
    shown = sorted(syntax or diagnostics, key=lambda d: (d.line, d.character))
    lines = source.splitlines()
    groups = [_group(d, lines, words, scrubbed) for d in shown[:MAX_GROUPS]]
    if len(shown) > MAX_GROUPS:
        groups.append(render("ts-diagnostics-more", count=len(shown) - MAX_GROUPS))
    kind = ErrorType.TRANSPILE_SYNTAX if syntax else ErrorType.TRANSPILE_COMPILE
    return Failure(kind, "\n".join(groups))


def _group(d: Diagnostic, lines: Sequence[str], words: Mapping[str, str], scrubbed: Sequence[str]) -> str:
    if d.source == "deno":
        head, rest = _import_refusal(d, lines, words), []
    else:
        head, *rest = _scrub(d.message, scrubbed).splitlines() or [""]
    code = f" TS{d.code}" if isinstance(d.code, int) else ""
    text = [f"{_at(d.line, d.character)} - error{code}: {head}"]
    text.extend(INDENT + line for line in rest)
    text.extend(f"{INDENT}{_at(line, char)}: {_scrub(note, scrubbed)}" for line, char, note in d.related)
    return "\n".join(text)


def _at(line: int, character: int) -> str:
    return f"{PROGRAM_NAME}:{line + 1}:{character + 1}"


def _scrub(text: str, scrubbed: Sequence[str]) -> str:
    for path in scrubbed:
        text = text.replace(path, "")
    return text


def _import_refusal(d: Diagnostic, lines: Sequence[str], words: Mapping[str, str]) -> str:
    """The guest's sentence for an import the checker could not resolve."""
    spec = _text_at(lines, d).strip("\"'`")
    if spec.startswith("gg:"):
        key = "importFamily"
    elif spec.startswith(("sdk:", "sandbox:")):
        key = "importInternal"
    else:
        key = "importElsewhere"
    return words[key].replace("{spec}", spec)


def _text_at(lines: Sequence[str], d: Diagnostic) -> str:
    """The source text a one-line range covers (columns count UTF-16 code units)."""
    if d.line >= len(lines) or d.end_line != d.line:
        return ""
    units = lines[d.line].encode("utf-16-le")
    return units[2 * d.character : 2 * d.end_character].decode("utf-16-le", "replace")
