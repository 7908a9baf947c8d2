"""A model behind an OpenAI-compatible Chat Completions endpoint, through the official SDK.

Serves OpenAI, OpenRouter and self-hosted servers (vLLM, Ollama, llama.cpp) alike: only the
base URL, the key and the name of the output-token cap differ. The SDK's own retries are off
(`max_retries=0`) so `retry.py` holds the only schedule; each attempt's outcome is a value
(`Reply` or `Failure`), and only `complete` raises, with the failure's `ModelError`. The pinned
tool choice and its fallback to `auto` are `tool_choice.py`'s.

Every request carries the run's session id as `prompt_cache_key`, so the provider's implicit
prompt cache is keyed to the run; OpenRouter also gets it as `session_id`, its sticky-routing key
that keeps a run's turns on one endpoint (a cache lives on one endpoint), and is asked to report
each reply's cost (`usage.include`). A reported cost is kept; otherwise `pricing.py` prices it
under the client's `price_id` (none: unpriced).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import openai

from gg.providers.base import LogFn, Reply, Request
from gg.providers.chat_wire import parse_reply, request_body, wire_tool_choice
from gg.providers.failures import FailedAttempt, Symptom, one_line, status_failure, timed_out
from gg.providers.pricing import priced
from gg.providers.retry import Retrier
from gg.providers.tool_choice import ToolChoice, ToolChoiceMemory, send_with_fallback

OPENROUTER = "openrouter"


class OpenAIClient:
    """One model on one endpoint. `sdk` must be built with `max_retries=0`."""

    def __init__(
        self,
        *,
        provider: str,
        model: str,
        sdk: openai.OpenAI,
        tool_choice_memory: ToolChoiceMemory,
        retrier: Retrier,
        log: LogFn,
        price_id: str | None = None,
        token_cap_field: str = "max_completion_tokens",
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        session_id: str | None = None,
    ) -> None:
        self._provider = provider
        self._model = model
        self._sdk = sdk
        self._memory = tool_choice_memory
        self._retrier = retrier
        self._log = log
        self._price_id = price_id
        self._token_cap_field = token_cap_field
        self._max_output_tokens = max_output_tokens
        self._temperature = temperature
        self._extra_body = session_fields(provider, session_id)

    @property
    def model_id(self) -> str:
        return f"{self._provider}:{self._model}"

    def complete(self, request: Request) -> Reply:
        body = request_body(self._with_defaults(request), self._model, self._token_cap_field)

        def send(choice: ToolChoice) -> Reply | FailedAttempt:
            tool_choice = wire_tool_choice(choice, request.tool)
            return self._retrier.run(self.model_id, lambda secs: self._attempt(body, tool_choice, secs))

        return priced(self._price_id, send_with_fallback(self.model_id, send, self._memory, self._log))

    def next_tool_choice(self) -> ToolChoice:
        return self._memory.choice_for(self.model_id)

    def close(self) -> None:
        """Release the SDK's connections (not needed when the run injected its own HTTP client)."""
        self._sdk.close()

    def _with_defaults(self, request: Request) -> Request:
        """The request's own cap and temperature win; the client's fill what it left unset."""
        return replace(
            request,
            max_output_tokens=(
                request.max_output_tokens
                if request.max_output_tokens is not None
                else self._max_output_tokens
            ),
            temperature=request.temperature if request.temperature is not None else self._temperature,
        )

    def _attempt(
        self, body: dict[str, Any], tool_choice: str | dict[str, Any], secs: float
    ) -> Reply | FailedAttempt:
        """One request, given `secs` to answer."""
        wire: dict[str, Any] = {**body, "tool_choice": tool_choice}
        try:
            raw = self._sdk.chat.completions.with_raw_response.create(
                **wire, extra_body=self._extra_body, timeout=secs
            )
        except openai.APIStatusError as exc:
            return _status_failure(exc)
        except openai.APITimeoutError:
            return timed_out(secs)
        except openai.APIConnectionError as exc:
            return FailedAttempt(Symptom.CONNECTION_FAILED, f"could not reach the endpoint: {_cause(exc)}")
        return parse_reply(raw.http_response.text, self._model)


def session_fields(provider: str, session_id: str | None) -> dict[str, Any]:
    """The body fields that tie a request to its run (none without a session id)."""
    if session_id is None:
        return {}
    if provider == OPENROUTER:
        return {"prompt_cache_key": session_id, "session_id": session_id, "usage": {"include": True}}
    return {"prompt_cache_key": session_id}


def _status_failure(exc: openai.APIStatusError) -> FailedAttempt:
    text = exc.response.text
    return status_failure(exc.status_code, text, _provider_message(exc.body, text), exc.response.headers)


def _provider_message(body: object, text: str) -> str:
    """The provider's own words: `error.message` when the body has one, else the body itself."""
    if isinstance(body, dict):
        message = body.get("message")
        if isinstance(message, str) and message:
            return message
    return text or "(empty body)"


def _cause(exc: Exception) -> str:
    root = exc.__cause__ or exc
    return one_line(str(root) or type(root).__name__, 200)
