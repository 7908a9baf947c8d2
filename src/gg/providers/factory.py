"""From a model's settings to its `ModelClient`.

| provider     | client         | base URL (default)             | key from (default)   |
|--------------|----------------|--------------------------------|----------------------|
| `replay`     | `ReplayClient` | —                              | — (needs a journal)  |
| `openai`     | `OpenAIClient` | `https://api.openai.com/v1`    | `OPENAI_API_KEY`     |
| `openrouter` | `OpenAIClient` | `https://openrouter.ai/api/v1` | `OPENROUTER_API_KEY` |

A self-hosted server (vLLM, Ollama, llama.cpp) is `openai` with its own `base_url`; it may run
without a key. OpenAI's own endpoint caps output with `max_completion_tokens`, every other one
with `max_tokens`. A setting that cannot work refuses the launch (`ConfigError`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import openai

from gg.errors import ConfigDefect, ConfigError
from gg.providers.base import LogFn, ModelClient
from gg.providers.openai_compatible import OpenAIClient
from gg.providers.replay import ReplayClient
from gg.providers.retry import Retrier
from gg.providers.tool_choice import ToolChoiceMemory

if TYPE_CHECKING:
    import httpx2

REQUEST_TIMEOUT_SECS = 300.0
_NO_KEY = "no-key"  # a self-hosted server that checks no key still needs a header value


@dataclass(frozen=True)
class _Endpoint:
    base_url: str
    api_key_env: str


_ENDPOINTS = {
    "openai": _Endpoint("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "openrouter": _Endpoint("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
}
PROVIDERS = ("replay", *_ENDPOINTS)


def build_client(
    *,
    provider: str,
    model: str | None,
    tool_choice_memory: ToolChoiceMemory,
    log: LogFn,
    base_url: str | None = None,
    api_key_env: str | None = None,
    max_output_tokens: int | None = None,
    temperature: float | None = None,
    journal_path: Path | None = None,
    http_client: httpx2.Client | None = None,
    retrier: Retrier | None = None,
    request_timeout_secs: float = REQUEST_TIMEOUT_SECS,
    environ: Mapping[str, str] | None = None,
) -> ModelClient:
    if provider == "replay":
        if journal_path is None:
            raise _refusal("journal", "absent", "the replay provider needs a journal file")
        return ReplayClient.open(journal_path)
    endpoint = _ENDPOINTS.get(provider)
    if endpoint is None:
        raise _refusal("provider", provider, f"must be one of {', '.join(PROVIDERS)}")
    if not model:
        raise _refusal("model", "absent", f"the {provider} provider needs a model name")
    sdk = _sdk(endpoint, base_url, api_key_env, environ, http_client, request_timeout_secs)
    return OpenAIClient(
        provider=provider,
        model=model,
        sdk=sdk,
        tool_choice_memory=tool_choice_memory,
        retrier=retrier or Retrier(log=log),
        log=log,
        token_cap_field=_token_cap_field(provider, base_url),
        max_output_tokens=max_output_tokens,
        temperature=temperature,
    )


def _sdk(
    endpoint: _Endpoint,
    base_url: str | None,
    api_key_env: str | None,
    environ: Mapping[str, str] | None,
    http_client: httpx2.Client | None,
    timeout_secs: float,
) -> openai.OpenAI:
    """The SDK client, its own retries off so `retry.py` holds the only schedule."""
    key = _api_key(
        api_key_env or endpoint.api_key_env,
        self_hosted=base_url not in (None, endpoint.base_url),
        environ=environ,
    )
    return openai.OpenAI(
        api_key=key,
        base_url=base_url or endpoint.base_url,
        max_retries=0,
        timeout=timeout_secs,
        http_client=http_client,
    )


def _api_key(name: str, *, self_hosted: bool, environ: Mapping[str, str] | None) -> str:
    key = (os.environ if environ is None else environ).get(name, "")
    if key:
        return key
    if self_hosted:
        return _NO_KEY
    raise _refusal("apiKeyEnv", name, "names an environment variable that is not set")


def _token_cap_field(provider: str, base_url: str | None) -> str:
    official = provider == "openai" and base_url in (None, _ENDPOINTS["openai"].base_url)
    return "max_completion_tokens" if official else "max_tokens"


def _refusal(key: str, found: str, reason: str) -> ConfigError:
    return ConfigError("model", [ConfigDefect(key, found, reason)])
