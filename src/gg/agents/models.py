"""Each agent's model client, built as the agent opens (`ModelClients`).

- A profile's model is its own `model`, with two exceptions from the command line: `--model`
  replaces the root profile's provider and model, and a journal given to replay (`gg replay`,
  `gg run --journal`) answers every agent of the run.
- A replayed agent plays its own script of its journal (`gg.providers.book`): each journal file
  is read once, owned by the first profile whose model names it (the root, for a journal given
  on the command line). The journals the run's agents replay (`replayed_journals`) are found by
  the same rule; they also hold the host functions' recorded answers (`gg.agents.families`). Every
  one is opened at launch (`open_journals`), so a bad line of any refuses the launch, and the
  lines naming an agent the run never opened are told once it is over (`unused_lines`).
- A recorder (`--record`) wraps every agent's client, so the recording holds every agent's lines.
- A hosted client makes each request under the run's `limits` (`modelCallTimeoutSecs`,
  `maxModelRetries`, `modelRetryMaxDelaySecs`) and within what is left of the run's time.
- What a run is handed (`World`) comes first: `clients` answers every agent; `client` answers the
  root's lineage.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gg.config.catalogue import Provider
from gg.config.model import Agent as AgentProfile
from gg.config.model import CapabilitySet, ModelBinding
from gg.deadline import RunLeft, unbounded
from gg.errors import ConfigDefect, ConfigError
from gg.ids import ROOT_ID, AgentNode
from gg.loop.stream import AgentStream
from gg.providers.base import LogFn, ModelClient
from gg.providers.book import JournalBook
from gg.providers.factory import EndpointChoice, build_client, endpoint_of, price_id_of, require_connection
from gg.providers.journal import JournalReply
from gg.providers.recording import JournalRecorder
from gg.providers.replay import ReplayClient
from gg.providers.retry import Retrier, RetryPolicy
from gg.providers.tool_choice import ToolChoiceMemory
from gg.telemetry.events import LogLevel

ClientFor = Callable[[str, str], ModelClient]  # (agent id, profile slug) -> its client


class ModelClients:
    def __init__(
        self,
        capability_set: CapabilitySet,
        overrides: Overrides,
        tool_choice: ToolChoiceMemory,
        given: tuple[ModelClient | None, ClientFor | None] = (None, None),
        run_left: RunLeft = unbounded,
    ) -> None:
        self._set = capability_set
        self._overrides = overrides
        self._tool_choice = tool_choice
        self._run_left = run_left
        self._root_client, self._client_for = given
        self._books: dict[Path, JournalBook] = {}
        self._lock = threading.Lock()

    def client(self, node: AgentNode, profile: AgentProfile, stream: AgentStream) -> ModelClient:
        """The client of agent `node`, running `profile`. Raises `ConfigError` for a model that
        cannot be built (a key not set, a journal that does not read)."""
        if self._client_for is not None:
            client = self._client_for(node.id, profile.slug)
        elif self._root_client is not None and node.lineage == ROOT_ID:
            client = self._root_client
        else:
            client = self._built(node, profile, stream)
        recorder = self._overrides.recorder
        return client if recorder is None else recorder.wrap(client, node.id)

    def open_journals(self) -> None:
        """Open the book of every journal the run replays; raises `JournalError` for a bad one."""
        for path in replayed_journals(self._set, self._overrides, (self._root_client, self._client_for)):
            self._book(path)

    def unused_lines(self) -> list[tuple[Path, JournalReply]]:
        """Each journal line naming an agent instance this run never opened, with its journal."""
        with self._lock:
            books = list(self._books.items())
        return [(path, reply) for path, book in books for reply in book.unused()]

    def binding_of(self, profile: AgentProfile) -> tuple[str, str | None]:
        """The provider and model that answer `profile`, after the command line's overrides."""
        return binding_of(self._set, self._overrides, profile)

    def named(self, profile: AgentProfile) -> str:
        """The model the run names for `profile`: a client handed in to answer it names itself
        (its `model_id`), any other is `<provider>:<model>`, or the provider alone."""
        if self._client_for is None and self._root_client is not None and profile.slug == self._set.root.slug:
            return self._root_client.model_id
        provider, model = self.binding_of(profile)
        return provider if model is None else f"{provider}:{model}"

    def _built(self, node: AgentNode, profile: AgentProfile, stream: AgentStream) -> ModelClient:
        """A `--model` of the profile's own provider keeps the profile's endpoint, key variable and
        journal, and its `pricing` when it names the profile's own model; one of another provider
        keeps none of them. The agent's launch log names the endpoint a hosted model is asked at,
        where that came from, and what its replies are priced as."""
        provider, model = self.binding_of(profile)
        journal = journal_of(self._set, self._overrides, profile)
        if provider == Provider.REPLAY and journal is not None:
            return ReplayClient(self._book(journal).script(node.id, profile.slug))
        lent = _lent_settings(profile.model, provider, model)

        def log(level: str, message: str, fields: dict[str, Any]) -> None:
            stream.log(LogLevel(level), message, **fields)

        client = build_client(
            provider=provider,
            model=model,
            tool_choice_memory=self._tool_choice,
            log=log,
            retrier=self._retrier(log),
            session_id=self._overrides.session_id or stream.run_id,
            journal_path=journal,
            **lent,
        )
        endpoint = endpoint_of(provider, lent.get("base_url"))
        if endpoint is not None and model is not None:
            price_id = price_id_of(provider, model, endpoint, lent.get("pricing"))
            _log_endpoint(stream, client.model_id, endpoint, price_id)
        return client

    def _retrier(self, log: LogFn) -> Retrier:
        """The schedule and time of every request, from the run's limits and what is left of its time."""
        limits = self._set.limits.model_calls
        policy = RetryPolicy(retries=limits.retries, max_delay_secs=limits.retry_max_delay_secs)
        return Retrier(log=log, policy=policy, timeout_secs=limits.timeout_secs, run_left=self._run_left)

    def _book(self, path: Path) -> JournalBook:
        with self._lock:
            if path not in self._books:
                profiles = [profile.slug for profile in self._set.agents]
                self._books[path] = JournalBook.open(path, self._owner(path), profiles)
            return self._books[path]

    def _owner(self, path: Path) -> str:
        if self._overrides.journal is not None:
            return self._set.root.slug
        for profile in self._set.agents:
            if profile.model is not None and profile.model.journal == path:
                return profile.slug
        return self._set.root.slug


