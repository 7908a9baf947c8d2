"""`disabledOperations` as the capability set spells it: a list of operation keys
(`module.operation`) or whole modules (`module.*`); any other shape is refused where it is written,
every one at once. What the names name is judged at launch (`tests/sdk/test_ablation.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.config import parse_capability_set
from gg.errors import ConfigError

CODE = {"id": "responses-as-code", "params": {"language": "javascript"}}


def _document(entries: object) -> dict[str, object]:
    root = {"slug": "root", "capabilities": [CODE]}
    return {"name": "ablation", "agents": [{**root, "disabledOperations": entries}]}


def test_keys_and_whole_modules_are_kept_as_written(tmp_path: Path) -> None:
    (tmp_path / "workspace").mkdir()
    entries = ["files.write_file", "memories.*", "my_notes.add_note"]
    loaded = parse_capability_set(_document(entries), tmp_path, models_handed=(0,))
    assert loaded.root.disabled_operations == tuple(entries)


def test_an_entry_of_another_shape_is_refused_where_it_is_written(tmp_path: Path) -> None:
    (tmp_path / "workspace").mkdir()
    with pytest.raises(ConfigError) as refused:
        parse_capability_set(_document(["files", "files.*.x", "*", ""]), tmp_path, models_handed=(0,))
    wanted = (
        "must be a non-empty string of an operation's key (module.operation) or a whole module (module.*)"
    )
    assert [(d.path, d.reason.split(",")[0]) for d in refused.value.defects] == [
        (f"agents[0].disabledOperations[{n}]", wanted) for n in range(4)
    ]
