"""Reading a capability-set file: formats, folders, and refusals that are never tracebacks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gg.config import load_capability_set
from gg.config.document import MAX_NESTING
from gg.errors import ConfigDefect, ConfigError

from .documents import EXAMPLE_TOML, example, write


def refused(path: Path) -> ConfigDefect:
    """The single defect loading `path` is refused with."""
    with pytest.raises(ConfigError) as caught:
        load_capability_set(path)
    assert len(caught.value.defects) == 1, caught.value.defects
    return caught.value.defects[0]


def test_a_missing_file_is_one_defect_at_the_document(tmp_path: Path) -> None:
    defect = refused(tmp_path / "absent.json")
    assert defect == ConfigDefect("(document)", "(absent)", "does not exist")


def test_a_file_that_cannot_be_read_is_one_defect(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    defect = refused(tmp_path / "plain" / "gg.json")
    assert defect.reason.startswith("cannot be read")
    assert defect.found == "(unreadable)"


@pytest.mark.timeout(60)  # a FIFO read would wait forever for a writer
def test_a_fifo_is_refused_at_once_never_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "gg.json")
    defect = refused(tmp_path / "gg.json")
    assert defect == ConfigDefect(
        "(document)", "(unreadable)", "is not a regular file (a FIFO, a device or a socket); name a file"
    )


def test_a_file_that_is_not_utf8_is_one_defect(tmp_path: Path) -> None:
    (tmp_path / "gg.json").write_bytes(b'{"name": "\xff"}')
    assert refused(tmp_path / "gg.json").reason.startswith("is not UTF-8 text")


def test_invalid_json_names_its_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "gg.json").write_text('{\n  "name": "x",,\n}')
    defect = refused(tmp_path / "gg.json")
    assert defect.path == "(document)"
    assert "is not valid JSON at line 2, column 15" in defect.reason
    assert defect.found == json.dumps('"name": "x",,')


def test_invalid_toml_names_its_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "gg.toml").write_text('name = "x"\nagents = [\n  {slug = }\n]\n')
    defect = refused(tmp_path / "gg.toml")
    assert "is not valid TOML at line 3, column 11" in defect.reason
    assert defect.found == json.dumps("{slug = }")


@pytest.mark.parametrize("top", [[1, 2], "text", 3, None])
def test_a_top_level_that_is_not_an_object_is_refused(tmp_path: Path, top: object) -> None:
    defect = refused(write(tmp_path, top))
    assert defect.reason == "must hold an object at the top level (a table in TOML)"
    assert defect.found == json.dumps(top)


def test_a_folder_means_the_gg_json_inside_it(folder: Path) -> None:
    write(folder, example())
    assert load_capability_set(folder).name == "spec-audit"


def test_a_folder_means_the_gg_toml_inside_it(folder: Path) -> None:
    (folder / "gg.toml").write_text(EXAMPLE_TOML)
    assert load_capability_set(folder).name == "spec-audit"


def test_a_folder_holding_both_config_files_is_refused(folder: Path) -> None:
    write(folder, example())
    (folder / "gg.toml").write_text(EXAMPLE_TOML)
    defect = refused(folder)
    assert "both gg.json and gg.toml" in defect.reason
    assert defect.found == '["gg.json", "gg.toml"]'


def test_a_folder_holding_neither_config_file_is_refused(tmp_path: Path) -> None:
    assert "neither gg.json nor gg.toml" in refused(tmp_path).reason


def test_a_json_key_written_twice_is_a_defect_at_its_path(folder: Path) -> None:
    text = json.dumps(example()).replace('"maxTurns": 12', '"maxTurns": 12, "maxTurns": 13')
    (folder / "gg.json").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_capability_set(folder / "gg.json")
    (defect,) = caught.value.defects
    assert defect.path == "limits.maxTurns"
    assert defect.found == "13"
    assert "more than once" in defect.reason


def test_a_byte_order_mark_is_tolerated(folder: Path) -> None:
    (folder / "gg.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(example()).encode())
    assert load_capability_set(folder / "gg.json").name == "spec-audit"


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 5000])
def test_nesting_deeper_than_the_limit_is_refused_without_a_traceback(tmp_path: Path, depth: int) -> None:
    (tmp_path / "gg.json").write_text('{"name": ' + "[" * depth + "]" * depth + "}")
    assert "nests objects and lists more than" in refused(tmp_path / "gg.json").reason


def test_relative_paths_resolve_against_the_config_folder(folder: Path) -> None:
    loaded = load_capability_set(write(folder, example()))
    assert loaded.workspace == (folder / "workspace").resolve()
    assert loaded.root.model.journal == (folder / "journal.jsonl").resolve()


def test_the_refusal_names_the_file_it_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_capability_set(tmp_path / "absent.json")
    assert caught.value.source == str(tmp_path / "absent.json")


def test_toml_values_json_cannot_hold_are_judged_like_any_other(folder: Path) -> None:
    text = EXAMPLE_TOML.replace("maxTurns = 12", "maxTurns = 1979-05-27\nmaxCost = inf")
    (folder / "gg.toml").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_capability_set(folder / "gg.toml")
    turns, cost = caught.value.defects
    assert (turns.path, turns.found) == ("limits.maxTurns", '"1979-05-27"')
    assert (cost.path, cost.reason) == ("limits.maxCost", "must be an amount in USD above 0")


@pytest.mark.parametrize("name", ["gg.json", "gg.toml"])
def test_a_number_of_5000_digits_is_refused_without_a_traceback(tmp_path: Path, name: str) -> None:
    """Python reads no whole number of more than 4,300 digits (a newcomer's gg check and gg run
    ended in a ValueError traceback)."""
    digits = "9" * 5000
    text = (
        '{"name": "x", "limits": {"maxTurns": ' + digits + "}}"
        if name == "gg.json"
        else f'name = "x"\n[limits]\nmaxTurns = {digits}\n'
    )
    (tmp_path / name).write_text(text)
    assert "whole number of more than 4,300 digits" in refused(tmp_path / name).reason
