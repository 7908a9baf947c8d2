"""A Chat Completions endpoint on loopback, answering from a script.

`POST /v1/chat/completions` records the request (raw bytes, headers, parsed JSON) and answers
with the next scripted `Answer`: a real `chat.completion` body, an error body with its status, or
bytes as given. Past the script's end it answers 500, so a test that under-scripts fails loudly.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict[str, str])
    delay_secs: float = 0.0


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


class ChatServer:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self._script: list[Answer] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *answers: Answer) -> None:
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
            return self._script.pop(0)


def _handler_for(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            if self.path != "/v1/chat/completions":
                self.send_error(404)
                return
            answer = server.answer_for(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
            )
            if answer.delay_secs:
                time.sleep(answer.delay_secs)
            try:
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
