"""Fidelity case 038: bad program-library params refuse the launch, each defect named.

The case writes `found: ""` for a value nobody wrote; gg shows such a value as `(absent)` and a
written `null` as `null` (both refused alike when the library is enabled).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gg.config import LibrarySettings

from .documents import example, library, load, refusal

KEEP = "agents[0].capabilities[1].params.keep"
ID_LENGTH = "agents[0].capabilities[1].params.idLength"


def with_library(enabled: bool, params: dict[str, Any]) -> dict[str, Any]:
    document = example()
    library(document).update(enabled=enabled, params=params)
    return document


@pytest.mark.parametrize(
    ("params", "path", "found"),
    [
        ({"idLength": 4}, KEEP, "(absent)"),
        ({"keep": None, "idLength": 4}, KEEP, "null"),
        ({"keep": "5", "idLength": 4}, KEEP, '"5"'),
        ({"keep": "many", "idLength": 4}, KEEP, '"many"'),
        ({"keep": True, "idLength": 4}, KEEP, "true"),
        ({"keep": -1, "idLength": 4}, KEEP, "-1"),
        ({"keep": 2.5, "idLength": 4}, KEEP, "2.5"),
        ({"keep": 3}, ID_LENGTH, "(absent)"),
        ({"keep": 3, "idLength": "4"}, ID_LENGTH, '"4"'),
        ({"keep": 3, "idLength": 1}, ID_LENGTH, "1"),
        ({"keep": 3, "idLength": 33}, ID_LENGTH, "33"),
    ],
)
def test_an_enabled_library_refuses_absent_unreadable_or_out_of_range_params(
    folder: Path, params: dict[str, Any], path: str, found: str
) -> None:
    (defect,) = refusal(with_library(True, params), folder)
    assert (defect.path, defect.found) == (path, found)


def test_an_absent_keep_says_it_is_required_and_what_it_must_be(folder: Path) -> None:
    (defect,) = refusal(with_library(True, {"idLength": 4}), folder)
    assert defect.reason == (
        "is required when program-library is enabled; "
        "it must be a whole number, 0 or more (0 keeps every program)"
    )


def test_an_out_of_range_id_length_states_the_range(folder: Path) -> None:
    (defect,) = refusal(with_library(True, {"keep": 3, "idLength": 40}), folder)
    assert defect.reason == "must be a whole number from 2 to 32"


def test_one_refusal_names_every_bad_library_param(folder: Path) -> None:
    defects = refusal(with_library(True, {"keep": "5", "idLength": 40}), folder)
    assert [d.path for d in defects] == [KEEP, ID_LENGTH]


def test_an_enabled_library_without_params_names_both_missing(folder: Path) -> None:
    document = example()
    library(document).pop("params")
    assert [d.path for d in refusal(document, folder)] == [KEEP, ID_LENGTH]


def test_a_library_with_enabled_left_out_is_enabled(folder: Path) -> None:
    document = example()
    library(document).pop("enabled")
    library(document)["params"] = {"keep": 3}
    assert [d.path for d in refusal(document, folder)] == [ID_LENGTH]


def test_a_disabled_library_without_params_is_accepted(folder: Path) -> None:
    assert load(with_library(False, {}), folder).root.program_library is None


def test_a_disabled_library_still_has_its_written_params_judged(folder: Path) -> None:
    (defect,) = refusal(with_library(False, {"keep": "5", "idLength": 4}), folder)
    assert defect.path == KEEP


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"keep": 3.0, "idLength": 4}, LibrarySettings(keep=3, id_length=4)),
        ({"keep": 0, "idLength": 8}, LibrarySettings(keep=0, id_length=8)),
        ({"keep": 5, "idLength": 2}, LibrarySettings(keep=5, id_length=2)),
        ({"keep": 5, "idLength": 32}, LibrarySettings(keep=5, id_length=32)),
    ],
)
def test_written_library_params_are_honoured(
    folder: Path, params: dict[str, Any], expected: LibrarySettings
) -> None:
    assert load(with_library(True, params), folder).root.program_library == expected


def test_keep_zero_keeps_every_program(folder: Path) -> None:
    kept = load(with_library(True, {"keep": 0, "idLength": 8}), folder).root.program_library
    assert kept is not None and kept.keeps_every_program
