"""The `files` operations: records, line paging, byte caps, images, writes, edits and listings."""

from __future__ import annotations

import os
import time
import tracemalloc

import pytest

from gg.errors import ErrorCode, OperationError
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.files import FILES_OPERATIONS
from gg.sdk.registry import Always, ParamType
from gg.sdk.writing import WRITING_OPERATIONS
from support.guest_world import QuietLog
from support.wall_bounds import STOPPED_WITHIN_SECS

from .canary import Canary

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
EMOJI = "\U0001f600"
FAMILY = (*FILES_OPERATIONS, *WRITING_OPERATIONS)


def _error(case: Canary, wire: str, **args: object) -> OperationError:
    outcome = case.attempt(wire, **args)
    assert outcome.error is not None, f"expected a refusal, got {outcome.value!r}"
    return outcome.error


def _reference_page(data: bytes, offset: int, limit: int | None) -> list[bytes]:
    lines = data.splitlines(keepends=True)
    return lines[offset : None if limit is None else offset + limit]


# --- declarations --------------------------------------------------------------------------------


def test_every_files_operation_is_always_bound_and_declared_once_in_the_files_family() -> None:
    assert [op.key for op in FAMILY] == [
        "read_file",
        "read_text_file",
        "write_file",
        "edit_file",
    ]
    for op in FAMILY:
        assert op.family == "files" and op.gate == Always() and op.dispatches_tool
        assert op.summary and "\n" not in op.summary


def test_parameters_are_snake_case_and_travel_camel_case() -> None:
    by_key = {op.key: op for op in FAMILY}
    edit = by_key["edit_file"]
    assert [(p.name, p.wire, p.type, p.required) for p in edit.params] == [
        ("path", "path", ParamType.STRING, True),
        ("old_string", "oldString", ParamType.STRING, True),
        ("new_string", "newString", ParamType.STRING, True),
    ]
    read = by_key["read_file"]
    assert [(p.wire, p.type, p.required) for p in read.params] == [
        ("path", ParamType.STRING, True),
        ("offset", ParamType.U32, False),
        ("limit", ParamType.COUNT, False),
    ]
    assert {op.key: op.returns for op in FAMILY} == {
        "read_file": "FileRead",
        "read_text_file": "string",
        "write_file": "number",
        "edit_file": "void",
    }


# --- read_file -----------------------------------------------------------------------------------


def test_a_read_returns_the_whole_text_record(case: Canary) -> None:
    assert case.call("files.read_file", path="notes.txt") == {
        "kind": "text",
        "contents": "hello from the workspace\n",
        "firstLine": 1,
        "lastLine": 1,
        "totalLines": 1,
        "byteTruncated": False,
    }


def test_offset_skips_lines_and_limit_bounds_them(case: Canary) -> None:
    (case.ws / "five.txt").write_text("1\n2\n3\n4\n5")
    record = case.call("files.read_file", path="five.txt", offset=1, limit=2)
    assert (record["contents"], record["firstLine"], record["lastLine"], record["totalLines"]) == (
        "2\n3\n",
        2,
        3,
        5,
    )
    tail = case.call("files.read_file", path="five.txt", offset=3)
    assert (tail["contents"], tail["firstLine"], tail["lastLine"]) == ("4\n5", 4, 5)
    past = case.call("files.read_file", path="five.txt", offset=4, limit=100)
    assert (past["contents"], past["firstLine"], past["lastLine"]) == ("5", 5, 5)


def test_an_empty_file_reads_as_zero_lines(case: Canary) -> None:
    (case.ws / "empty.txt").write_bytes(b"")
    record = case.call("files.read_file", path="empty.txt")
    assert (record["contents"], record["firstLine"], record["lastLine"], record["totalLines"]) == (
        "",
        0,
        0,
        0,
    )


