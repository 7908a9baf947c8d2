"""Host side of the path attack cases (shared/cases/attacks 029-035, 088) against `files` and
`views`: nothing outside the workspace is read, written or revealed, refusals read the same for
existing and missing outside paths, and every call ends promptly."""

from __future__ import annotations

import contextlib
import os
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.wall_bounds import STOPPED_WITHIN_SECS

from .canary import Canary, assert_outside_unchanged, assert_refused_without_leaks


def test_029_reads_by_traversal_absolute_tilde_proc_url_and_nul_paths_are_refused(case: Canary) -> None:
    paths = [
        "../outside/secret.txt",
        "../../../../../../../../etc/passwd",
        "/etc/passwd",
        "./../outside/secret.txt",
        "sub/../../outside/secret.txt",
        "sub/./../.././outside/secret.txt",
        "sub//..//..//outside/secret.txt",
        "@@WS@@/../outside/secret.txt",
        "@@OUTSIDE@@/secret.txt",
        "//etc/passwd",
        "/./etc/passwd",
        "/etc/../etc/passwd",
        "..\\outside\\secret.txt",
        "sub\\..\\..\\outside\\secret.txt",
        "file:///etc/passwd",
        "file:../outside/secret.txt",
        "~/.ssh/id_ed25519",
        "~root/.ssh/id_ed25519",
        "@@HOME@@/.ssh/id_ed25519",
        "../home/.ssh/id_ed25519",
        "$HOME/.ssh/id_ed25519",
        "${HOME}/.ssh/id_ed25519",
        "../outside/*",
        "../outside/secret.txt/.",
        "/proc/self/environ",
        "/proc/self/cmdline",
        "/proc/self/cwd/../outside/secret.txt",
        "/proc/self/root/etc/passwd",
        "/dev/stdin",
        "/dev/fd/0",
        "notes.txt\0../../etc/passwd",
        "../outside/secret.txt\0",
        "\0/etc/passwd",
        "notes.txt\0",
        "\0",
        "..",
        "../",
        "",
        " ../outside/secret.txt",
        "../outside/secret.txt ",
        "..%2foutside%2fsecret.txt",
        "%2e%2e/outside/secret.txt",
    ]
    started = time.perf_counter()
    assert_refused_without_leaks(case, "files.read_file", paths)
    assert_refused_without_leaks(
        case, "views.open_file", ["/etc/passwd", "../outside/secret.txt", "notes.txt\0x"]
    )
    assert time.perf_counter() - started < STOPPED_WITHIN_SECS
    assert len(case.scope.views) == 0
    for nul_path in ["notes.txt\0../../etc/passwd", "\0"]:
        assert case.attempt("files.read_file", path=nul_path).code == "invalid-argument"


def test_030_reads_writes_edits_and_listings_outside_are_refused_and_change_nothing(case: Canary) -> None:
    before = case.outside_state()
    reads = [
        "../outside/secret.txt",
        "/etc/passwd",
        "@@HOME@@/.ssh/id_ed25519",
        "/proc/self/environ",
        "\0",
        "..",
    ]
    assert_refused_without_leaks(case, "files.read_file", reads)
    writes = [
        "../outside/pwned-py.txt",
        "@@OUTSIDE@@/pwned-py-abs.txt",
        "/tmp/gg-pwned-py.txt",
        "sub/../../outside/pwned-py-2.txt",
        "../newdir-py/deep/pwned.txt",
        "@@HOME@@/.ssh/authorized_keys",
        "x\0../../outside/pwned-nul.txt",
    ]
    assert_refused_without_leaks(case, "files.write_file", writes, contents="pwned\n")
    assert_refused_without_leaks(
        case, "files.edit_file", ["../outside/secret.txt"], oldString="CANARY", newString="PWNED"
    )
    assert_refused_without_leaks(case, "files.list_dir", ["..", "/", "../outside", "/etc", "@@HOME@@/.ssh"])
    assert_outside_unchanged(case, before)
    assert not (case.root / "newdir-py").exists()


