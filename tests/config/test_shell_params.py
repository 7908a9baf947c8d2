"""The shell capability: `{"id": "shell", "params": {"timeoutSecs", "maxMemoryBytes", "network"}}`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .documents import at, example, load, refusal, root

PARAMS = "agents[0].capabilities[2].params"


def with_shell(entry: dict[str, Any]) -> dict[str, Any]:
    document = example()
    root(document)["capabilities"].append({"id": "shell", **entry})
    return document


def test_an_enabled_shell_defaults_to_120_seconds_4_gib_1_gib_files_and_no_network(folder: Path) -> None:
    shell = load(with_shell({}), folder).root.shell
    assert shell is not None
    assert (shell.timeout_secs, shell.max_memory_bytes) == (120.0, 4_294_967_296)
    assert (shell.max_file_bytes, shell.network) == (1_073_741_824, False)


def test_written_params_are_kept(folder: Path) -> None:
    params = {"timeoutSecs": 600.5, "maxMemoryBytes": 5e8, "maxFileBytes": 8388608, "network": True}
    shell = load(with_shell({"enabled": True, "params": params}), folder).root.shell
    assert shell is not None
    assert (shell.timeout_secs, shell.max_memory_bytes) == (600.5, 500_000_000)
    assert (shell.max_file_bytes, shell.network) == (8_388_608, True)


def test_a_profile_without_the_shell_or_with_it_disabled_has_none(folder: Path) -> None:
    assert load(example(), folder).root.shell is None
    assert load(with_shell({"enabled": False}), folder).root.shell is None


@pytest.mark.parametrize(
    ("params", "key", "reason"),
    [
        ({"timeoutSecs": 0}, "timeoutSecs", "above 0"),
        ({"timeoutSecs": 86_401}, "timeoutSecs", "at most 86400"),
        ({"timeoutSecs": "120"}, "timeoutSecs", "number"),
        ({"maxMemoryBytes": 1_000_000}, "maxMemoryBytes", "from 16777216"),
        ({"maxMemoryBytes": 500000000.5}, "maxMemoryBytes", "whole number"),
        ({"maxFileBytes": 1000}, "maxFileBytes", "from 1048576"),
        ({"network": "yes"}, "network", "true or false"),
        ({"network": 1}, "network", "true or false"),
    ],
)
def test_a_bad_param_refuses_the_launch_naming_it(
    folder: Path, params: dict[str, Any], key: str, reason: str
) -> None:
    defect = at(refusal(with_shell({"params": params}), folder), f"{PARAMS}.{key}")
    assert reason in defect.reason, defect


def test_an_unknown_param_is_named(folder: Path) -> None:
    defects = refusal(with_shell({"params": {"timeout": 5}}), folder)
    assert any(defect.path == f"{PARAMS}.timeout" for defect in defects), defects
