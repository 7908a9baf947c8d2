"""The key a code module is reached by: camelCase of its name, collisions numbered from 2."""

from __future__ import annotations

import pytest

from gg.sdk.docs.modulekeys import camel_key, unique_key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("csv-tools", "csvTools"),
        ("my_helpers.v2", "myHelpersV2"),
        ("9lives", "_9lives"),
        ("---", "module"),
        ("", "module"),
        ("-csv", "csv"),
        ("a--b", "aB"),
        ("CSV-Tools", "CSVTools"),
        ("héllo", "hLlo"),
        ("notes", "notes"),
        ("big data 2", "bigData2"),
        ("x-9", "x9"),
        ("__init__", "init"),
    ],
)
def test_every_non_alphanumeric_character_separates_and_capitalises_the_next(name: str, key: str) -> None:
    assert camel_key(name) == key


def test_a_collision_takes_a_numeric_suffix_from_two() -> None:
    taken: list[str] = []
    for name in ["csv-tools", "csv_tools", "csv.tools", "other"]:
        taken.append(unique_key(name, taken))
    assert taken == ["csvTools", "csvTools2", "csvTools3", "other"]


def test_a_suffix_already_taken_is_skipped() -> None:
    assert unique_key("csv-tools", ["csvTools", "csvTools2"]) == "csvTools3"
    assert unique_key("csv-tools", ["csvTools2"]) == "csvTools"
