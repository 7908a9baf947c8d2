"""A Claude model behind Anthropic's Messages API, through the official SDK (sync).

The SDK's own retries are off (`max_retries=0`) so `retry.py` holds the only schedule; each
attempt's outcome is a value (`Reply` or `Failure`), and only `complete` raises, with the
failure's `ModelError`. The pinned tool choice and its fallback to `auto` are `tool_choice.py`'s;
the wire, cache points included, is `anthropic_wire.py`'s. Every reply and every charged failure
is priced with `pricing.cost_of` under the client's `price_id` (none: unpriced). The client
remembers the replies that held thinking, so their turns go back to the API as they came.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import anthropic

from gg.providers.anthropic_wire import (
    DEFAULT_CACHE_LIFETIME,
    TurnKey,
    parse_reply,
    request_body,
    thinking_turn,
    turn_key,
    wire_tool_choice,
)
from gg.providers.base import LogFn, Reply, Request
from gg.providers.failures import FailedAttempt, Symptom, one_line, status_failure, timed_out
from gg.providers.pricing import priced
from gg.providers.retry import Retrier
from gg.providers.tool_choice import ToolChoice, ToolChoiceMemory, send_with_fallback

PROVIDER = "anthropic"
DEFAULT_MAX_OUTPUT_TOKENS = 8192  # the API requires a cap; a binding's `maxOutputTokens` replaces it
# Fields every SDK version takes by name; the rest (`temperature`, which newer SDKs no longer
# name) go as extra body fields, on the wire all the same.
_SDK_FIELDS = frozenset({"model", "max_tokens", "system", "tools", "messages"})


class AnthropicClient:
    """One Claude model. `sdk` must be built with `max_retries=0`."""

    def __init__(
        self,
        *,
        model: str,
        sdk: anthropic.Anthropic,
        tool_choice_memory: ToolChoiceMemory,
        retrier: Retrier,
        log: LogFn,
        price_id: str | None = None,
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        cache_lifetime: str = DEFAULT_CACHE_LIFETIME,
    ) -> None:
        self._model = model
        self._sdk = sdk
        self._memory = tool_choice_memory
        self._retrier = retrier
        self._log = log
        self._price_id = price_id
        self._max_output_tokens = max_output_tokens or DEFAULT_MAX_OUTPUT_TOKENS
        self._temperature = temperature
        self._cache_lifetime = cache_lifetime
        self._thoughts: dict[TurnKey, tuple[dict[str, Any], ...]] = {}  # turns that held thinking

    @property
    def model_id(self) -> str:
        return f"{PROVIDER}:{self._model}"

    def complete(self, request: Request) -> Reply:
        temperature = request.temperature if request.temperature is not None else self._temperature
        body = request_body(
            replace(request, temperature=temperature),
            self._model,
            max_tokens=request.max_output_tokens or self._max_output_tokens,
            cache_lifetime=self._cache_lifetime,
            thoughts=self._thoughts,
        )

        def send(choice: ToolChoice) -> Reply | FailedAttempt:
            tool_choice = wire_tool_choice(choice, request.tool)
            return self._retrier.run(self.model_id, lambda secs: self._attempt(body, tool_choice, secs))

        return priced(self._price_id, send_with_fallback(self.model_id, send, self._memory, self._log))

    def next_tool_choice(self) -> ToolChoice:
        return self._memory.choice_for(self.model_id)

    def close(self) -> None:
        """Release the SDK's connections (not needed when the run injected its own HTTP client)."""
        self._sdk.close()

    def _attempt(
        self, body: dict[str, Any], tool_choice: dict[str, Any], secs: float
    ) -> Reply | FailedAttempt:
        """One request, given `secs` to answer."""
        named = {k: v for k, v in body.items() if k in _SDK_FIELDS}
        extra = {k: v for k, v in body.items() if k not in _SDK_FIELDS}
        try:
            raw = self._sdk.messages.with_raw_response.create(
                **named, tool_choice=cast(Any, tool_choice), extra_body=extra or None, timeout=secs
            )
        except anthropic.APIStatusError as exc:
            return _status_failure(exc)
        except anthropic.APITimeoutError:
            return timed_out(secs)
        except anthropic.APIConnectionError as exc:
            return FailedAttempt(Symptom.CONNECTION_FAILED, f"could not reach the endpoint: {_cause(exc)}")
        text = raw.http_response.text
        reply = parse_reply(text, self._model)
        if isinstance(reply, Reply) and (blocks := thinking_turn(text)) is not None:
            self._thoughts[turn_key(reply.text, reply.calls)] = blocks
        return reply


def _status_failure(exc: anthropic.APIStatusError) -> FailedAttempt:
    text = exc.response.text
    message = exc.api_message or text or "(empty body)"
    return status_failure(exc.status_code, text, message, exc.response.headers)


def _cause(exc: Exception) -> str:
    root = exc.__cause__ or exc
    return one_line(str(root) or type(root).__name__, 200)
