"""The mcp capability: `{"id": "mcp", "params": {"servers": {...}, "timeoutSecs": 60}}`, each server
one gg starts (`command`, `env`, `cwd`) or one it reaches over streamable HTTP (`url`, `headers`);
each grants its programs `mcp:<key>`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .documents import at, example, load, refusal, root

PARAMS = "agents[0].capabilities[2].params"


def with_servers(entry: dict[str, Any]) -> dict[str, Any]:
    document = example()
    root(document)["capabilities"].append({"id": "mcp", **entry})
    return document


def test_the_servers_are_kept_by_key_and_each_is_granted(folder: Path) -> None:
    (folder / "srv").mkdir()
    servers = {
        "notes": {"command": ["python3", "notes.py"], "env": {"NOTES_DIR": "x"}, "cwd": "srv"},
        "my-search": {"url": "http://127.0.0.1:9000/mcp", "headers": {"Authorization": "Bearer k"}},
    }
    profile = load(with_servers({"params": {"servers": servers}}), folder).root
    mcp = profile.mcp
    assert mcp is not None and mcp.timeout_secs == 60.0
    assert mcp.servers["notes"].command == ("python3", "notes.py")
    assert mcp.servers["notes"].cwd == (folder / "srv").resolve()
    assert (
        mcp.servers["my-search"].url == "http://127.0.0.1:9000/mcp" and not mcp.servers["my-search"].started
    )
    assert {"mcp", "mcp:notes", "mcp:my-search"} <= profile.capability_ids


def test_a_disabled_capability_grants_no_server(folder: Path) -> None:
    document = with_servers({"enabled": False, "params": {"servers": {"notes": {"command": ["x"]}}}})
    profile = load(document, folder).root
    assert profile.mcp is None and not {c for c in profile.capability_ids if c.startswith("mcp")}


@pytest.mark.parametrize(
    ("params", "key", "reason"),
    [
        ({"servers": {}}, "servers", "must name at least one MCP server"),
        ({"servers": {"a": {}}}, "servers.a", "must name one of `command` (a server gg starts) and `url`"),
        ({"servers": {"a": {"command": ["x"], "url": "http://h/mcp"}}}, "servers.a", "must name one of"),
        ({"servers": {"a": {"command": []}}}, "servers.a.command", "must hold at least the program to start"),
        ({"servers": {"a": {"url": "ftp://h"}}}, "servers.a.url", "an http:// or https:// URL"),
        (
            {"servers": {"a": {"url": "http://h/mcp", "env": {"A": "b"}}}},
            "servers.a.env",
            "is not read for a server reached at its url",
        ),
        (
            {"servers": {"a": {"command": ["x"], "headers": {"A": "b"}}}},
            "servers.a.headers",
            "is not read for a server gg starts",
        ),
        (
            {"servers": {"a": {"command": ["x"], "env": {"1A": "b"}}}},
            "servers.a.env",
            "an environment variable name",
        ),
        ({"servers": {"a": {"comand": ["x"]}}}, "servers.a.comand", "did you mean command?"),
        (
            {"servers": {"a": {"command": ["x"]}}, "timeoutSecs": 0},
            "timeoutSecs",
            "above 0 and at most 86400",
        ),
        ({"servers": {"a\u202e": {"command": ["x"]}}}, "servers", "U+202E"),
    ],
)
def test_a_bad_server_refuses_the_launch_naming_it(folder: Path, params: Any, key: str, reason: str) -> None:
    defects = refusal(with_servers({"params": params}), folder)
    found = [d for d in defects if d.path.startswith(f"{PARAMS}.{key}")]
    assert found and reason in found[0].reason, defects


def test_the_capability_without_its_servers_is_named(folder: Path) -> None:
    assert at(refusal(with_servers({}), folder), PARAMS).reason == "is required"
