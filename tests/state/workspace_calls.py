"""Calls on a `Workspace` as the file operations make them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gg.state.workspace import PathRefusal, Workspace


def read(workspace: Workspace, path: str) -> str:
    with workspace.open_for_read(path) as stream:
        return stream.read().decode()


def write(workspace: Workspace, path: str, text: str) -> None:
    with workspace.open_for_write(path) as stream:
        stream.write(text.encode())


def refusal_of(action: Callable[[], object]) -> PathRefusal:
    with pytest.raises(PathRefusal) as caught:
        action()
    return caught.value
