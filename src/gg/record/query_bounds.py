"""A query's bounds unless told (`gg query --limit`, `--timeout`; the console's Query page): at
most `DEFAULT_ROWS` rows, stopped after `DEFAULT_SECONDS`. Imports nothing, so a command's options
read them without loading the store."""

from __future__ import annotations

DEFAULT_ROWS = 1_000
DEFAULT_SECONDS = 5.0
