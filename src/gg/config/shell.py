"""The `shell` capability: `{"id": "shell", "params": {...}}`, every param optional.

- `timeoutSecs`: a call's default timeout, above 0 and at most `MAX_TIMEOUT_SECS` (120 unless written);
- `maxMemoryBytes`: each process's address space, 16 MiB to 1 TiB (4 GiB unless written);
- `maxFileBytes`: the most a command writes to any one file (1 GiB unless written);
- `network`: whether commands share the host's network (false unless written).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gg.config.catalogue import (
    DEFAULT_SHELL_MAX_FILE_BYTES,
    DEFAULT_SHELL_MAX_MEMORY_BYTES,
    DEFAULT_SHELL_TIMEOUT_SECS,
    MAX_MAX_MEMORY_BYTES,
    MAX_TIMEOUT_SECS,
    MIN_MAX_MEMORY_BYTES,
    MIN_SHELL_MAX_FILE_BYTES,
    CapabilityId,
)
from gg.config.part import Enabled, Part
from gg.config.values import Flag, Number, Whole

__all__ = ["ShellCapability", "ShellParams"]


class ShellParams(Part):
    """A shell command's default timeout, each of its processes' memory, the most it writes to any
    one file (the workspace is on the host's disk), and whether it shares the host's network (it
    has none unless `network` is true)."""

    timeout_secs: Annotated[float, Number(above=0, most=MAX_TIMEOUT_SECS, what="a number of seconds")] = (
        DEFAULT_SHELL_TIMEOUT_SECS
    )
    max_memory_bytes: Annotated[
        int,
        Whole(
            MIN_MAX_MEMORY_BYTES,
            MAX_MAX_MEMORY_BYTES,
            what="a whole number of bytes",
            note="a shell needs 16 MiB and is given at most 1 TiB",
        ),
    ] = DEFAULT_SHELL_MAX_MEMORY_BYTES
    max_file_bytes: Annotated[
        int,
        Whole(
            MIN_SHELL_MAX_FILE_BYTES,
            MAX_MAX_MEMORY_BYTES,
            what="a whole number of bytes",
            note="each file a command writes; the workspace is on the host's disk",
        ),
    ] = DEFAULT_SHELL_MAX_FILE_BYTES
    network: Annotated[bool, Flag()] = False


class ShellCapability(Part):
    """`shell.shell`: commands run in a jail (`gg.sandbox.jail`)."""

    id: Literal[CapabilityId.SHELL]
    enabled: Enabled = True
    params: ShellParams = Field(default_factory=ShellParams)