def test_an_offset_at_or_past_the_last_line_is_an_invalid_argument(case: Canary) -> None:
    (case.ws / "three.txt").write_text("a\nb\nc\n")
    error = _error(case, "files.read_file", path="three.txt", offset=3)
    assert (error.operation, error.code) == ("read_file", ErrorCode.INVALID_ARGUMENT)
    assert error.message == "`offset` 3 is past the end of `three.txt`, which has 3 lines"
    assert _error(case, "files.read_file", path="three.txt", offset=10).code is ErrorCode.INVALID_ARGUMENT
    (case.ws / "empty.txt").write_bytes(b"")
    assert _error(case, "files.read_file", path="empty.txt", offset=1).code is ErrorCode.INVALID_ARGUMENT


def test_a_zero_limit_is_refused_at_the_membrane_stating_the_range_it_checks(case: Canary) -> None:
    membrane = Membrane(default_registry(), case.scope, QuietLog(), "javascript")
    with pytest.raises(OperationError) as refused:
        membrane("files.read_file", {"path": "notes.txt", "limit": 0})
    assert (refused.value.code, refused.value.message) == (
        ErrorCode.INVALID_ARGUMENT,
        "`limit` must be a whole number from 1 to 4294967295, got int 0",
    )


def test_carriage_returns_stay_in_the_contents_and_lines_end_at_newlines(case: Canary) -> None:
    (case.ws / "crlf.txt").write_bytes(b"a\r\nb\r\n")
    record = case.call("files.read_file", path="crlf.txt", offset=1)
    assert (record["contents"], record["totalLines"]) == ("b\r\n", 2)


def test_bytes_that_are_not_utf8_read_as_replacement_characters(case: Canary) -> None:
    (case.ws / "latin1.txt").write_bytes(b"caf\xe9\n\xff\xfe")
    assert case.call("files.read_file", path="latin1.txt")["contents"] == "caf\ufffd\n\ufffd\ufffd"


def test_a_read_keeps_whole_lines_up_to_256_kib_and_says_it_was_cut(case: Canary) -> None:
    line = b"x" * 1023 + b"\n"
    (case.ws / "big.txt").write_bytes(line * 300)
    record = case.call("files.read_file", path="big.txt")
    assert len(record["contents"]) == 262_144
    assert (record["firstLine"], record["lastLine"], record["totalLines"], record["byteTruncated"]) == (
        1,
        256,
        300,
        True,
    )
    shifted = (b"y" * 10 + b"\n") + line * 300
    (case.ws / "shifted.txt").write_bytes(shifted)
    record = case.call("files.read_file", path="shifted.txt")
    assert record["lastLine"] == 256 and record["contents"].endswith("x\n")


def test_a_single_line_over_the_cap_is_cut_at_a_character_boundary(case: Canary) -> None:
    (case.ws / "wide.txt").write_text("x" * (262_144 - 2) + EMOJI * 3 + "\nnext\n")
    record = case.call("files.read_file", path="wide.txt")
    assert record["contents"] == "x" * (262_144 - 2)
    assert (record["firstLine"], record["lastLine"], record["byteTruncated"]) == (1, 1, True)


def test_pages_are_exact_across_scan_chunk_boundaries(case: Canary) -> None:
    lines = [(f"{n:07}-" + "z" * (n % 97)).encode() + b"\n" for n in range(40000)]
    data = b"".join(lines) + b"no newline at end"
    (case.ws / "long.txt").write_bytes(data)
    assert len(data) > 2 * 1024 * 1024
    for offset, limit in [
        (0, 3),
        (13000, 50),
        (19990, 20),
        (39999, None),
        (40000, 1),
        (25000, 2000),
        (100, None),
        (30000, 9000),
    ]:
        record = case.call("files.read_file", path="long.txt", offset=offset, limit=limit)
        expected = b"".join(_reference_page(data, offset, limit))
        shown = record["contents"].encode()
        assert record["byteTruncated"] is (len(expected) > 262_144)
        if record["byteTruncated"]:
            assert expected.startswith(shown) and shown.endswith(b"\n")
            assert len(shown) > 262_144 - 200
        else:
            assert shown == expected
        assert (record["totalLines"], record["firstLine"]) == (40001, offset + 1)
        assert record["lastLine"] == offset + len(shown.splitlines())


