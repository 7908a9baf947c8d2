"""Host side of the symlink attack cases (shared/cases/attacks 036, 037, 039): no read, write,
edit or listing follows a link out of the workspace, and loops end promptly."""

from __future__ import annotations

import time

from support.wall_bounds import STOPPED_WITHIN_SECS

from .canary import REFUSED, Canary, assert_outside_unchanged, assert_refused_without_leaks, leaks


def _link_036(case: Canary) -> None:
    links = {
        "ws/etc": "/etc",
        "ws/out": "../outside",
        "ws/outabs": "@@OUTSIDE@@",
        "ws/key": "@@HOME@@/.ssh/id_ed25519",
        "ws/passwd": "/etc/passwd",
        "ws/proc": "/proc/self",
        "ws/zero": "/dev/zero",
        "ws/sub/up": "../..",
        "ws/loop": "loop",
        "ws/ping": "pong",
        "ws/pong": "ping",
    }
    for path, target in links.items():
        case.link(path, target)


def test_036_links_to_etc_outside_proc_dev_zero_the_parent_and_loops_are_refused_promptly(
    case: Canary,
) -> None:
    _link_036(case)
    started = time.perf_counter()
    reads = [
        "etc/passwd",
        "out/secret.txt",
        "outabs/secret.txt",
        "key",
        "passwd",
        "proc/environ",
        "proc/cmdline",
        "proc/root/etc/passwd",
        "proc/cwd/notes.txt",
        "zero",
        "sub/up/outside/secret.txt",
        "sub/up/home/.ssh/id_ed25519",
        "loop",
        "ping",
        "loop/x",
    ]
    assert_refused_without_leaks(case, "files.read_file", reads)
    assert_refused_without_leaks(case, "views.open_file", ["key"])
    assert_refused_without_leaks(case, "files.read_file", ["zero"], limit=5)
    assert_refused_without_leaks(
        case, "files.list_dir", ["etc", "out", "outabs", "proc", "proc/fd", "sub/up", "sub/up/outside"]
    )
    assert time.perf_counter() - started < STOPPED_WITHIN_SECS  # /dev/zero or a loop would never end
    assert len(case.scope.views) == 0


def test_036_a_glob_matches_the_links_by_name_never_enters_them_and_refuses_walks_through_them(
    case: Canary,
) -> None:
    _link_036(case)
    matched = case.call("files.glob", pattern="**", limit=10_000)
    kinds = {match["path"]: match["kind"] for match in matched["matches"]}
    for link in ("etc", "out", "outabs", "key", "passwd", "proc", "zero", "sub/up", "loop", "ping", "pong"):
        assert kinds[link] == "other", link
    assert not any(path.startswith(("etc/", "out/", "outabs/", "proc/", "sub/up/")) for path in kinds)
    assert leaks(matched, case.root) == []
    for pattern in ("**/passwd", "**/secret.txt", "**/id_ed25519", "**/environ"):
        assert [m["path"] for m in case.call("files.glob", pattern=pattern)["matches"]] in ([], ["passwd"])
    walks = ["etc/*", "out/**", "outabs/*", "proc/*", "proc/fd/*", "sub/up/**", "loop/*", "ping/**"]
    for pattern in walks:
        outcome = case.attempt("files.glob", pattern=pattern)
        assert outcome.code in REFUSED, f"glob({pattern!r}) gave {outcome.value!r}"
        assert leaks(outcome.error, case.root, pattern) == []


def test_037_writes_and_edits_never_follow_a_link_out_dangling_or_not(case: Canary) -> None:
    links = {
        "ws/outdir": "../outside",
        "ws/victim.txt": "../outside/secret.txt",
        "ws/dangling": "../outside/created-by-guest.txt",
        "ws/danglingdir": "../outside/newdir",
        "ws/homessh": "@@HOME@@/.ssh",
        "ws/sub/bashrc": "../../home/.bashrc",
    }
    for path, target in links.items():
        case.link(path, target)
    before = case.outside_state()
    writes = [
        "outdir/pwned.txt",
        "outdir/../outdir/pwned2.txt",
        "victim.txt",
        "dangling",
        "danglingdir/x.txt",
        "homessh/authorized_keys",
    ]
    assert_refused_without_leaks(case, "files.write_file", writes, contents="pwned")
    assert_refused_without_leaks(
        case, "files.edit_file", ["victim.txt"], oldString="CANARY", newString="PWNED"
    )
    assert_refused_without_leaks(case, "files.edit_file", ["sub/bashrc"], oldString="export", newString="x")
    assert_outside_unchanged(case, before)
    kinds = {e["name"]: e["kind"] for e in case.call("files.list_dir", path=".")}
    assert kinds["victim.txt"] == "other" and kinds["dangling"] == "other"


def test_039_python_reads_writes_and_listings_through_links_reveal_nothing(case: Canary) -> None:
    for path, target in {
        "ws/passwd": "/etc/passwd",
        "ws/outdir": "../outside",
        "ws/dangling": "../outside/created-by-py.txt",
        "ws/loop": "loop",
        "ws/sub/up": "../..",
        "ws/key": "@@HOME@@/.ssh/id_ed25519",
    }.items():
        case.link(path, target)
    before = case.outside_state()
    assert_refused_without_leaks(
        case, "files.read_file", ["passwd", "outdir/secret.txt", "key", "loop", "sub/up/outside/secret.txt"]
    )
    assert_refused_without_leaks(case, "files.write_file", ["outdir/pwned.txt", "dangling"], contents="pwned")
    assert_refused_without_leaks(
        case, "files.edit_file", ["outdir/secret.txt"], oldString="CANARY", newString="P"
    )
    assert_refused_without_leaks(case, "files.list_dir", ["outdir", "sub/up"])
    listing = case.call("files.list_dir")
    assert leaks(listing, case.root) == []
    assert_outside_unchanged(case, before)
