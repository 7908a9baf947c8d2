"""Bytes and codecs: `bytes` made from numbers and every codec but UTF-8, UTF-16, UTF-32 and ASCII
are missing from the engine, and the prompt's statement of the subset names them; the codecs it
names as there round-trip as in CPython."""

from __future__ import annotations

from montyworld import PYTHON, printed, raised, subset

from gg.sandbox.execution import Arm

pytestmark = PYTHON


def test_bytes_made_from_numbers_fail_in_the_engine_and_the_subset_names_them(arm: Arm) -> None:
    assert raised(arm, "print(repr(bytes([104, 105])))") == (
        "TypeError: cannot convert 'list' object to bytes"  # CPython: b'hi'
    )
    assert "`bytes` made from numbers (`bytes([104, 105])`)" in subset()


def test_the_latin_1_codec_is_unknown_to_the_engine_and_the_subset_names_it(arm: Arm) -> None:
    assert raised(arm, 'print(repr("é".encode("latin-1")))') == (
        "LookupError: unknown encoding: latin-1"  # CPython: b'\\xe9'
    )
    assert raised(arm, 'print(repr(b"\\xe9".decode("latin-1")))') == "LookupError: unknown encoding: latin-1"
    assert "every codec but UTF-8, UTF-16, UTF-32 and ASCII (no `latin-1`)" in subset()


def test_the_codecs_the_subset_names_as_there_give_cpythons_bytes(arm: Arm) -> None:
    source = (
        'print(repr("é".encode("utf-8")), repr("é".encode("utf-16-le")), repr("é".encode("utf-32-be")))\n'
        'print(repr("hi".encode("ascii")), repr(b"\\xc3\\xa9".decode("utf-8")), repr(bytes("hi", "utf-8")))\n'
        'print(repr(bytes.fromhex("6869")), repr(b"hi"[0]), repr(list(b"hi")))\n'
    )
    assert printed(arm, source) == [
        "b'\\xc3\\xa9' b'\\xe9\\x00' b'\\x00\\x00\\x00\\xe9'",
        "b'hi' 'é' b'hi'",
        "b'hi' 104 [104, 105]",
    ]
