"""Model providers: the `ModelClient` protocol, its values, and the clients that implement it.

`build_client` lives in `gg.providers.factory` and is not re-exported here: it imports the
OpenAI and Anthropic SDKs, which the loop's values and the test clients do not need.
"""

from gg.providers.base import (
    SUBMIT_PROGRAM,
    LogFn,
    Message,
    ModelClient,
    ModelError,
    Reply,
    Request,
    ToolCall,
    ToolSpec,
    Usage,
    submit_program_tool,
)
from gg.providers.journal import JournalError
from gg.providers.pricing import cost_of
from gg.providers.recording import JournalRecorder
from gg.providers.replay import JournalExhausted, ReceiptMissing, ReplayClient, ReplayError
from gg.providers.retry import Retrier, RetryPolicy
from gg.providers.scripted import ScriptedClient, program_reply
from gg.providers.tool_choice import ToolChoice, ToolChoiceMemory

__all__ = [
    "SUBMIT_PROGRAM",
    "JournalError",
    "JournalExhausted",
    "JournalRecorder",
    "LogFn",
    "Message",
    "ModelClient",
    "ModelError",
    "ReceiptMissing",
    "ReplayClient",
    "ReplayError",
    "Reply",
    "Request",
    "Retrier",
    "RetryPolicy",
    "ScriptedClient",
    "ToolCall",
    "ToolChoice",
    "ToolChoiceMemory",
    "ToolSpec",
    "Usage",
    "cost_of",
    "program_reply",
    "submit_program_tool",
]
