"""The host places a jail shows, and the `/etc` it is given (built from a fake host `/etc`)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gg.sandbox.jail.layout import discover_layout, made_up_files
from gg.sandbox.jail.policy import JailPolicy


def _host_etc(root: Path) -> Path:
    etc = root / "etc"
    for name, text in {
        "ld.so.cache": "cache",
        "nsswitch.conf": "hosts: files",
        "shadow": "root:CANARY-SHADOW:0:0",
        "passwd": "root:x:0:0:root:/root:/bin/bash",
        "resolv.conf": "nameserver 10.0.0.1",
        "ssl/openssl.cnf": "openssl",
        "ssl/private/host.key": "CANARY-KEY",
        "ssl/certs/ca.pem": "cert",
        "java-17-openjdk/jvm.cfg": "jvm",
    }.items():
        (etc / name).parent.mkdir(parents=True, exist_ok=True)
        (etc / name).write_text(text)
    (etc / "localtime").symlink_to("/usr/share/zoneinfo/Etc/UTC")
    (etc / "os-release").symlink_to(root / "release")
    (root / "release").write_text("ID=debian")
    return etc


def test_etc_holds_only_what_a_toolchain_reads(tmp_path: Path) -> None:
    layout = discover_layout(JailPolicy(tmp_path, 1 << 30), _host_etc(tmp_path))
    try:
        names = sorted(str(p.relative_to(layout.etc)) for p in layout.etc.rglob("*"))
        assert names == [
            "group", "hosts", "java-17-openjdk", "ld.so.cache", "localtime", "nsswitch.conf",
            "os-release", "passwd", "ssl", "ssl/certs", "ssl/openssl.cnf",
        ]  # fmt: skip
        assert layout.etc_binds == ("/etc/ssl/certs", "/etc/java-17-openjdk")
        assert not any("CANARY" in p.read_text() for p in layout.etc.rglob("*") if p.is_file())
    finally:
        shutil.rmtree(layout.etc)


def test_a_link_into_a_shown_directory_stays_a_link_and_any_other_is_copied(tmp_path: Path) -> None:
    layout = discover_layout(JailPolicy(tmp_path, 1 << 30), _host_etc(tmp_path))
    try:
        assert os.readlink(layout.etc / "localtime") == "/usr/share/zoneinfo/Etc/UTC"
        assert not (layout.etc / "os-release").is_symlink()
        assert (layout.etc / "os-release").read_text() == "ID=debian"
    finally:
        shutil.rmtree(layout.etc)


def test_a_shared_network_adds_the_resolvers_configuration(tmp_path: Path) -> None:
    layout = discover_layout(JailPolicy(tmp_path, 1 << 30, network=True), _host_etc(tmp_path))
    try:
        assert (layout.etc / "resolv.conf").read_text() == "nameserver 10.0.0.1"
    finally:
        shutil.rmtree(layout.etc)


def test_the_system_directories_are_bound_or_recreated_as_links() -> None:
    layout = discover_layout(JailPolicy(Path("/tmp"), 1 << 30))
    try:
        assert "/usr" in layout.binds
        for target, path in layout.links:
            assert os.readlink(path) == target
        for path in ("/bin", "/lib"):
            assert path in layout.binds or path in [link for _, link in layout.links]
    finally:
        shutil.rmtree(layout.etc)


def test_the_made_up_user_is_gg_with_the_hosts_ids_and_the_workspace_for_home(tmp_path: Path) -> None:
    files = made_up_files(JailPolicy(tmp_path, 1 << 30))
    assert files["passwd"] == f"gg:x:{os.getuid()}:{os.getgid()}:gg:{tmp_path}:/bin/sh\n"
    assert files["group"] == f"gg:x:{os.getgid()}:\n"
    assert files["hosts"] == "127.0.0.1\tlocalhost gg\n::1\tlocalhost gg\n"
