"""A provider endpoint on loopback, answering from a script.

`POST` to the server's one path (`/v1/chat/completions` by default; `/v1/messages` for the
Anthropic server) records the request (raw bytes, headers, parsed JSON) and answers with the next
scripted `Answer`: a real response body, an error body with its status, bytes as given, a body
cut short of its declared length, a body trickled out a byte at a time after its head (each byte
well within any read timeout, the whole past a deadline), or no answer at all (the connection is
dropped). Past the script's end it answers 500, so a test that under-scripts fails loudly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict[str, str])
    delay_secs: float = 0.0
    declared_length: int | None = None  # a Content-Length other than the body's: a truncated body
    drop: bool = False  # close the connection without answering
    trickle_secs: float = 0.0  # after the head, the body's bytes spread over this long


TRICKLE_GAP_SECS = 0.05  # between two trickled bytes


DROPPED = Answer(0, b"", drop=True)


def truncated(answer: Answer, keep: int) -> Answer:
    """`answer` declaring its full length but sending only its first `keep` bytes."""
    return Answer(answer.status, answer.body[:keep], answer.headers, declared_length=len(answer.body))


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.raw)


def completion(
    text: str | None = None,
    calls: list[tuple[str, str, str]] | None = None,
    *,
    finish_reason: str = "tool_calls",
    usage: dict[str, Any] | None = None,
    model: str = "test-model",
) -> Answer:
    """A 200 `chat.completion`; each call is `(id, name, arguments-as-sent)`."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
        ]
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
        "usage": usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    return json_answer(200, body)


def program_completion(program: str, call_id: str = "call_a") -> Answer:
    return completion(calls=[(call_id, "submit_program", json.dumps({"program": program}))])


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Answer:
    body = {"error": {"message": message, "type": "invalid_request_error", "code": status}}
    return json_answer(status, body, headers)


def json_answer(status: int, body: Any, headers: dict[str, str] | None = None) -> Answer:
    return Answer(status, json.dumps(body).encode(), {"Content-Type": "application/json", **(headers or {})})


Scripted = Answer | Callable[[Received], Answer]  # a function answers from what it received


class ChatServer:
    def __init__(self, path: str = "/v1/chat/completions", base_path: str = "/v1") -> None:
        self.path = path
        self._base_path = base_path
        self.received: list[Received] = []
        self._script: list[Scripted] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}{self._base_path}"

    def script(self, *answers: Scripted) -> None:
        with self._lock:
            self._script.extend(answers)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def answer_for(self, received: Received) -> Answer:
        with self._lock:
            self.received.append(received)
            if not self._script:
                return error(500, "the test scripted no answer for this request")
            answer = self._script.pop(0)
        return answer if isinstance(answer, Answer) else answer(received)


def _handler_for(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            if self.path != server.path:
                self.send_error(404)
                return
            answer = server.answer_for(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
            )
            if answer.delay_secs:
                time.sleep(answer.delay_secs)
            if answer.drop:
                self.close_connection = True
                return
            try:
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(answer.declared_length or len(answer.body)))
                self.end_headers()
                _write(self.wfile, answer)
                if answer.declared_length is not None:
                    self.close_connection = True
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def _write(out: Any, answer: Answer) -> None:
    """The body, trickled a byte at a time over `answer.trickle_secs` before the rest is sent."""
    body, ends = answer.body, time.monotonic() + answer.trickle_secs
    while body and time.monotonic() < ends:
        out.write(body[:1])
        out.flush()
        body = body[1:]
        time.sleep(TRICKLE_GAP_SECS)
    out.write(body)
