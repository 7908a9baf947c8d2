"""What `gg.run` is handed in place of what a capability set names: the root's model (its profile
then need not name one), and host families named as a profile names them
(`package.module:attribute`); a family entry that is neither is refused naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import gg
from support.scripted_host import Scripted, config

CODE_MODE = {"id": "responses-as-code", "params": {"language": "javascript"}}
FINISH = 'import { session } from "gg";\nsession.finish("handed");\n'
WEIGH = (
    'import { warehouse, session } from "gg";\n'
    'session.finish(String(warehouse.weigh({ label: "a", weight: 3, tags: [] })));\n'
)


def _unnamed_root(tmp_path: Path) -> dict[str, Any]:
    """A root profile that names no model."""
    (tmp_path / "ws").mkdir(exist_ok=True)
    return {
        "name": "handed",
        "workspace": str(tmp_path / "ws"),
        "limits": {"maxTurns": 2},
        "agents": [
            {
                "slug": "root",
                "capabilities": [{"id": "responses-as-code", "params": {"language": "javascript"}}],
            }
        ],
    }


def test_a_root_handed_a_model_object_needs_no_model_in_its_profile(tmp_path: Path) -> None:
    result = gg.run(_unnamed_root(tmp_path), model=Scripted(FINISH), store=tmp_path)
    assert (result.status, result.final_text) == ("completed", "handed")


def test_a_root_handed_a_model_by_name_needs_none_in_its_profile_and_asks_that_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = gg.run(_unnamed_root(tmp_path), model="openai:gpt-4o", store=tmp_path)
    assert result.status == "refused" and result.message is not None
    assert "OPENAI_API_KEY" in result.message and "agents[0].model" not in result.message


def test_a_root_handed_a_journal_needs_no_model_in_its_profile(tmp_path: Path) -> None:
    journal = tmp_path / "session.jsonl"
    line = {"calls": [{"name": "submit_program", "arguments": {"program": FINISH}}]}
    journal.write_text(json.dumps(line) + "\n")
    result = gg.run(_unnamed_root(tmp_path), journal=journal, store=tmp_path)
    assert (result.status, result.final_text) == ("completed", "handed")


def test_a_root_handed_nothing_still_names_its_model(tmp_path: Path) -> None:
    with pytest.raises(gg.ConfigError) as refused:
        gg.run(_unnamed_root(tmp_path), store=tmp_path)
    assert [d.path for d in refused.value.defects] == ["agents[0].model"]
    assert not (tmp_path / ".gg").exists()


def test_a_family_handed_as_its_import_path_serves_the_profile_naming_it(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", ["warehouse"])
    result = gg.run(document, model=Scripted(WEIGH), families=["warehouse:warehouse"], store=tmp_path)
    assert (result.status, result.final_text) == ("completed", "3")


def test_a_family_entry_that_is_no_family_is_refused_naming_each(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", ["warehouse"])
    given: list[Any] = ["warehouse", "shop:inventory", "warehouse:Box", 42]
    with pytest.raises(gg.ConfigError) as refused:
        gg.run(document, model=Scripted(WEIGH), families=given, store=tmp_path)
    reasons = {d.path: d.reason for d in refused.value.defects}
    assert list(reasons) == ["families[0]", "families[1]", "families[2]", "families[3]"]
    assert reasons["families[0]"].startswith("is a family's name, which a profile lists")
    assert reasons["families[1]"] == "cannot be imported (ModuleNotFoundError: No module named 'shop')"
    assert reasons["families[2]"] == "is not a host family (made by gg.family) but type"
    assert reasons["families[3]"] == (
        "must be a host family (made by gg.family) or a `package.module:attribute` naming one"
    )
    assert not (tmp_path / ".gg").exists()
