"""A long query at the console, over real uvicorn on loopback: the Query page's form sends it by
POST and it is answered whatever its length up to 8 MiB; a short one is sent on to its link; an
address too long to read (a 3 MB `?sql=`) is answered 414 saying what to do, never a dropped
connection; the Host check (421) and the read-only store stand."""

from __future__ import annotations

import hashlib
import socket
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import httpx2 as httpx

from console.browser import served

COUNT = "SELECT COUNT(*) AS n FROM runs"
LONG = f"/* {'x' * 3_000_000} */ {COUNT}"  # 3 MB of query: a pasted IN list, a long comment


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _exchange(base: str, request: bytes) -> bytes:
    """`request` sent whole over one loopback connection, then all the console answers until it
    closes the connection (a reset under the answer raises)."""
    with socket.create_connection(("127.0.0.1", urlparse(base).port or 0), timeout=30) as client:
        client.sendall(request)
        received = b""
        while chunk := client.recv(65536):
            received += chunk
    return received


def test_a_3_mb_address_is_answered_414_saying_to_use_the_form(example_store: Path) -> None:
    target = f"/query?{urlencode({'sql': LONG})}"
    with served(example_store) as base:
        received = _exchange(base, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 414 ")
    assert b"content-security-policy: default-src 'none'" in head.lower()
    assert body.decode() == (
        "This address is too long for the console (its request line is over 64 KiB). A long query"
        " goes in the Query page's form, which sends it in the request's body: open /query, paste"
        " the query there and press Run.\n"
    )


def test_headers_still_unended_past_64_kib_are_answered_431(example_store: Path) -> None:
    with served(example_store) as base:  # the head never ends: the console answers at 64 KiB
        unended = f"GET /query HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'p' * 70_000}"
        received = _exchange(base, unended.encode())
    assert received.startswith(b"HTTP/1.1 431 ")
    assert received.endswith(b"This request's headers are over 64 KiB; the console reads no more.\n")


def test_an_address_under_64_kib_is_answered(example_store: Path) -> None:
    with served(example_store) as base:
        answer = httpx.get(f"{base}/query", params={"sql": f"/* {'x' * 50_000} */ {COUNT}"}, timeout=30)
    assert answer.status_code == 200 and '<td class="num">1</td>' in answer.text


def test_a_3_mb_query_sent_by_the_form_is_answered_without_a_link(example_store: Path) -> None:
    before = _digest(example_store)
    with served(example_store) as base:
        answer = httpx.post(f"{base}/query", data={"sql": LONG, "chart": ""}, timeout=60)
    assert answer.status_code == 200, answer.text[:500]
    assert '<td class="num">1</td>' in answer.text
    assert "This query is too long to share as a link; share its text." in answer.text
    assert 'class="share" href' not in answer.text
    assert _digest(example_store) == before


def test_a_short_query_sent_by_the_form_is_sent_on_to_its_link(example_store: Path) -> None:
    with served(example_store) as base:
        sent = httpx.post(f"{base}/query", data={"sql": COUNT, "chart": "n", "label": ""}, timeout=30)
        assert sent.status_code == 303
        link = sent.headers["location"]
        assert link.startswith("/query?")
        assert parse_qs(urlparse(link).query) == {"sql": [COUNT], "chart": ["n"]}
        page = httpx.get(base + link, timeout=30)
    assert page.status_code == 200 and '<td class="num">1</td>' in page.text
    assert f'class="share" href="{base}{link}"' in page.text.replace("&amp;", "&")


def test_a_write_sent_by_the_form_is_refused_and_the_store_left_as_it_was(example_store: Path) -> None:
    before = _digest(example_store)
    with served(example_store) as base:
        answer = httpx.post(f"{base}/query", data={"sql": f"/* {'x' * 9000} */ DELETE FROM main.events"})
    assert answer.status_code == 400
    assert "gg query only reads, and this query would delete (events)" in answer.text
    assert _digest(example_store) == before


def test_a_form_over_8_mib_is_refused_413(example_store: Path) -> None:
    with served(example_store) as base:
        answer = httpx.post(f"{base}/query", data={"sql": "x" * (8 * 1024 * 1024 + 1)}, timeout=60)
    assert answer.status_code == 413
    assert "The query form holds more than 8 MiB; the console reads no more" in answer.text


def test_a_form_naming_another_host_is_refused_421(example_store: Path) -> None:
    with served(example_store) as base:
        answer = httpx.post(f"{base}/query", data={"sql": COUNT}, headers={"Host": "evil.example"})
    assert answer.status_code == 421