def test_030_and_088_refusals_cannot_tell_an_existing_outside_path_from_a_missing_one(case: Canary) -> None:
    pairs = [
        ("../outside/secret.txt", "../outside/absent.txt"),
        ("/etc/passwd", "/etc/absent-gg-file"),
        ("@@HOME@@/.ssh/id_ed25519", "@@HOME@@/.ssh/id_rsa"),
        ("../outside", "../absent-dir"),
        ("/proc/self/environ", "/proc/self/absent"),
    ]
    case.link("ws/present", "../outside/secret.txt")
    case.link("ws/absent", "../outside/absent.txt")
    pairs.append(("present", "absent"))
    for wire in ("files.read_file", "files.list_dir", "files.write_file", "views.open_file"):
        extra = {"contents": "x"} if wire == "files.write_file" else {}
        for present, absent in pairs:
            shapes = [case.attempt(wire, path=p, **extra).shape(case.sub(p)) for p in (present, absent)]
            assert shapes[0] == shapes[1], (wire, shapes)


def _median_refusal_secs(case: Canary, path: str) -> float:
    times: list[float] = []
    for _ in range(200):
        started = time.perf_counter()
        case.attempt("files.read_file", path=path)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def test_088_refusal_latency_does_not_depend_on_whether_the_outside_path_exists(case: Canary) -> None:
    pairs = [("../outside/secret.txt", "../outside/absent.txt"), ("/etc/passwd", "/etc/absent-gg-file")]
    for present, absent in pairs:
        medians = sorted([_median_refusal_secs(case, present), _median_refusal_secs(case, absent)])
        assert medians[1] - medians[0] < max(0.0001, 0.2 * medians[1]), (present, medians)


def test_031_writes_edits_and_listings_outside_create_nothing_not_even_a_directory(case: Canary) -> None:
    before = case.outside_state()
    writes = [
        "../outside/pwned-js.txt",
        "@@OUTSIDE@@/pwned-js-abs.txt",
        "/tmp/gg-pwned-js.txt",
        "sub/../../outside/pwned-js-2.txt",
        "../newdir-js/deep/pwned.txt",
        "@@HOME@@/.ssh/authorized_keys",
        "../home/.bashrc",
        "sub/../../ws-sibling/pwned.txt",
    ]
    assert_refused_without_leaks(case, "files.write_file", writes, contents="pwned\n")
    assert_refused_without_leaks(
        case, "files.edit_file", ["../outside/secret.txt"], oldString="CANARY", newString="PWNED"
    )
    assert_refused_without_leaks(
        case, "files.edit_file", ["@@HOME@@/.bashrc"], oldString="export", newString="echo pwned; export"
    )
    assert_refused_without_leaks(case, "files.list_dir", ["..", "/", "../outside", "/etc", "@@HOME@@/.ssh"])
    assert_refused_without_leaks(case, "views.open_file", ["/etc/passwd", "../outside/secret.txt"])
    assert_outside_unchanged(case, before)
    assert not (case.root / "newdir-js").exists()


FILE_SYSTEM_CALLS = ("open", "stat", "lstat", "fstat", "scandir", "listdir", "readlink", "mkdir")


@contextlib.contextmanager
def file_system_touches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The file-system calls this thread makes inside the block (other threads are not counted)."""
    touched: list[str] = []
    thread = threading.get_ident()
    for name in FILE_SYSTEM_CALLS:
        real = getattr(os, name)

        def trap(*args: Any, _name: str = name, _real: Any = real, **kwargs: Any) -> Any:
            if threading.get_ident() == thread:
                touched.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(os, name, trap)
    try:
        yield touched
    finally:
        monkeypatch.undo()


def test_032_long_and_deep_paths_are_refused_before_the_file_system_is_touched_and_never_lead_out(
    case: Canary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolving a path costs time with its component count (the case measured 2.4 s at 131072
    components), so a call ends promptly because an over-long path is refused on its bounds
    alone, before anything resolves it."""
    before = case.outside_state()
    calls: list[tuple[str, dict[str, Any]]] = [
        ("files.read_file", {"path": "a/" * (512 * 1024) + "x"}),
        ("files.read_file", {"path": "z" * (10 * 1024 * 1024)}),
        ("files.read_file", {"path": "x" * 300}),
        ("files.read_file", {"path": "y" * 5000 + ".txt"}),
        ("files.read_file", {"path": "../" * 1000 + "etc/passwd"}),
        ("files.read_file", {"path": "a/" * 3000 + "../" * 3001 + "outside/secret.txt"}),
        (
            "files.write_file",
            {"path": "b/" * 3000 + "../" * 3001 + "outside/pwned-long.txt", "contents": "x"},
        ),
        ("files.write_file", {"path": "d/" * 20000 + "f.txt", "contents": "x"}),
        ("files.write_file", {"path": "e/" * 2000 + "f.txt", "contents": "x"}),
        ("files.list_dir", {"path": "a/" * 5000}),
        ("views.open_file", {"path": "q" * 100000}),
    ]
    with file_system_touches(monkeypatch) as touched:
        assert case.attempt("files.read_file", path="notes.txt").error is None
    assert touched, "a path within bounds is resolved on the file system"
    for wire, args in calls:
        with file_system_touches(monkeypatch) as touched:
            outcome = case.attempt(wire, **args)
        assert touched == [], wire
        assert outcome.code in {"invalid-argument", "not-found", "limit-exceeded"}
        assert outcome.error is not None and len(outcome.error.message) < 400
    assert not (case.root / "outside" / "pwned-long.txt").exists()
    assert not (case.ws / "d").exists() and not (case.ws / "e").exists()
    assert_outside_unchanged(case, before)


