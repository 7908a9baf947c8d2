"""Reading a capability-set file into a plain document (dicts, lists, scalars).

Rules:
- a path naming a folder means the one `gg.json` or `gg.toml` inside it; neither or both refuse;
- `.toml` files are TOML, every other file is JSON (UTF-8, a byte-order mark tolerated);
- a missing or unreadable file, one that is not a regular file (a FIFO, say: refused at once,
  never waited on), text that does not parse (reported with its line and column), a
  top level that is not an object and nesting deeper than `MAX_NESTING` each refuse with one
  defect at `(document)`;
- a JSON object that writes a key twice keeps a record of it; `repeated_key_findings` names each
  repetition (TOML refuses them while parsing).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, cast

from gg.config.catalogue import CONFIG_FILE_NAMES
from gg.config.defects import ABSENT, DOCUMENT, UNREADABLE, Finding, Loc, render_found
from gg.errors import ConfigDefect, ConfigError

__all__ = ["MAX_NESTING", "locate", "read_document", "repeated_key_findings"]

MAX_NESTING = 32  # objects and lists inside each other; a capability set needs far fewer
_TOO_DEEP = f"nests objects and lists more than {MAX_NESTING} deep"
_TOO_LONG = "holds a whole number of more than 4,300 digits, longer than any setting takes"
_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


class _Object(dict[str, Any]):
    """A JSON object that remembers the keys written more than once."""

    repeated: tuple[str, ...] = ()


def _refusal(source: Path, reason: str, found: object = ABSENT) -> ConfigError:
    return ConfigError(str(source), [ConfigDefect(DOCUMENT, render_found(found), reason)])


def locate(path: str | Path) -> Path:
    """The config file `path` names: the file itself, or the one config file in a folder."""
    given = Path(path)
    if not given.is_dir():
        return given
    present = [given / name for name in CONFIG_FILE_NAMES if (given / name).is_file()]
    if len(present) == 1:
        return present[0]
    if not present:
        raise _refusal(given, "is a folder holding neither gg.json nor gg.toml")
    raise _refusal(given, "is a folder holding both gg.json and gg.toml; keep one", [p.name for p in present])


def read_document(file: Path) -> dict[str, Any]:
    """The parsed top-level object of `file`, or a `ConfigError` with one defect."""
    text = _read_text(file)
    document = _parse_toml(file, text) if file.suffix == ".toml" else _parse_json(file, text)
    if not isinstance(document, dict):
        raise _refusal(file, "must hold an object at the top level (a table in TOML)", document)
    if _depth(document) > MAX_NESTING:
        raise _refusal(file, _TOO_DEEP, UNREADABLE)
    return cast(dict[str, Any], document)


def _depth(document: object) -> int:
    """How deeply objects and lists nest (a scalar is 0), counted without recursion."""
    deepest, pending = 0, [(document, 1)]
    while pending:
        node, depth = pending.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in cast(Iterable[object], children))
    return deepest


def _read_text(file: Path) -> str:
    try:
        return _regular_bytes(file).decode("utf-8-sig")
    except FileNotFoundError:
        raise _refusal(file, "does not exist") from None
    except IsADirectoryError:
        raise _refusal(file, "is a folder, not a file") from None
    except OSError as error:
        raise _refusal(file, f"cannot be read: {error.strerror or error}", UNREADABLE) from None
    except UnicodeDecodeError as error:
        raise _refusal(
            file, f"is not UTF-8 text (byte {error.start} cannot be decoded)", UNREADABLE
        ) from None


def _regular_bytes(file: Path) -> bytes:
    """The bytes of `file`, opened without waiting: a FIFO, a device or a socket is refused at
    once, never read (reading a FIFO would wait for a writer that may never come)."""
    descriptor = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(descriptor, "rb") as opened:
        mode = os.fstat(opened.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(file)
        if not stat.S_ISREG(mode):
            raise _refusal(
                file, "is not a regular file (a FIFO, a device or a socket); name a file", UNREADABLE
            )
        return opened.read()


def _parse_json(file: Path, text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_object)
    except RecursionError:
        raise _refusal(file, _TOO_DEEP, UNREADABLE) from None
    except json.JSONDecodeError as error:
        reason = f"is not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        raise _refusal(file, reason, _line(text, error.lineno)) from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        raise _refusal(file, _TOO_LONG, UNREADABLE) from None


def _parse_toml(file: Path, text: str) -> object:
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise _refusal(file, _TOO_DEEP, UNREADABLE) from None
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        place = _TOML_PLACE.search(message)
        if place is None:
            raise _refusal(file, f"is not valid TOML: {message}") from None
        line, column = int(place.group(1)), int(place.group(2))
        reason = f"is not valid TOML at line {line}, column {column}: {message[: place.start()]}"
        raise _refusal(file, reason, _line(text, line)) from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        raise _refusal(file, _TOO_LONG, UNREADABLE) from None


def _line(text: str, number: int) -> str | object:
    lines = text.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ABSENT


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    result = _Object()
    repeated: list[str] = []
    for key, value in pairs:
        if key in result:
            repeated.append(key)
        result[key] = value
    result.repeated = tuple(repeated)
    return result


def repeated_key_findings(node: object, loc: Loc = ()) -> Iterator[Finding]:
    """One finding per key a JSON object writes more than once (the last value stands)."""
    if isinstance(node, _Object):
        for key in dict.fromkeys(node.repeated):
            yield Finding((*loc, key), "is written more than once in this object; write it once")
    if isinstance(node, dict):
        for key, value in node.items():
            yield from repeated_key_findings(value, (*loc, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from repeated_key_findings(value, (*loc, index))
