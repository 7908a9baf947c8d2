"""The one naming rule for what an MCP server names: its key (the module), its tools (the
functions) and their parameters. Pure.

A name is spelled in snake_case, the name a Python program writes (`gg.my_notes.get_note`); the
JavaScript arms write the same name in camelCase (`getNote`), as for every SDK function:
- the raw name is cut into words at every character that is not an ASCII letter or digit
  (`-`, `.`, `_`, `/`, a space) and where lower case turns to upper case (`getNote`,
  `HTTPServer` → `http`, `server`), digits staying with the letters before or after them
  (`getV2`, `3d`); the words are lower-cased and joined with `_`
  (`get-note`, `get.note`, `getNote` → `get_note`); a name with no word is its kind's word;
- a name that starts with a digit takes its kind's word in front (`3d-render` →
  `tool_3d_render`); a name Python or JavaScript keeps for itself, and a module named like one
  of gg's own modules or a host family of the run, takes it behind (`delete` → `delete_tool`,
  `files` → `files_mcp`). The kind's words: `mcp` for a module, `tool` for a function, `arg`
  for a parameter;
- names that still collide within their scope (the modules of a run, the functions of a module,
  the parameters of a function), or whose camelCase would, are told apart in the order they are
  listed: the first keeps the name, the next take `_2`, `_3`, ... (`get_note`, `get_note_2`).
The spelled name is the name the docs show and the name a call dispatches under; the server
always receives its own raw names.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Sequence
from enum import StrEnum

from gg.wire import JS_RESERVED, camel

_WORD = re.compile(r"[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*(?![a-z])|[0-9]+[a-z]*")


class NameKind(StrEnum):
    """What a name names; its value is the word that disambiguates it."""

    MODULE = "mcp"
    FUNCTION = "tool"
    PARAMETER = "arg"


def spelled(raw: str, kind: NameKind, kept: Iterable[str] = ()) -> str:
    """`raw` in snake_case by the module rules, before collisions are told apart; `kept` are
    names its kind may not take besides the languages' own (gg's modules, for a module)."""
    name = "_".join(_words(raw)) or kind.value
    if name[0].isdigit():
        name = f"{kind.value}_{name}"
    if _reserved(name) or name in set(kept):
        name = f"{name}_{kind.value}"
    return name


def spelled_apart(raws: Sequence[str], kind: NameKind, kept: Iterable[str] = ()) -> list[str]:
    """Each of `raws` spelled, in order, collisions told apart by `_2`, `_3`, ... (the module rules)."""
    taken = {camel(name) for name in kept}
    names: list[str] = []
    for raw in raws:
        base = spelled(raw, kind, kept)
        name, n = base, 1
        while camel(name) in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(camel(name))
        names.append(name)
    return names


def pascal(raw: str) -> str:
    """`raw`'s words (cut as the module rules cut them) in PascalCase: `get-note` → `GetNote`."""
    return "".join(word[:1].upper() + word[1:] for word in _words(raw))


def _words(raw: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(raw.encode("ascii", "replace").decode())]


def _reserved(name: str) -> bool:
    return keyword.iskeyword(name) or keyword.issoftkeyword(name) or camel(name) in JS_RESERVED
