"""The capability-set vocabulary: every spelling a document may use, declared once.

- Capability ids, roles, languages, model providers and cache lifetimes are `StrEnum`s; their
  values are the document's spellings. A role decides which ending calls an agent may make (the
  SDK's gates read it from here).
- The defaults a document may leave out live here with their units.
- `program-library` has no defaults on purpose: an enabled library must write `keep` and `idLength`.
- `shell` defaults to a 120 s command timeout, 4 GiB per process, 1 GiB per file written and no
  network.
- `subagents` has no default on purpose: an enabled one must write `maxDepth`. `limits.maxParallel`
  defaults to 4 agents taking turns at once; every model request is made under
  `limits.modelCallTimeoutSecs` (900 s an attempt) and retried on `limits.maxModelRetries` (10)
  against `limits.modelRetryMaxDelaySecs` (60 s a wait) unless written.
- `host-functions` names its families (`HOST_FAMILY_ENTRY`): a family handed to the run by name,
  or an importable `package.module:attribute`; each grants `host-functions:<family>`.
- `mcp` names its servers by key; each grants `mcp:<key>`; a call waits 60 s for its server unless
  `timeoutSecs` says otherwise.
- `memories` has no defaults on purpose: an enabled one writes its strategy, scope and six caps.
- a profile's `disabledOperations` entry is an operation's key or a whole module
  (`OPERATION_ENTRY`: `files.write_file`, `memories.*`); what it names is judged at launch,
  against the run's modules (`gg.sdk.ablation`).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "CONFIG_FILE_NAMES",
    "DEFAULT_LANGUAGE",
    "DEFAULT_MAX_MEMORY_BYTES",
    "DEFAULT_MAX_MODEL_RETRIES",
    "DEFAULT_MAX_PARALLEL",
    "DEFAULT_MCP_TIMEOUT_SECS",
    "DEFAULT_MODEL_CALL_TIMEOUT_SECS",
    "DEFAULT_MODEL_RETRY_MAX_DELAY_SECS",
    "DEFAULT_SHELL_MAX_FILE_BYTES",
    "DEFAULT_SHELL_MAX_MEMORY_BYTES",
    "DEFAULT_SHELL_TIMEOUT_SECS",
    "DEFAULT_TIMEOUT_SECS",
    "DEFAULT_WORKSPACE",
    "HOST_FAMILY_ENTRY",
    "HOST_FAMILY_GRANT",
    "ID_LENGTH_MAX",
    "ID_LENGTH_MIN",
    "MAX_MAX_MEMORY_BYTES",
    "MAX_TIMEOUT_SECS",
    "MCP_SERVER_GRANT",
    "MIN_MAX_MEMORY_BYTES",
    "MIN_SHELL_MAX_FILE_BYTES",
    "OPERATION_ENTRY",
    "ROOT_SLUG",
    "CacheLifetime",
    "CapabilityId",
    "Language",
    "Provider",
    "Role",
    "RosterScope",
]


class CapabilityId(StrEnum):
    """The capabilities an agent may list."""

    RESPONSES_AS_CODE = "responses-as-code"
    PROGRAM_LIBRARY = "program-library"
    SKILLS = "skills"
    TASKS = "tasks"
    PROJECT_MANAGEMENT = "project-management"
    AGENT_MANAGED_CONTEXT = "agent-managed-context"
    SHELL = "shell"
    SUBAGENTS = "subagents"
    EXEC = "exec"
    FORK = "fork"
    FSM = "fsm"
    HOST_FUNCTIONS = "host-functions"
    MEMORIES = "memories"
    MCP = "mcp"


class Role(StrEnum):
    """The role an agent was dispatched in; it decides which ending calls it may make."""

    STANDARD = "standard"
    REVIEW = "review"


class RosterScope(StrEnum):
    """What a roster entry lets its profile be: spawned or exec'd into (`subagent`), a board
    issue's agent (`implementer`), a reviewer of one (`reviewer`)."""

    SUBAGENT = "subagent"
    IMPLEMENTER = "implementer"
    REVIEWER = "reviewer"


class Language(StrEnum):
    """The language an agent's programs are written in (its arm)."""

    JAVASCRIPT = "javascript"
    TYPESCRIPT = "typescript"
    PYTHON = "python"
    PYTHON_TYPED = "python-typed"


class Provider(StrEnum):
    """Who answers an agent's model requests; `replay` plays a recorded journal."""

    REPLAY = "replay"
    OPENAI = "openai"
    OPENROUTER = "openrouter"
    ANTHROPIC = "anthropic"


class CacheLifetime(StrEnum):
    """How long a provider may keep the prompt cache it writes."""

    FIVE_MINUTES = "5m"
    ONE_HOUR = "1h"


CONFIG_FILE_NAMES = ("gg.json", "gg.toml")  # what a folder given as the config must hold (one)
ROOT_SLUG = "root"  # the root agent's id (the root is agents[0], whatever its slug)
DEFAULT_MAX_PARALLEL = 4  # agents taking turns at once; more queue
DEFAULT_WORKSPACE = "workspace"  # beside the config file
DEFAULT_LANGUAGE = Language.JAVASCRIPT
DEFAULT_TIMEOUT_SECS = 30.0
DEFAULT_MAX_MEMORY_BYTES = 268_435_456  # 256 MiB
MIN_MAX_MEMORY_BYTES = 16_777_216  # 16 MiB: the least every engine can boot its SDK in; less is refused
MAX_MAX_MEMORY_BYTES = 1 << 40  # 1 TiB: more than any machine gg runs on; past it is refused, not capped
DEFAULT_SHELL_TIMEOUT_SECS = 120.0  # a shell command's, when its call names none
DEFAULT_SHELL_MAX_MEMORY_BYTES = 4_294_967_296  # 4 GiB of address space per process of a command
DEFAULT_SHELL_MAX_FILE_BYTES = 1_073_741_824  # 1 GiB: the most a command writes to any one file
MIN_SHELL_MAX_FILE_BYTES = 1_048_576  # 1 MiB: less leaves no room for a build's own files
MAX_TIMEOUT_SECS = 86_400.0  # a day: past it a program's clock cannot be armed; refused, not capped
HOST_FAMILY_ENTRY = r"[a-z][a-z0-9_]*|[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_]*"
HOST_FAMILY_GRANT = "host-functions:{family}"  # the capability a listed family's calls are gated on
OPERATION_ENTRY = r"[A-Za-z_][A-Za-z0-9_]*\.(?:[A-Za-z_][A-Za-z0-9_]*|\*)"  # `module.operation`, `module.*`
MCP_SERVER_GRANT = "mcp:{server}"  # the capability a listed MCP server's calls are gated on
DEFAULT_MCP_TIMEOUT_SECS = 60.0  # how long one call waits for its MCP server, unless written
DEFAULT_MODEL_CALL_TIMEOUT_SECS = 900.0  # one attempt at a model request, from sending to its reply
DEFAULT_MAX_MODEL_RETRIES = 10  # retries of a failed model request after its first attempt
DEFAULT_MODEL_RETRY_MAX_DELAY_SECS = 60.0  # the longest wait before one retry
ID_LENGTH_MIN = 2
ID_LENGTH_MAX = 32