def test_033_unicode_look_alikes_are_literal_names_and_writes_stay_inside(case: Canary) -> None:
    variants = [
        "\uff0e\uff0e\uff0foutside\uff0fsecret.txt",
        "\uff0e\uff0e/outside/secret.txt",
        "\u2024\u2024/outside/secret.txt",
        "\u2025/outside/secret.txt",
        "\ufe52\ufe52/outside/secret.txt",
        "..\u2215outside\u2215secret.txt",
        "..\u2044outside\u2044secret.txt",
        "..\u29f8outside\u29f8secret.txt",
        ".\u0338./outside/secret.txt",
        ".\u200b./outside/secret.txt",
        "..\u200d/outside/secret.txt",
        "..\u00ad/outside/secret.txt",
        "\ufeff../outside/secret.txt",
        "\u202e../outside/secret.txt",
        "../home/.ssh/id_ed25519",
        "\uff0fetc\uff0fpasswd",
        "%2e%2e%2foutside%2fsecret.txt",
        "%252e%252e%252foutside%252fsecret.txt",
        "\u00c0\u00ae\u00c0\u00ae/outside/secret.txt",
    ]
    assert_refused_without_leaks(case, "files.read_file", variants)
    case.attempt("files.write_file", path="\uff0e\uff0e\uff0foutside\uff0fpwned-unicode.txt", contents="x")
    case.attempt("files.write_file", path="\u2025/outside/pwned-unicode-2.txt", contents="x")
    names = {entry["name"] for entry in case.call("files.list_dir", path=".")}
    assert "\uff0e\uff0e\uff0foutside\uff0fpwned-unicode.txt" in names and "\u2025" in names
    assert sorted(p.name for p in (case.root / "outside").iterdir()) == [
        "canary-outside-listing-7c1e",
        "secret.txt",
    ]


def test_035_absolute_paths_inside_read_and_a_prefix_named_sibling_is_outside(case: Canary) -> None:
    for path in ["@@WS@@/notes.txt", "@@WS@@/sub/../notes.txt", "@@WS@@/../ws/notes.txt"]:
        assert case.call("files.read_file", path=path)["contents"] == "hello from the workspace\n"
    assert case.attempt("files.read_file", path="@@WS@@").code == "invalid-argument"
    outside = [
        "@@WS@@-sibling/secret.txt",
        "@@WS@@/../ws-sibling/secret.txt",
        "../ws-sibling/secret.txt",
        "@@WS@@//../outside/secret.txt",
        "@@ROOT@@/outside/secret.txt",
        "@@ROOT@@",
        "@@WS@@/./../ws-sibling/./secret.txt",
    ]
    assert_refused_without_leaks(case, "files.read_file", outside)
    assert_refused_without_leaks(case, "files.write_file", ["@@WS@@-sibling/pwned.txt"], contents="x")
    assert_refused_without_leaks(case, "files.list_dir", ["@@WS@@-sibling", "@@ROOT@@"])
    assert not (case.root / "ws-sibling" / "pwned.txt").exists()
