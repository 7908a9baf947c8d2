"""A surface and its grant: a new instance starts from its grant with nothing loaded (seed 003:
loaded code is never carried)."""

from __future__ import annotations

from pathlib import Path

from gg.config.catalogue import Role
from gg.sandbox.languages import JAVASCRIPT
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.surface import build_surface
from gg.sdk.surface import Surface
from gg.state.skills import SkillShelf

CSV = "/** Split CSV text into rows. */\nexport function parse(text) { return []; }\n"


def _keys(surface: Surface) -> list[str]:
    return [entry.key for entry in surface.docs]


def test_a_fresh_surface_holds_the_granted_documentation_and_nothing_loaded(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    shelf = SkillShelf(tmp_path / "skills", JAVASCRIPT.module_extensions)
    surface = build_surface(default_registry(), JAVASCRIPT, Role.STANDARD, {"skills"}, shelf)
    granted = _keys(surface)
    surface.load_module("csv-tools", CSV, "js", "CSV helpers.")
    assert "lib:csvTools.parse" in _keys(surface)
    fresh = surface.fresh()
    assert fresh.modules.current() == () and _keys(fresh) == granted
    assert fresh.skills is surface.skills  # the catalogue is the profile's: one copy
    assert surface.modules.keys() == ["csvTools"]


def test_a_fresh_surface_keys_its_modules_by_the_same_rule() -> None:
    surface = build_surface(default_registry(), JAVASCRIPT, Role.STANDARD, set())
    module = surface.fresh().load_module("csv-tools", CSV, "js", "CSV helpers.")
    assert module.key == "csvTools"


def test_a_grant_opens_a_new_surface_each_time() -> None:
    grant = build_surface(default_registry(), JAVASCRIPT, Role.STANDARD, set()).grant
    first, second = grant.open(), grant.open()
    first.load_module("csv-tools", CSV, "js", "CSV helpers.")
    assert second.modules.current() == () and "lib:csvTools" not in _keys(second)
