"""From a model's settings to its `ModelClient`.

| provider     | client            | base URL (default)             | key from (default)   |
|--------------|-------------------|--------------------------------|----------------------|
| `replay`     | `ReplayClient`    | —                              | — (needs a journal)  |
| `openai`     | `OpenAIClient`    | `https://api.openai.com/v1`    | `OPENAI_API_KEY`     |
| `openrouter` | `OpenAIClient`    | `https://openrouter.ai/api/v1` | `OPENROUTER_API_KEY` |
| `anthropic`  | `AnthropicClient` | `https://api.anthropic.com`    | `ANTHROPIC_API_KEY`  |

The endpoint is the profile's `base_url` when it names one, else the one the provider's own SDK
reads from the environment (`OPENAI_BASE_URL` for `openai`, `ANTHROPIC_BASE_URL` for
`anthropic`; OpenRouter has none), else the default above (`endpoint_of` says which, and why).
A self-hosted server (vLLM, Ollama, llama.cpp) is `openai` at an endpoint of its own; any
endpoint but the default may run without a key. Replies are priced (`pricing.py`) under the
model's own id only at the provider's own endpoint (the default above, a trailing `/` aside): a
server elsewhere may answer a priced name with any model. A profile's `pricing` says what they
cost instead, naming a model of the price table (`gpt-4o`, of the same provider, or a whole
`openai:gpt-4o`); one the table does not list refuses the launch. OpenAI's own endpoint caps output with
`max_completion_tokens`, every other one with `max_tokens`. `session_id` (the run's id) keys the
provider's prompt cache; `cache_lifetime` (`5m` or `1h`) is read by the Anthropic client only,
the others caching implicitly. A setting that cannot work refuses the launch (`ConfigError`)
naming the key at fault. A provider's SDK is imported when a client for it is built, never
before: a command that runs no such model (`gg --version`, `gg show`, a replay) does not pay for
loading it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from gg.errors import ConfigDefect, ConfigError
from gg.providers.anthropic_wire import DEFAULT_CACHE_LIFETIME
from gg.providers.base import LogFn, ModelClient
from gg.providers.pricing import default_table
from gg.providers.replay import ReplayClient
from gg.providers.retry import Retrier
from gg.providers.tool_choice import ToolChoiceMemory

if TYPE_CHECKING:
    import httpx2

MODEL_REFERENCE = "PROVIDER:MODEL"
_NO_KEY = "no-key"  # a self-hosted server that checks no key still needs a header value


def parse_model_reference(reference: str) -> tuple[str, str | None]:
    """`openai:gpt-5` → (`openai`, `gpt-5`); `replay` needs no model. Raises `ValueError`."""
    provider, _, model = reference.partition(":")
    if not provider or (provider != "replay" and not model):
        raise ValueError(f"expected {MODEL_REFERENCE}, got {reference!r}")
    return provider, model or None


@dataclass(frozen=True)
class _Endpoint:
    base_url: str
    api_key_env: str
    base_url_env: str | None  # the variable the provider's own SDK reads its endpoint from


_ENDPOINTS = {
    "openai": _Endpoint("https://api.openai.com/v1", "OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "openrouter": _Endpoint("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", None),
    "anthropic": _Endpoint("https://api.anthropic.com", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
}
PROVIDERS = ("replay", *_ENDPOINTS)
FROM_PROFILE = "the profile's baseUrl"
FROM_DEFAULT = "the provider's default endpoint"


@dataclass(frozen=True)
class EndpointChoice:
    """The endpoint a hosted client asks, where it came from (`FROM_PROFILE`, the name of the
    SDK's variable, or `FROM_DEFAULT`), and whether it is the provider's own (`own`)."""

    url: str
    source: str
    own: bool = False

    @property
    def shown(self) -> str:
        """The URL as the launch log prints it: a user and password written into it left out."""
        parts = urlsplit(self.url)
        if "@" not in parts.netloc:
            return self.url
        return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def endpoint_of(
    provider: str, base_url: str | None, environ: Mapping[str, str] | None = None
) -> EndpointChoice | None:
    """The endpoint of a `provider` client given the profile's `base_url`; None for a provider
    that asks no endpoint (`replay`) or that gg does not know."""
    endpoint = _ENDPOINTS.get(provider)
    return None if endpoint is None else _chosen(endpoint, base_url, environ)


def _chosen(endpoint: _Endpoint, base_url: str | None, environ: Mapping[str, str] | None) -> EndpointChoice:
    url, source = base_url, FROM_PROFILE
    variable = endpoint.base_url_env
    if not url and variable is not None:
        url, source = (os.environ if environ is None else environ).get(variable, ""), variable
    if not url:
        url, source = endpoint.base_url, FROM_DEFAULT
    return EndpointChoice(url, source, own=url.rstrip("/") == endpoint.base_url)


def price_id_of(provider: str, model: str, endpoint: EndpointChoice, pricing: str | None) -> str | None:
    """The price-table id a client's replies are priced under: the profile's `pricing` (a model
    of `provider`, or a whole id), else the model's own id at the provider's own endpoint, else
    none (its replies cost nothing known). Raises `ConfigError` for a `pricing` the table lacks."""
    if pricing is None:
        return f"{provider}:{model}" if endpoint.own else None
    price_id = pricing if ":" in pricing else f"{provider}:{pricing}"
    if default_table().price_of(price_id) is None:
        raise _refusal("pricing", pricing, f"`{price_id}` is not in gg's price table (pricing.toml)")
    return price_id


@dataclass(frozen=True)
class _Connection:
    """Where a hosted client connects and how it signs in: its provider, its model, the endpoint
    (`self_hosted` when it is not the provider's own), the key, and the id its replies are
    priced under (`None`: unpriced)."""

    provider: str
    model: str
    base_url: str
    api_key: str
    self_hosted: bool
    price_id: str | None


@dataclass(frozen=True)
class _Asked:
    """What a profile says of where and how a model is asked."""

    base_url: str | None
    api_key_env: str | None
    pricing: str | None


def _connection(
    provider: str, model: str | None, asked: _Asked, environ: Mapping[str, str] | None
) -> _Connection:
    """Raises `ConfigError` for a provider gg does not know, a missing model or key, or a
    `pricing` the price table lacks."""
    endpoint, model = _endpoint(provider, model)
    url = _chosen(endpoint, asked.base_url, environ)
    api_key = _api_key(provider, asked.api_key_env or endpoint.api_key_env, not url.own, environ)
    price_id = price_id_of(provider, model, url, asked.pricing)
    return _Connection(provider, model, url.url, api_key, not url.own, price_id)


@dataclass(frozen=True)
class _Settings:
    """What every hosted client is built from: its connection and how it asks."""

    connection: _Connection
    memory: ToolChoiceMemory
    retrier: Retrier
    log: LogFn
    http_client: httpx2.Client | None
    max_output_tokens: int | None
    temperature: float | None


def require_connection(
    provider: str,
    model: str | None,
    *,
    base_url: str | None = None,
    api_key_env: str | None = None,
    pricing: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Raises the `ConfigError` `build_client` would for a hosted `provider:model` (a provider gg
    does not know, a missing model or key, a `pricing` the table lacks), building nothing."""
    _connection(provider, model, _Asked(base_url, api_key_env, pricing), environ)


def build_client(
    *,
    provider: str,
    model: str | None,
    tool_choice_memory: ToolChoiceMemory,
    log: LogFn,
    base_url: str | None = None,
    api_key_env: str | None = None,
    pricing: str | None = None,
    max_output_tokens: int | None = None,
    temperature: float | None = None,
    cache_lifetime: str | None = None,
    session_id: str | None = None,
    journal_path: Path | None = None,
    http_client: httpx2.Client | None = None,
    retrier: Retrier | None = None,
    environ: Mapping[str, str] | None = None,
) -> ModelClient:
    """The client of `provider`'s `model`. `retrier` holds the retry schedule, the time each attempt
    is given and what is left of the run's time (the defaults, unbounded by a run, when none is
    given)."""
    if provider == "replay":
        if journal_path is None:
            raise _refusal("journal", "absent", "the replay provider needs a journal file")
        return ReplayClient.open(journal_path)
    settings = _Settings(
        connection=_connection(provider, model, _Asked(base_url, api_key_env, pricing), environ),
        memory=tool_choice_memory,
        retrier=retrier or Retrier(log=log),
        log=log,
        http_client=http_client,
        max_output_tokens=max_output_tokens,
        temperature=temperature,
    )
    if provider == "anthropic":
        return _anthropic(settings, cache_lifetime or DEFAULT_CACHE_LIFETIME)
    return _openai(settings, session_id)


def _endpoint(provider: str, model: str | None) -> tuple[_Endpoint, str]:
    endpoint = _ENDPOINTS.get(provider)
    if endpoint is None:
        raise _refusal("provider", provider, f"must be one of {', '.join(PROVIDERS)}")
    if not model:
        raise _refusal("model", "absent", f"the {provider} provider needs a model name")
    return endpoint, model


def _anthropic(settings: _Settings, cache_lifetime: str) -> ModelClient:
    """The SDK client, its own retries off so `retry.py` holds the only schedule."""
    import anthropic

    from gg.providers.anthropic_client import AnthropicClient

    connection = settings.connection
    sdk = anthropic.Anthropic(
        api_key=connection.api_key,
        base_url=connection.base_url,
        max_retries=0,
        timeout=settings.retrier.timeout_secs,
        http_client=settings.http_client,
    )
    return AnthropicClient(
        model=connection.model,
        sdk=sdk,
        tool_choice_memory=settings.memory,
        retrier=settings.retrier,
        log=settings.log,
        price_id=connection.price_id,
        max_output_tokens=settings.max_output_tokens,
        temperature=settings.temperature,
        cache_lifetime=cache_lifetime,
    )


def _openai(settings: _Settings, session_id: str | None) -> ModelClient:
    """The SDK client, its own retries off so `retry.py` holds the only schedule."""
    import openai

    from gg.providers.openai_compatible import OpenAIClient

    connection = settings.connection
    sdk = openai.OpenAI(
        api_key=connection.api_key,
        base_url=connection.base_url,
        max_retries=0,
        timeout=settings.retrier.timeout_secs,
        http_client=settings.http_client,
    )
    official = connection.provider == "openai" and not connection.self_hosted
    return OpenAIClient(
        provider=connection.provider,
        model=connection.model,
        sdk=sdk,
        tool_choice_memory=settings.memory,
        retrier=settings.retrier,
        log=settings.log,
        price_id=connection.price_id,
        token_cap_field="max_completion_tokens" if official else "max_tokens",
        max_output_tokens=settings.max_output_tokens,
        temperature=settings.temperature,
        session_id=session_id,
    )


def _api_key(provider: str, name: str, self_hosted: bool, environ: Mapping[str, str] | None) -> str:
    key = (os.environ if environ is None else environ).get(name, "")
    if key:
        return key
    if self_hosted:
        return _NO_KEY
    raise _refusal("apiKeyEnv", name, f"the {provider} API key is read from `{name}`, which is not set")


def _refusal(key: str, found: str, reason: str) -> ConfigError:
    return ConfigError("model", [ConfigDefect(key, found, reason)])
