"""gg: a harness for LLM agents that answer every turn with a whole program.

Run a capability set from Python, exactly as `gg run` does, and read it back:

    import gg

    result = gg.run("examples/spec-audit")          # a path, a dict, or a gg.CapabilitySet
    print(result.status, result.exit_code, result.final_text, result.cost_usd)
    with gg.open_store(".") as store:               # the run store gg run writes, .gg/runs.db
        events = store.run(result.run_id).events()  # the typed events, in order

`gg.run(config, *, model=None, workspace=None, journal=None, record=None, store=None,
on_event=None, families=None)` runs its agents to the root's end and returns a `gg.RunResult`.
`model` is a `gg.ModelClient` (any object with `model_id` and `complete(request) -> gg.Reply`,
so a test can script a model in Python) or `"PROVIDER:MODEL"`; `on_event` is called with every
telemetry event (`gg.Event`) as it happens. `gg.load(config)` validates a capability set and
raises one `gg.ConfigError` listing every defect. `gg.replay(run, verify=True)` plays a run
recorded with `record=` again from the workspace it started from and returns a `gg.Verdict`:
faithful, or where it first diverged from its record.

Give programs your own tools with host functions: plain typed Python functions whose types
become the SDK's declarations in every arm (`gg.d.ts`, the Python stubs, the docs):

    inventory = gg.family("inventory", doc="The shop's stock.")

    @inventory.operation
    def count(sku: str, *, warehouse: str | None = None) -> int:
        "How many of `sku` are in stock."
        ...

    gg.run(config, families=[inventory])   # a profile enables it: {"id": "host-functions",
                                           #   "params": {"families": ["inventory"]}}

A program calls `inventory.count("A-1", {warehouse: "north"})` (JavaScript, TypeScript) or
`gg.inventory.count("A-1", warehouse="north")` (Python). A function fails a call with
`raise gg.ApiError("not-found", "...")`; any other exception reaches the program as `other`.
A result declared as a TypedDict, a dataclass or a pydantic model is declared with its fields in
every arm; that is how to give the model a shape (`-> dict[str, Any]` tells it no keys).

Run your own checks at ten points of a run with hooks: a function judges the event's payload
and answers as a command hook does (None to continue):

    @gg.hook("pre-shell")
    def no_push(event):
        if "git push" in event["command"]:
            return {"action": "block", "message": "pushing is the operator's job"}

    gg.run(config, hooks=[no_push])

The names below are the stable surface; everything else is private by its module path. Inside gg,
import from the modules themselves (`from gg.agents.run import execute_run`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gg.exits import quiet_start

quiet_start()  # the `gg` command: a stop while gg imports ends it at once (130, 143)

from gg.api.run import run  # noqa: E402
from gg.errors import ConfigError  # noqa: E402
from gg.version import __version__  # noqa: E402

if TYPE_CHECKING:
    from gg.api.hook import hook
    from gg.api.load import load
    from gg.api.replay import replay
    from gg.api.result import AgentSummary, RunResult
    from gg.api.store import Store, StoredRun, open_store
    from gg.config.model import CapabilitySet
    from gg.playback.verdict import Verdict
    from gg.playback.verify import Unverifiable
    from gg.providers.base import Message, ModelClient, Reply, Request, ToolCall, Usage
    from gg.sdk.host.error import ApiError
    from gg.sdk.host.family import HostFamily, family
    from gg.telemetry.events import Event

__all__ = [
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

_LAZY = {  # loaded when first asked for, so `import gg` costs `gg --version` nothing
    "load": "gg.api.load",
    "replay": "gg.api.replay",
    "Verdict": "gg.playback.verdict",
    "Unverifiable": "gg.playback.verify",
    "hook": "gg.api.hook",
    "open_store": "gg.api.store",
    "family": "gg.sdk.host.family",
    "HostFamily": "gg.sdk.host.family",
    "ApiError": "gg.sdk.host.error",
    "AgentSummary": "gg.api.result",
    "RunResult": "gg.api.result",
    "Store": "gg.api.store",
    "StoredRun": "gg.api.store",
    "CapabilitySet": "gg.config.model",
    "Message": "gg.providers.base",
    "ModelClient": "gg.providers.base",
    "Reply": "gg.providers.base",
    "Request": "gg.providers.base",
    "ToolCall": "gg.providers.base",
    "Usage": "gg.providers.base",
    "Event": "gg.telemetry.events",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gg' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
