"""The host-functions capability: `{"id": "host-functions", "params": {"families": [...]}}`, each
family a name handed to the run or an importable `package.module:attribute`; each grants its own
`host-functions:<family>`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .documents import at, example, load, refusal, root

PARAMS = "agents[0].capabilities[2].params"


def with_families(entry: dict[str, Any]) -> dict[str, Any]:
    document = example()
    root(document)["capabilities"].append({"id": "host-functions", **entry})
    return document


def test_the_listed_families_are_kept_as_written_and_each_is_granted(folder: Path) -> None:
    profile = load(with_families({"params": {"families": ["inventory", "shop.tools:crm"]}}), folder).root
    assert profile.host_families == ("inventory", "shop.tools:crm")
    assert {
        "host-functions",
        "host-functions:inventory",
        "host-functions:shop.tools:crm",
    } <= profile.capability_ids


def test_a_disabled_capability_lists_no_family_and_grants_none(folder: Path) -> None:
    profile = load(with_families({"enabled": False, "params": {"families": ["inventory"]}}), folder).root
    assert profile.host_families == () and not {c for c in profile.capability_ids if c.startswith("host")}


@pytest.mark.parametrize(
    ("families", "key", "reason"),
    [
        ([], "families", "must list at least one host family"),
        (["inventory", "inventory"], "families[1]", "lists inventory again"),
        (["Inventory"], "families[0]", "a host family's name or an importable package.module:attribute"),
        (["shop.tools:"], "families[0]", "a host family's name or an importable package.module:attribute"),
        ([3], "families[0]", "must be a non-empty string"),
        ("inventory", "families", "must be a list"),
    ],
)
def test_a_bad_family_list_refuses_the_launch_naming_it(
    folder: Path, families: Any, key: str, reason: str
) -> None:
    defect = at(refusal(with_families({"params": {"families": families}}), folder), f"{PARAMS}.{key}")
    assert reason in defect.reason, defect


def test_the_capability_without_its_families_is_named(folder: Path) -> None:
    assert at(refusal(with_families({}), folder), PARAMS).reason == "is required"
