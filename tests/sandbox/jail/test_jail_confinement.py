"""What a jailed command can see and touch, on a real bubblewrap: the workspace alone is writable
(at its own path), the system is read-only, `/tmp` is private, the rest of the host is absent,
the environment is fixed, and the command has namespaces and a session of its own."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from jailworld import exited, jail_over, marker, sleeping

from gg.sandbox.jail import Jail
from support.waiting import wait_until
from support.wall_bounds import STOPPED_WITHIN_SECS


def run(jail: Jail, command: str) -> tuple[int, str]:
    end = exited(jail.run(command, 20.0))
    return end.exit_code, end.output.text


def test_a_command_runs_in_the_workspace_at_the_path_the_program_sees(jail: Jail, workspace: Path) -> None:
    code, output = run(jail, "pwd; cat notes.txt; echo made > made.txt; echo $HOME")
    assert code == 0
    assert output == f"{workspace}\nhello from the workspace\n{workspace}\n"
    assert (workspace / "made.txt").read_text() == "made\n"


def test_stdout_and_stderr_arrive_merged_in_the_order_written(jail: Jail) -> None:
    assert run(jail, "echo one; echo two >&2; echo three; echo four >&2") == (0, "one\ntwo\nthree\nfour\n")


def test_a_non_zero_exit_is_a_result(jail: Jail) -> None:
    assert run(jail, "echo failing; exit 3") == (3, "failing\n")
    assert run(jail, "kill -9 $$")[0] == 128 + 9


def test_the_system_directories_are_there_and_read_only(jail: Jail) -> None:
    for place in ("/usr", "/bin", "/lib", "/etc"):
        code, output = run(jail, f"ls {place} >/dev/null && touch {place}/gg-probe")
        assert code != 0 and "Read-only file system" in output, (place, output)
    assert run(jail, "touch /gg-probe")[0] != 0


def test_no_host_sysctl_can_be_written(jail: Jail) -> None:
    # Each write puts back the value already there, so a jail that let it through changes nothing.
    for name in ("vm/swappiness", "kernel/core_pattern"):
        code, output = run(jail, f"cat /proc/sys/{name} > /proc/sys/{name}")
        assert code != 0 and "Read-only file system" in output, (name, output)


def test_tmp_is_private_to_each_command(jail: Jail, tmp_path: Path) -> None:
    host_file = Path("/tmp") / f"gg-jail-host-{os.getpid()}"
    host_file.write_text("host")
    try:
        assert run(jail, f"test -e {host_file}")[0] == 1
        assert run(jail, "echo x > /tmp/left-behind && cat /tmp/left-behind") == (0, "x\n")
        assert run(jail, "test -e /tmp/left-behind")[0] == 1
        assert not Path("/tmp/left-behind").exists()
    finally:
        host_file.unlink()


def test_the_rest_of_the_host_is_absent(jail: Jail, tmp_path: Path) -> None:
    absent = ["/home", "/root", "/etc/shadow", "/etc/ssl/private", "/etc/sudoers", str(tmp_path / "outside")]
    absent += ["/sys", "/var", "/opt", "/srv", "/mnt", str(Path.cwd()), "/etc/hostname"]
    for place in absent:
        assert run(jail, f"test -e {place}")[0] == 1, place
    assert run(jail, f"cat {tmp_path}/outside/secret.txt")[0] != 0


def test_writes_outside_the_workspace_never_reach_the_host(jail: Jail, tmp_path: Path) -> None:
    run(jail, "echo x > ../escaped; echo x > /tmp/gg-pwned-jail")
    run(jail, "mkdir -p ../outside && echo x > ../outside/x")
    run(jail, "ln -s /tmp/gg-pwned-link link && echo x > link; ln -s ../outside/new out && echo x > out")
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "outside" / "x").exists()
    assert not Path("/tmp/gg-pwned-jail").exists() and not Path("/tmp/gg-pwned-link").exists()
    assert not (tmp_path / "outside" / "new").exists()
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["secret.txt"]


def test_the_made_up_etc_names_one_user_whose_home_is_the_workspace(jail: Jail, workspace: Path) -> None:
    code, output = run(jail, "cat /etc/passwd; id -un; hostname; cat /etc/hosts")
    assert code == 0
    lines = output.splitlines()
    assert lines[0] == f"gg:x:{os.getuid()}:{os.getgid()}:gg:{workspace}:/bin/sh"
    assert lines[1:3] == ["gg", "gg"]
    assert "127.0.0.1\tlocalhost gg" in lines


def test_a_toolchain_finds_its_loader_cache_and_certificates(jail: Jail) -> None:
    found = "test -s /etc/ld.so.cache && test -d /etc/ssl/certs && ls /etc/alternatives >/dev/null"
    assert run(jail, found)[0] == 0


def test_no_host_variable_reaches_a_command(jail: Jail, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GG_CANARY_ENV", "CANARY-ENV-51ac0e")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-CANARY-KEY-a7d2f9")
    code, output = run(jail, "env; cat /proc/1/environ | tr '\\0' '\\n'")
    assert code == 0 and "CANARY" not in output
    names = {line.split("=", 1)[0] for line in output.splitlines() if "=" in line}
    assert names <= {"PATH", "HOME", "LANG", "PWD"}, names
    assert {"PATH", "HOME", "LANG"} <= names


def test_a_command_has_its_own_pid_ipc_uts_net_user_and_mount_namespaces(jail: Jail) -> None:
    code, output = run(jail, "for ns in pid ipc uts net user mnt; do readlink /proc/self/ns/$ns; done")
    assert code == 0
    inside = output.splitlines()
    outside = [os.readlink(f"/proc/self/ns/{ns}") for ns in ("pid", "ipc", "uts", "net", "user", "mnt")]
    assert all(a != b for a, b in zip(inside, outside, strict=True)), (inside, outside)
    code, output = run(jail, "ls /proc | grep -c '^[0-9]'")
    assert code == 0 and int(output) <= 4  # the jail's pid 1, the shell and its pipeline


def test_no_process_in_the_jail_shows_the_jails_arguments(jail: Jail, workspace: Path) -> None:
    command = "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done"
    _, output = run(jail, command)
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    assert lines[0].startswith("bwrap --json-status-fd ") and lines[0].endswith(" sh " + command)
    assert not any("--bind" in line or "gg-jail-etc" in line or "site-packages" in line for line in lines)


def test_a_command_has_no_capabilities_and_cannot_make_namespaces(jail: Jail) -> None:
    _, output = run(jail, "grep CapEff /proc/self/status")
    assert output.split() == ["CapEff:", "0000000000000000"]
    assert run(jail, "unshare --user true")[0] != 0
    assert run(jail, "mount -t tmpfs none /tmp")[0] != 0


def test_a_command_runs_in_a_session_of_its_own_without_a_terminal(jail: Jail) -> None:
    sleep = marker()
    runner = threading.Thread(target=jail.run, args=(f"sleep {sleep}", 3.0))
    runner.start()
    try:
        pids = _wait_for(lambda: sleeping(sleep))
        fields = Path(f"/proc/{pids[0]}/stat").read_text().rsplit(")", 1)[1].split()
        session, terminal = int(fields[3]), int(fields[4])
        assert session != os.getsid(0) and terminal == 0
    finally:
        runner.join()
    assert "No such device or address" in run(jail, "( : </dev/tty ) 2>&1")[1]


def _wait_for(found: Callable[[], list[int]]) -> list[int]:
    wait_until(lambda: bool(found()), "the command's process", STOPPED_WITHIN_SECS)
    return found()


def test_hidden_folders_are_covered_where_the_jail_would_show_them(workspace: Path) -> None:
    (workspace / "harness" / "gg").mkdir(parents=True)
    (workspace / "harness" / "gg" / "membrane.py").write_text("CANARY-HARNESS\n")
    jail = jail_over(workspace, hidden=(workspace / "harness", Path("/nowhere")))
    code, output = run(jail, "ls -A harness; cat harness/gg/membrane.py; touch harness/x")
    assert code != 0 and "CANARY" not in output
    assert run(jail, "ls -A harness") == (0, "")
