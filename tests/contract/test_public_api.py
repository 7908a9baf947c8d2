"""The public Python API is pinned: the names `gg` exports, every function's signature, every
result type's fields and every method a caller reaches. A change here is a change of gg's stable
surface; it fails on purpose, so that it is made on purpose."""

from __future__ import annotations

import dataclasses
import inspect
import pydoc
import subprocess
import sys

import gg

SURFACE = [
    "AgentSummary",
    "ApiError",
    "CapabilitySet",
    "ConfigError",
    "Event",
    "HostFamily",
    "Message",
    "ModelClient",
    "Reply",
    "Request",
    "RunResult",
    "Store",
    "StoredRun",
    "ToolCall",
    "Unverifiable",
    "Usage",
    "Verdict",
    "__version__",
    "family",
    "hook",
    "load",
    "open_store",
    "replay",
    "run",
]

FUNCTIONS = {
    "run": "(config: 'str | Path | Mapping[str, Any] | CapabilitySet', *, "
    "model: 'ModelClient | str | None' = None, workspace: 'str | Path | None' = None, "
    "journal: 'str | Path | None' = None, record: 'str | Path | None' = None, "
    "store: 'str | Path | None' = None, on_event: 'Callable[[Event], None] | None' = None, "
    "families: 'Sequence[HostFamily | str] | None' = None, otel: 'bool' = False, "
    "otel_content: 'bool' = False, hooks: 'Sequence[PythonHook] | None' = None) -> 'RunResult'",
    "hook": "(event: 'str', *, name: 'str | None' = None) -> 'Callable[[HookFunction], PythonHook]'",
    "load": "(config: 'str | Path | Mapping[str, Any] | CapabilitySet', *, base: 'str | Path | None' = None)"
    " -> 'CapabilitySet'",
    "open_store": "(location: 'str | Path' = '.') -> 'Store'",
    "replay": "(run: 'str' = 'latest', *, verify: 'bool' = False, store: 'str | Path | None' = None, "
    "fingerprint: 'str | None' = None) -> 'Verdict'",
    "family": "(name: 'str', *, doc: 'str', timeout_secs: 'float' = 60.0) -> 'HostFamily'",
    "ApiError": "(code: 'ErrorCode | str', message: 'str') -> 'None'",
    "HostFamily": "(name: 'str', *, doc: 'str', timeout_secs: 'float' = 60.0) -> 'None'",
    "ConfigError": "(source: 'str', defects: 'Sequence[ConfigDefect]') -> 'None'",
}

FIELDS = {
    "RunResult": ["run_id", "status", "exit_code", "final_text", "message", "agents", "cost_usd", "turns"],
    "AgentSummary": [
        "agent_id",
        "turns",
        "programs",
        "error_turns",
        "input_tokens",
        "output_tokens",
        "cost_usd",
    ],
    "StoredRun": [
        "store",
        "id",
        "name",
        "status",
        "exit_code",
        "language",
        "model",
        "turns",
        "started_at",
        "finished_at",
        "final_text",
        "message",
    ],
    "Event": ["run_id", "agent_id", "turn", "timestamp", "payload", "parent_agent_id"],
    "Verdict": ["fingerprint", "agents", "steps", "divergence"],
    "Request": ["system", "messages", "tool", "max_output_tokens", "temperature", "volatile_tail"],
    "Reply": ["text", "calls", "usage", "model", "receipts_hint", "cost_usd", "response_model"],
    "ToolCall": ["id", "name", "arguments", "raw_arguments"],
    "Message": ["role", "content", "tool_call_id", "tool_calls"],
    "Usage": [
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "cache_write_1h_tokens",
    ],
}

METHODS = {
    "ModelClient": {"model_id": "property", "complete": "(self, request: 'Request') -> 'Reply'"},
    "HostFamily": {
        "operation": "(self, function: 'F | None' = None, /, *, name: 'str | None' = None, "
        "summary: 'str | None' = None, errors: 'Mapping[str, str] | None' = None) -> 'F | Callable[[F], F]'",
        "functions": "property",
        "function": "(self, name: 'str') -> 'HostFunction | None'",
        "declaration": "property",
    },
    "Store": {
        "runs": "(self, limit: 'int | None' = None) -> 'list[StoredRun]'",
        "run": "(self, ref: 'str' = 'latest') -> 'StoredRun'",
        "close": "(self) -> 'None'",
        "path": "property",
    },
    "StoredRun": {"events": "(self) -> 'list[Event]'", "transcript": "(self) -> 'Transcript'"},
    "RunResult": {"ok": "property"},
    "Verdict": {"faithful": "property", "said": "(self) -> 'str'"},
    "Event": {"to_wire": "(self) -> 'dict[str, Any]'", "type": "property"},
}


def _member(cls: type, name: str) -> str:
    value = inspect.getattr_static(cls, name)
    return "property" if isinstance(value, property) else str(inspect.signature(value))


def test_the_package_exports_exactly_the_stable_surface() -> None:
    assert gg.__all__ == SURFACE
    assert all(hasattr(gg, name) for name in SURFACE)
    assert gg.__version__ == "0.1.0"


def test_every_function_of_the_surface_keeps_its_signature() -> None:
    assert {name: str(inspect.signature(getattr(gg, name))) for name in FUNCTIONS} == FUNCTIONS


def test_every_result_type_keeps_its_fields_and_methods() -> None:
    assert {name: [f.name for f in dataclasses.fields(getattr(gg, name))] for name in FIELDS} == FIELDS
    found = {
        name: {member: _member(getattr(gg, name), member) for member in members}
        for name, members in METHODS.items()
    }
    assert found == METHODS
    assert issubclass(gg.ApiError, Exception) and issubclass(gg.ConfigError, Exception)
    assert issubclass(gg.Unverifiable, Exception)


def test_gg_run_is_the_function_however_the_agents_are_imported() -> None:
    import gg.agents.run
    from gg.agents.run import execute_run

    assert inspect.isfunction(gg.run) and gg.run.__module__ == "gg.api.run"
    assert execute_run.__module__ == "gg.agents.run"
    probe = (
        "import gg.agents.run\nfrom gg.agents import run as module\nimport gg\nimport inspect\n"
        "print(inspect.isfunction(gg.run), gg.run.__module__, module.__name__)\n"
    )
    checked = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert checked.stdout.split() == ["True", "gg.api.run", "gg.agents.run"]


def test_help_on_the_package_reads_as_its_documentation() -> None:
    text = pydoc.render_doc(gg, renderer=pydoc.plaintext)
    for line in [
        "gg.run(config, *, model=None, workspace=None, journal=None, record=None, store=None,",
        'inventory = gg.family("inventory", doc="The shop\'s stock.")',
        "`gg.load(config)` validates a capability set",
        "run(config: 'str | Path | Mapping[str, Any] | CapabilitySet', *, model",
        "class ModelClient(typing.Protocol)",
    ]:
        assert line in text, line


def test_importing_gg_loads_no_provider_sdk_web_stack_or_heavy_library() -> None:
    probe = (
        "import sys\nimport gg\n"
        "heavy = {'openai', 'anthropic', 'starlette', 'uvicorn', 'jinja2', 'pydantic', 'rich', 'sqlite3',"
        " 'asyncio', 'gg.agents', 'gg.config', 'gg.providers', 'gg.sandbox'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    checked = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert checked.stdout.strip() == "[]"
