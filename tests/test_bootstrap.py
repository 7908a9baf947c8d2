"""`bootstrap.py test` makes sure the console's browser tests have Debian's Chromium."""

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
    sys.modules["bootstrap_under_test"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GG_CHROMIUM", raising=False)


def test_a_present_chromium_installs_nothing(tmp_path: Path):
    chromium = tmp_path / "chromium"
    chromium.write_text("")
    calls: list[list[str]] = []
    assert bootstrap().ensure_chromium(
        chromium, is_root=True, apt_get="apt-get", run=lambda c, **_: calls.append(c) or 0
    )
    assert calls == []


def test_a_missing_chromium_is_installed_with_apt_get_as_root(tmp_path: Path):
    chromium = tmp_path / "chromium"
    calls: list[list[str]] = []

    def apt(command: list[str], **_: object) -> int:
        calls.append(command)
        if "install" in command:
            chromium.write_text("")
        return 0

    assert bootstrap().ensure_chromium(chromium, is_root=True, apt_get="/usr/bin/apt-get", run=apt)
    assert calls == [
        ["/usr/bin/apt-get", "update", "-qq"],
        ["/usr/bin/apt-get", "install", "-y", "-qq", "chromium"],
    ]


def test_without_root_it_says_how_to_get_chromium_and_installs_nothing(tmp_path: Path, capsys):
    calls: list[list[str]] = []
    found = bootstrap().ensure_chromium(
        tmp_path / "chromium", is_root=False, apt_get="apt-get", run=lambda c, **_: calls.append(c) or 0
    )
    assert not found and calls == []
    assert "apt-get install -y chromium" in capsys.readouterr().err


def test_a_failed_install_is_said(tmp_path: Path, capsys):
    found = bootstrap().ensure_chromium(
        tmp_path / "chromium", is_root=True, apt_get="apt-get", run=lambda c, **_: 100
    )
    assert not found
    assert "installing chromium failed" in capsys.readouterr().err