def test_a_file_over_256_mib_is_refused_without_being_read(case: Canary) -> None:
    with open(case.ws / "sparse.bin", "wb") as sparse:
        sparse.truncate(268_435_456 + 1)
    tracemalloc.start()
    try:
        error = _error(case, "files.read_file", path="sparse.bin")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, peak  # none of its 256 MiB was read
    assert (error.code, error.message) == (
        ErrorCode.LIMIT_EXCEEDED,
        "`sparse.bin` is 268435457 bytes; a read scans at most 268435456 bytes",
    )


@pytest.mark.parametrize(
    ("head", "media_type"),
    [
        (PNG, "image/png"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 20, "image/jpeg"),
        (b"GIF89a" + b"\x00" * 20, "image/gif"),
        (b"GIF87a" + b"\x00" * 20, "image/gif"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 20, "image/webp"),
    ],
)
def test_images_are_told_by_their_first_bytes_and_described_not_shown(
    case: Canary, head: bytes, media_type: str
) -> None:
    (case.ws / "picture.dat").write_bytes(head)
    assert case.call("files.read_file", path="./picture.dat", offset=5) == {
        "kind": "image",
        "mediaType": media_type,
        "label": "picture.dat",
        "bytes": len(head),
        "shown": False,
        "notShownReason": "this harness does not attach images to the model's input",
    }


def test_a_text_file_named_like_an_image_reads_as_text(case: Canary) -> None:
    (case.ws / "fake.png").write_text("RIFF but not webp\n")
    assert case.call("files.read_file", path="fake.png")["kind"] == "text"


def test_an_image_over_8_mib_says_so_in_its_reason(case: Canary) -> None:
    (case.ws / "huge.png").write_bytes(PNG + b"\x00" * (8 * 1024 * 1024))
    record = case.call("files.read_file", path="huge.png")
    assert (
        record["notShownReason"] == f"the image is {record['bytes']} bytes, over the 8388608-byte image cap"
    )


def test_read_text_file_returns_the_contents_and_refuses_an_image(case: Canary) -> None:
    assert case.call("files.read_text_file", path="sub/inner.txt") == "inner file\n"
    (case.ws / "p.png").write_bytes(PNG)
    error = _error(case, "files.read_text_file", path="p.png")
    assert (error.operation, error.code, error.message) == (
        "read_text_file",
        ErrorCode.INVALID_ARGUMENT,
        "`p.png` is an image (image/png), not text",
    )


def test_read_refusals_name_the_operation_and_the_path(case: Canary) -> None:
    assert _error(case, "files.read_file", path="").to_wire() == {
        "operation": "read_file",
        "code": "invalid-argument",
        "message": "`path` is empty",
    }
    assert _error(case, "files.read_file", path="nope.md").to_wire() == {
        "operation": "read_file",
        "code": "not-found",
        "message": "`nope.md` does not exist",
    }
    assert _error(case, "files.read_text_file", path="sub").to_wire() == {
        "operation": "read_text_file",
        "code": "invalid-argument",
        "message": "`sub` is a directory",
    }


def test_a_fifo_or_a_link_to_dev_zero_never_blocks_a_read(case: Canary) -> None:
    os.mkfifo(case.ws / "pipe")
    (case.ws / "zero").symlink_to("/dev/zero")
    started = time.perf_counter()
    assert _error(case, "files.read_file", path="pipe").code is ErrorCode.INVALID_ARGUMENT
    assert _error(case, "files.read_file", path="zero", limit=5).code is ErrorCode.INVALID_ARGUMENT
    assert time.perf_counter() - started < STOPPED_WITHIN_SECS  # a FIFO or /dev/zero read never ends


# --- write_file ----------------------------------------------------------------------------------


def test_a_write_returns_the_utf8_bytes_written_and_creates_parents(case: Canary) -> None:
    assert case.call("files.write_file", path="new/dir/f.txt", contents=f"é{EMOJI}") == 6
    assert (case.ws / "new" / "dir" / "f.txt").read_text() == f"é{EMOJI}"


