"""The bubblewrap command line a jail is built from, decided from the policy and the host layout."""

from __future__ import annotations

from pathlib import Path

from gg.sandbox.jail.arguments import command_arguments, hidden_under_shown, jail_arguments
from gg.sandbox.jail.layout import HostLayout
from gg.sandbox.jail.policy import JailPolicy

LAYOUT = HostLayout(
    binds=("/usr",),
    links=(("usr/bin", "/bin"), ("usr/lib", "/lib")),
    etc=Path("/tmp/gg-jail-etc-x"),
    etc_binds=("/etc/ssl/certs",),
)


def _pairs(arguments: list[str], option: str, width: int = 1) -> list[list[str]]:
    return [arguments[i + 1 : i + 1 + width] for i, arg in enumerate(arguments) if arg == option]


def test_a_jail_has_namespaces_of_its_own_no_capabilities_and_a_session_of_its_own(tmp_path: Path) -> None:
    arguments = jail_arguments(JailPolicy(tmp_path, 1 << 30), LAYOUT)
    for option in ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net"):
        assert option in arguments
    own = {"--unshare-cgroup-try", "--disable-userns", "--new-session", "--die-with-parent"}
    assert own <= set(arguments)
    assert _pairs(arguments, "--cap-drop") == [["ALL"]]
    assert "--share-net" not in arguments


def test_a_shared_network_is_the_one_namespace_a_jail_keeps(tmp_path: Path) -> None:
    alone = jail_arguments(JailPolicy(tmp_path, 1 << 30), LAYOUT)
    shared = jail_arguments(JailPolicy(tmp_path, 1 << 30, network=True), LAYOUT)
    assert "--unshare-net" not in shared
    assert [arg for arg in alone if arg != "--unshare-net"] == shared


def test_the_workspace_is_the_one_writable_bind_at_its_own_path_and_the_cwd(tmp_path: Path) -> None:
    arguments = jail_arguments(JailPolicy(tmp_path, 1 << 30), LAYOUT)
    assert _pairs(arguments, "--bind", 2) == [[str(tmp_path), str(tmp_path)]]
    assert arguments[-4:] == ["--remount-ro", "/", "--chdir", str(tmp_path)]


def test_the_host_is_shown_read_only_with_the_jails_own_etc(tmp_path: Path) -> None:
    arguments = jail_arguments(JailPolicy(tmp_path, 1 << 30), LAYOUT)
    assert _pairs(arguments, "--ro-bind", 2) == [
        ["/usr", "/usr"],
        ["/tmp/gg-jail-etc-x", "/etc"],
        ["/etc/ssl/certs", "/etc/ssl/certs"],
        ["/proc/sys", "/proc/sys"],
    ]
    assert _pairs(arguments, "--symlink", 2) == [["usr/bin", "/bin"], ["usr/lib", "/lib"]]
    assert _pairs(arguments, "--proc") == [["/proc"]] and _pairs(arguments, "--dev") == [["/dev"]]


def test_tmp_and_dev_shm_are_private_and_as_large_as_the_memory_bound(tmp_path: Path) -> None:
    arguments = jail_arguments(JailPolicy(tmp_path, 123_456_789), LAYOUT)
    sized = [arguments[i + 1 : i + 4] for i, arg in enumerate(arguments) if arg == "--size"]
    assert sized == [["123456789", "--tmpfs", "/dev/shm"], ["123456789", "--tmpfs", "/tmp"]]


def test_the_environment_is_cleared_then_set_to_path_home_and_lang(tmp_path: Path) -> None:
    arguments = jail_arguments(JailPolicy(tmp_path, 1 << 30), LAYOUT)
    assert "--clearenv" in arguments
    assert _pairs(arguments, "--setenv", 2) == [
        ["PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
        ["HOME", str(tmp_path)],
        ["LANG", "C.UTF-8"],
    ]


def test_hidden_folders_under_a_shown_place_are_covered_read_only(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / ".venv").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    hidden = (workspace / ".venv", tmp_path / "elsewhere", tmp_path / "missing", tmp_path)
    policy = JailPolicy(workspace, 1 << 30, hidden=hidden)
    assert hidden_under_shown(policy, LAYOUT) == [str(workspace / ".venv")]
    arguments = jail_arguments(policy, LAYOUT)
    at = arguments.index("--tmpfs", arguments.index("--bind"))
    venv = str(workspace / ".venv")
    assert arguments[at : at + 4] == ["--tmpfs", venv, "--remount-ro", venv]


def test_the_command_runs_verbatim_in_bin_sh_once_gg_says_so() -> None:
    wait = 'read -r go || exit 125; exec /bin/sh -c "$1" </dev/null'
    assert command_arguments("make test | tail") == ["--", "/bin/sh", "-c", wait, "sh", "make test | tail"]


def test_read_only_places_are_bound_read_only_at_their_own_paths_after_tmp(tmp_path: Path) -> None:
    study = tmp_path / "study"
    workspace = tmp_path / "ws"
    arguments = jail_arguments(JailPolicy(workspace, 1 << 30, read_only=(study,)), LAYOUT)
    assert _granted(arguments) == [
        ["--bind", str(workspace), str(workspace)],
        ["--ro-bind", str(study), str(study)],
    ]


def test_the_workspace_and_read_only_places_are_bound_parents_first(tmp_path: Path) -> None:
    study, workspace = tmp_path / "study", tmp_path / "study" / "cells" / "ws"
    inside = workspace / "fixtures"
    policy = JailPolicy(workspace, 1 << 30, read_only=(inside, study))
    assert _granted(jail_arguments(policy, LAYOUT)) == [
        ["--ro-bind", str(study), str(study)],
        ["--bind", str(workspace), str(workspace)],
        ["--ro-bind", str(inside), str(inside)],
    ]


def _granted(arguments: list[str]) -> list[list[str]]:
    """The binds between the private `/tmp` and the first remount after it."""
    start = arguments.index("/tmp") + 1
    end = arguments.index("--remount-ro", start)
    return [arguments[i : i + 3] for i in range(start, end, 3)]


def test_a_policys_variables_follow_the_fixed_three(tmp_path: Path) -> None:
    policy = JailPolicy(tmp_path, 1 << 30, variables=(("GG_STUDY_DIR", "/studies/arms"),))
    assert _pairs(jail_arguments(policy, LAYOUT), "--setenv", 2)[-1] == ["GG_STUDY_DIR", "/studies/arms"]


def test_hidden_folders_under_a_read_only_place_are_covered(tmp_path: Path) -> None:
    study = tmp_path / "study"
    (study / ".gg").mkdir(parents=True)
    policy = JailPolicy(tmp_path / "ws", 1 << 30, hidden=(study / ".gg",), read_only=(study,))
    assert hidden_under_shown(policy, LAYOUT) == [str((study / ".gg").resolve())]
