"""The key a Python code module is reached by (`lib.<key>`): snake_case of its name."""

from __future__ import annotations

import pytest

from gg.sandbox.languages import LANGUAGES
from gg.sdk.docs.modulekeys import snake_key, unique_key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("csv-tools", "csv_tools"),
        ("my_helpers.v2", "my_helpers_v2"),
        ("9lives", "_9lives"),
        ("CSVTools", "csvtools"),
        ("a--b", "a_b"),
        ("---", "module"),
        ("", "module"),
        ("-csv-", "csv"),
        ("héllo", "h_llo"),
        ("Big Data 2", "big_data_2"),
        ("__init__", "init"),
    ],
)
def test_ascii_letters_and_digits_are_lowered_and_each_run_of_others_is_one_underscore(
    name: str, key: str
) -> None:
    assert snake_key(name) == key


def test_the_python_arms_use_the_snake_rule_and_collisions_count_from_two() -> None:
    assert LANGUAGES["python"].module_key is snake_key and LANGUAGES["python-typed"].module_key is snake_key
    assert unique_key("csv_tools", {"csv_tools"}, snake_key) == "csv_tools2"