def test_a_write_replaces_the_whole_file(case: Canary) -> None:
    case.call("files.write_file", path="notes.txt", contents="short")
    assert (case.ws / "notes.txt").read_text() == "short"


def test_lone_surrogates_in_written_contents_become_replacement_characters(case: Canary) -> None:
    assert case.call("files.write_file", path="body.txt", contents="a\ud800b") == 5
    assert case.call("files.read_text_file", path="body.txt") == "a\ufffdb"


def test_a_write_over_8_mib_is_refused_and_writes_nothing(case: Canary) -> None:
    error = _error(case, "files.write_file", path="big.txt", contents="é" * (8_388_608 // 2 + 1))
    assert (error.operation, error.code) == ("write_file", ErrorCode.LIMIT_EXCEEDED)
    assert error.message == "`contents` is 8388610 bytes, over the 8388608-byte cap"
    assert not (case.ws / "big.txt").exists()
    assert case.call("files.write_file", path="edge.txt", contents="x" * 8_388_608) == 8_388_608


def test_writing_to_a_directory_is_an_invalid_argument(case: Canary) -> None:
    assert _error(case, "files.write_file", path="sub", contents="x").message == "`sub` is a directory"


# --- edit_file -----------------------------------------------------------------------------------


def test_an_edit_replaces_the_single_occurrence(case: Canary) -> None:
    assert case.call("files.edit_file", path="notes.txt", oldString="from", newString="inside") is None
    assert (case.ws / "notes.txt").read_text() == "hello inside the workspace\n"


def test_an_edit_with_no_occurrence_is_not_found(case: Canary) -> None:
    error = _error(case, "files.edit_file", path="notes.txt", oldString="absent", newString="x")
    assert (error.operation, error.code, error.message) == (
        "edit_file",
        ErrorCode.NOT_FOUND,
        "`oldString` does not occur in `notes.txt`",
    )


def test_an_edit_with_several_occurrences_is_a_conflict_naming_the_count(case: Canary) -> None:
    (case.ws / "rep.txt").write_text("ab ab ab\n")
    error = _error(case, "files.edit_file", path="rep.txt", oldString="ab", newString="x")
    assert (error.code, error.message) == (ErrorCode.CONFLICT, "`oldString` occurs 3 times in `rep.txt`")
    assert (case.ws / "rep.txt").read_text() == "ab ab ab\n"


def test_overlapping_occurrences_are_a_conflict(case: Canary) -> None:
    (case.ws / "aaa.txt").write_text("aaa")
    assert (
        _error(case, "files.edit_file", path="aaa.txt", oldString="aa", newString="b").code
        is ErrorCode.CONFLICT
    )


def test_an_empty_old_string_is_an_invalid_argument(case: Canary) -> None:
    error = _error(case, "files.edit_file", path="notes.txt", oldString="", newString="x")
    assert (error.code, error.message) == (ErrorCode.INVALID_ARGUMENT, "`oldString` is empty")


def test_an_edit_keeps_bytes_that_are_not_utf8_elsewhere_in_the_file(case: Canary) -> None:
    (case.ws / "mixed.bin").write_bytes(b"\xff\xfe key=1 \x80")
    case.call("files.edit_file", path="mixed.bin", oldString="key=1", newString="key=22")
    assert (case.ws / "mixed.bin").read_bytes() == b"\xff\xfe key=22 \x80"


def test_an_edit_that_shrinks_a_file_leaves_no_stale_tail(case: Canary) -> None:
    case.call("files.edit_file", path="notes.txt", oldString="hello from the workspace", newString="hi")
    assert (case.ws / "notes.txt").read_text() == "hi\n"


def test_an_edit_of_a_missing_file_is_not_found(case: Canary) -> None:
    assert (
        _error(case, "files.edit_file", path="nope", oldString="a", newString="b").code is ErrorCode.NOT_FOUND
    )