def _lent_settings(own: ModelBinding | None, provider: str, model: str | None) -> dict[str, Any]:
    """What a profile's own model lends the client of `provider:model`: its output cap,
    temperature and cache lifetime always; its endpoint and key variable only to a model of its
    own provider; its `pricing` only to its own model. None lends nothing (a root left unnamed
    for `--model`)."""
    if own is None:
        return {}
    kept = provider == own.provider.value
    return {
        "base_url": own.base_url if kept else None,
        "api_key_env": own.api_key_env if kept else None,
        "pricing": own.pricing if kept and model == own.model else None,
        "max_output_tokens": own.max_output_tokens,
        "temperature": own.temperature,
        "cache_lifetime": None if own.cache_lifetime is None else own.cache_lifetime.value,
    }


def _log_endpoint(stream: AgentStream, model_id: str, endpoint: EndpointChoice, price_id: str | None) -> None:
    priced = f"priced as {price_id}" if price_id else "unpriced (not the provider's own endpoint)"
    stream.log_info(
        f"{model_id} is asked at {endpoint.shown} ({endpoint.source}); {priced}",
        baseUrl=endpoint.shown,
        endpointFrom=endpoint.source,
        pricedAs=price_id,
    )


def require_hosted_models(capability_set: CapabilitySet, overrides: Overrides) -> None:
    """Raises the `ConfigError` the first profile of `capability_set` whose hosted model could
    not be built would raise as its agent opens (a key not set, most often); a replayed profile
    is never refused here."""
    for profile in capability_set.agents:
        provider, model = binding_of(capability_set, overrides, profile)
        if provider != Provider.REPLAY:
            lent = _lent_settings(profile.model, provider, model)
            require_connection(
                provider,
                model,
                base_url=lent["base_url"],
                api_key_env=lent["api_key_env"],
                pricing=lent["pricing"],
            )


def binding_of(
    capability_set: CapabilitySet, overrides: Overrides, profile: AgentProfile
) -> tuple[str, str | None]:
    """The provider and model that answer `profile` in `capability_set`, after `overrides`."""
    if overrides.journal is not None:
        return Provider.REPLAY.value, None
    if overrides.provider is not None and profile.slug == capability_set.root.slug:
        return overrides.provider, overrides.model
    binding = profile.model
    if binding is None:  # the root's, left unnamed for the model handed to the run
        reason = (
            "names no model: name one here, or give the run one (gg run --model, gg.run(model=...))"
            if profile.slug == capability_set.root.slug
            else "names no model, and the model handed to the run answers the root's own line only"
        )
        raise ConfigError("model", [ConfigDefect(f"agents[{profile.slug}].model", "absent", reason)])
    return binding.provider.value, binding.model


def journal_of(capability_set: CapabilitySet, overrides: Overrides, profile: AgentProfile) -> Path | None:
    """The journal `profile`'s model reads: the command line's, else the profile's own while its
    provider is kept."""
    provider, _ = binding_of(capability_set, overrides, profile)
    own = profile.model
    kept = own is not None and provider == own.provider.value
    return overrides.journal or (own.journal if own is not None and kept else None)


def replayed_journals(
    capability_set: CapabilitySet, overrides: Overrides, given: tuple[ModelClient | None, ClientFor | None]
) -> tuple[Path, ...]:
    """Every journal the run's agents replay, each once, in profile order; none of the profiles a
    client handed to the run answers (every profile, for `clients`; the root's, for `client`)."""
    root_client, client_for = given
    if client_for is not None:
        return ()
    journals: dict[Path, None] = {}
    for profile in capability_set.agents:
        handed = root_client is not None and profile.slug == capability_set.root.slug
        if profile.model is None or handed:
            continue
        journal = journal_of(capability_set, overrides, profile)
        if binding_of(capability_set, overrides, profile)[0] == Provider.REPLAY and journal is not None:
            journals[journal] = None
    return tuple(journals)


@dataclass(frozen=True)
class Overrides:
    """What the command line lays over the capability set's models."""

    provider: str | None = None
    model: str | None = None
    journal: Path | None = None
    session_id: str | None = None  # keys the provider's prompt cache; the run id
    recorder: JournalRecorder | None = None
