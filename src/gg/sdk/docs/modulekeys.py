"""The key a code module is reached by (`lib:<key>`), made from its skill's or memory's name.

The JavaScript and TypeScript rule (`camel_key`), walking the name character by character:
- an ASCII letter or digit is kept; after a separator it is upper-cased (a digit stays as it is);
- every other character is a separator (`-`, `_`, `.`, a space, any non-ASCII letter), but only
  once something has been kept, so leading separators vanish;
- the first kept character keeps its case;
- an empty result is `module`; a result that starts with a digit gets a `_` prefix.
So `csv-tools` → `csvTools`, `my_helpers.v2` → `myHelpersV2`, `9lives` → `_9lives`, `---` →
`module`, `héllo` → `hLlo`.

The Python rule (`snake_key`): ASCII letters and digits are kept, lower-cased; every run of other
characters becomes one `_`, and only between kept characters (never leading or trailing); an empty
result is `module`, one that starts with a digit gets a `_` prefix. So `csv-tools` → `csv_tools`,
`my_helpers.v2` → `my_helpers_v2`, `CSVTools` → `csvtools`, `a--b` → `a_b`, `9lives` → `_9lives`.

`unique_key` settles collisions: the first use takes the plain key, later ones a numeric suffix
counting from 2 (`csvTools`, `csvTools2`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

EMPTY_KEY = "module"


def camel_key(name: str) -> str:
    """The camelCase key of `name`."""
    kept: list[str] = []
    capitalise = False
    for char in name:
        if char.isascii() and char.isalnum():
            kept.append(char.upper() if capitalise else char)
            capitalise = False
        elif kept:
            capitalise = True
    key = "".join(kept) or EMPTY_KEY
    return f"_{key}" if key[0].isdigit() else key


def snake_key(name: str) -> str:
    """The snake_case key of `name`."""
    words: list[str] = []
    current: list[str] = []
    for char in name:
        if char.isascii() and char.isalnum():
            current.append(char.lower())
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    key = "_".join(words) or EMPTY_KEY
    return f"_{key}" if key[0].isdigit() else key


def unique_key(name: str, taken: Collection[str], rule: Callable[[str], str] = camel_key) -> str:
    """`rule(name)`, or the same with the smallest suffix from 2 that no key in `taken` holds."""
    base = rule(name)
    if base not in taken:
        return base
    suffix = 2
    while f"{base}{suffix}" in taken:
        suffix += 1
    return f"{base}{suffix}"
