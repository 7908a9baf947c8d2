"""`bootstrap.py test` makes sure the tests have the Debian packages they drive (Chromium,
PostgreSQL), installing the missing ones with one apt-get as root."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GG_CHROMIUM", raising=False)


def packages(tmp_path: Path):
    """Chromium and PostgreSQL as bootstrap declares them, their markers moved under `tmp_path`."""
    module = bootstrap()
    chromium = module.Needed("chromium", str(tmp_path / "chromium"), "the browser tests", "GG_CHROMIUM")
    postgresql = module.Needed("postgresql", str(tmp_path / "postgresql/*/bin/initdb"), "the store tests")
    return module, chromium, postgresql


def test_bootstrap_test_asks_for_chromium_and_postgresql_where_debian_installs_them():
    module = bootstrap()
    assert (module.CHROMIUM.package, module.CHROMIUM.marker) == ("chromium", "/usr/bin/chromium")
    assert (module.POSTGRESQL.package, module.POSTGRESQL.marker) == (
        "postgresql",
        "/usr/lib/postgresql/*/bin/initdb",
    )


def test_present_packages_install_nothing(tmp_path: Path):
    module, chromium, postgresql = packages(tmp_path)
    (tmp_path / "chromium").write_text("")
    (tmp_path / "postgresql/15/bin").mkdir(parents=True)
    (tmp_path / "postgresql/15/bin/initdb").write_text("")
    calls: list[list[str]] = []
    assert module.ensure_packages(
        [chromium, postgresql], is_root=True, apt_get="apt-get", run=lambda c, **_: calls.append(c) or 0
    )
    assert calls == []


def test_the_missing_packages_are_installed_with_one_apt_get_as_root(tmp_path: Path):
    module, chromium, postgresql = packages(tmp_path)
    calls: list[list[str]] = []

    def apt(command: list[str], **_: object) -> int:
        calls.append(command)
        if "install" in command:
            (tmp_path / "chromium").write_text("")
            (tmp_path / "postgresql/16/bin").mkdir(parents=True)
            (tmp_path / "postgresql/16/bin/initdb").write_text("")
        return 0

    assert module.ensure_packages([chromium, postgresql], is_root=True, apt_get="/usr/bin/apt-get", run=apt)
    assert calls == [
        ["/usr/bin/apt-get", "update", "-qq"],
        ["/usr/bin/apt-get", "install", "-y", "-qq", "chromium", "postgresql"],
    ]


def test_only_what_is_missing_is_installed(tmp_path: Path):
    module, chromium, postgresql = packages(tmp_path)
    (tmp_path / "chromium").write_text("")
    calls: list[list[str]] = []
    module.ensure_packages(
        [chromium, postgresql], is_root=True, apt_get="apt-get", run=lambda c, **_: calls.append(c) or 0
    )
    assert calls[-1] == ["apt-get", "install", "-y", "-qq", "postgresql"]


def test_without_root_it_says_how_to_get_each_and_installs_nothing(tmp_path: Path, capsys):
    module, chromium, postgresql = packages(tmp_path)
    calls: list[list[str]] = []
    found = module.ensure_packages(
        [chromium, postgresql], is_root=False, apt_get="apt-get", run=lambda c, **_: calls.append(c) or 0
    )
    assert not found and calls == []
    said = capsys.readouterr().err
    assert "apt-get install -y chromium" in said and "or set GG_CHROMIUM" in said
    assert "apt-get install -y postgresql" in said


def test_an_override_counts_as_present(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    module, chromium, _ = packages(tmp_path)
    monkeypatch.setenv("GG_CHROMIUM", "/opt/chrome")
    assert module.ensure_packages([chromium], is_root=False, apt_get=None, run=lambda c, **_: 1)


def test_a_failed_install_is_said(tmp_path: Path, capsys):
    module, chromium, postgresql = packages(tmp_path)
    found = module.ensure_packages(
        [chromium, postgresql], is_root=True, apt_get="apt-get", run=lambda c, **_: 100
    )
    assert not found
    said = capsys.readouterr().err
    assert "installing chromium failed" in said and "installing postgresql failed" in said
