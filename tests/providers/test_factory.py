"""From a model's settings to its client; settings that cannot work refuse the launch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gg.errors import ConfigError
from gg.providers.anthropic_client import AnthropicClient
from gg.providers.base import ModelClient
from gg.providers.factory import EndpointChoice, build_client, endpoint_of, price_id_of
from gg.providers.openai_compatible import OpenAIClient
from gg.providers.replay import ReplayClient
from gg.providers.tool_choice import ToolChoiceMemory

from .chat_server import ChatServer, program_completion
from .clients import a_request
from .operator import Operator


def build(**settings: Any) -> ModelClient:
    return build_client(tool_choice_memory=ToolChoiceMemory(), log=Operator().log, **settings)


def test_the_replay_provider_opens_its_journal_and_needs_no_model(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"text": "hi"}\n')
    client = build(provider="replay", model=None, journal_path=path)
    assert isinstance(client, ReplayClient)


def test_the_replay_provider_without_a_journal_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        build(provider="replay", model="replay")
    assert caught.value.defects[0].path == "journal"


def test_an_unknown_provider_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        build(provider="acme", model="m", environ={})
    assert "replay, openai, openrouter, anthropic" in caught.value.defects[0].reason


@pytest.mark.parametrize(
    ("provider", "variable"),
    [("openai", "OPENAI_API_KEY"), ("openrouter", "OPENROUTER_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")],
)
def test_a_hosted_provider_without_its_key_is_refused(provider: str, variable: str) -> None:
    with pytest.raises(ConfigError) as caught:
        build(provider=provider, model="m", environ={})
    assert (caught.value.defects[0].path, caught.value.defects[0].found) == ("apiKeyEnv", variable)


def test_the_key_is_read_from_the_named_variable(chat_server: ChatServer) -> None:
    chat_server.script(program_completion("1"))
    client = build(
        provider="openai",
        model="m",
        base_url=chat_server.base_url,
        api_key_env="MY_KEY",
        environ={"MY_KEY": "sk-mine", "OPENAI_API_KEY": "sk-default"},
    )
    assert isinstance(client, OpenAIClient)
    client.complete(a_request())
    client.close()
    assert chat_server.received[0].headers["authorization"] == "Bearer sk-mine"


def test_a_self_hosted_server_needs_no_key(chat_server: ChatServer) -> None:
    chat_server.script(program_completion("1"))
    client = build(provider="openai", model="llama3", base_url=chat_server.base_url, environ={})
    assert isinstance(client, OpenAIClient)
    assert client.model_id == "openai:llama3"
    client.complete(a_request())
    client.close()
    assert len(chat_server.received) == 1


def test_openrouter_is_an_openai_compatible_client_with_its_own_id() -> None:
    client = build(provider="openrouter", model="qwen/qwen3.8-max-0902", environ={"OPENROUTER_API_KEY": "k"})
    assert isinstance(client, OpenAIClient)
    assert client.model_id == "openrouter:qwen/qwen3.8-max-0902"
    client.close()


def test_a_hosted_provider_without_a_model_name_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        build(provider="openai", model=None, environ={"OPENAI_API_KEY": "k"})
    assert caught.value.defects[0].path == "model"


def test_anthropic_is_its_own_client_with_its_own_id_and_key() -> None:
    client = build(provider="anthropic", model="claude-sonnet-5-5", environ={"ANTHROPIC_API_KEY": "k"})
    assert isinstance(client, AnthropicClient)
    assert client.model_id == "anthropic:claude-sonnet-5-5"
    client.close()


def test_the_refusal_of_a_missing_key_names_the_variable_and_what_is_wrong() -> None:
    with pytest.raises(ConfigError) as caught:
        build(provider="anthropic", model="claude-sonnet-5-5", api_key_env="TEAM_CLAUDE_KEY", environ={})
    text = str(caught.value)
    assert "TEAM_CLAUDE_KEY" in text and "not set" in text


def test_the_endpoint_is_the_profiles_then_the_sdks_own_variable_then_the_default() -> None:
    sdk_variables = {
        "OPENAI_BASE_URL": "http://localhost:8000/v1",
        "ANTHROPIC_BASE_URL": "http://localhost:9",
    }
    assert endpoint_of("openai", "http://mine/v1", sdk_variables) == EndpointChoice(
        "http://mine/v1", "the profile's baseUrl"
    )
    assert endpoint_of("openai", None, sdk_variables) == EndpointChoice(
        "http://localhost:8000/v1", "OPENAI_BASE_URL"
    )
    assert endpoint_of("anthropic", None, sdk_variables) == EndpointChoice(
        "http://localhost:9", "ANTHROPIC_BASE_URL"
    )
    assert endpoint_of("openrouter", None, sdk_variables) == EndpointChoice(
        "https://openrouter.ai/api/v1", "the provider's default endpoint", own=True
    )
    assert endpoint_of("openai", None, {"OPENAI_BASE_URL": ""}) == EndpointChoice(
        "https://api.openai.com/v1", "the provider's default endpoint", own=True
    )
    assert endpoint_of("replay", None, sdk_variables) is None


def test_replies_are_priced_under_the_models_own_id_only_at_the_providers_own_endpoint() -> None:
    own = endpoint_of("openai", None, {})
    assert own is not None and price_id_of("openai", "gpt-4o", own, None) == "openai:gpt-4o"
    slashed = endpoint_of("openai", "https://api.openai.com/v1/", {})
    assert slashed is not None and price_id_of("openai", "gpt-4o", slashed, None) == "openai:gpt-4o"
    for elsewhere in ("http://127.0.0.1:8080/v1", "https://proxy.example/v1"):
        endpoint = endpoint_of("openai", elsewhere, {})
        assert endpoint is not None and price_id_of("openai", "gpt-4o", endpoint, None) is None
        assert price_id_of("openai", "gemma", endpoint, "gpt-4o") == "openai:gpt-4o"
        assert (
            price_id_of("openai", "gemma", endpoint, "anthropic:claude-opus-5") == "anthropic:claude-opus-5"
        )
    variable = endpoint_of("openai", None, {"OPENAI_BASE_URL": "http://localhost:8000/v1"})
    assert variable is not None and price_id_of("openai", "gpt-4o", variable, None) is None


def test_a_pricing_the_price_table_does_not_list_refuses_the_launch_naming_it() -> None:
    with pytest.raises(ConfigError) as caught:
        build(
            provider="openai",
            model="gemma",
            base_url="http://127.0.0.1:8080/v1",
            pricing="gpt-99",
            environ={},
        )
    [defect] = caught.value.defects
    assert (defect.path, defect.found) == ("pricing", "gpt-99")
    assert "`openai:gpt-99` is not in gg's price table" in defect.reason


def test_the_endpoint_as_logged_leaves_out_a_user_and_password() -> None:
    assert EndpointChoice("http://me:secret@host:8000/v1", "OPENAI_BASE_URL").shown == "http://host:8000/v1"
    assert EndpointChoice("http://host:8000/v1", "OPENAI_BASE_URL").shown == "http://host:8000/v1"


def test_the_sdks_own_base_url_variable_is_honoured_and_needs_no_key(chat_server: ChatServer) -> None:
    chat_server.script(program_completion("1"))
    client = build(provider="openai", model="m", environ={"OPENAI_BASE_URL": chat_server.base_url})
    assert isinstance(client, OpenAIClient)
    client.complete(a_request())
    client.close()
    assert len(chat_server.received) == 1
