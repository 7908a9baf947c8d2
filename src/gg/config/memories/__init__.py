"""The `memories` capability as the capability set declares it, and what it resolves to.

The parts, one concept each: `strategy` (how a store is organized: what reaches the window, which
calls exist), `caps` (the six bounds), `profile` (the scope, and `MemoryProfile`: what one
profile's enabled capability resolves to), `capability` (the model and what an enabled one must
write). The store, its holders and their prompt are `gg.state.memories`'.
"""

from gg.config.memories.capability import MemoriesCapability, MemoriesParams, memories_findings
from gg.config.memories.caps import APPLIES, CapName, Caps, unapplied
from gg.config.memories.profile import MemoryProfile, Scope
from gg.config.memories.strategy import Call, Pinned, Strategy, offered_calls

__all__ = [
    "APPLIES",
    "Call",
    "CapName",
    "Caps",
    "MemoriesCapability",
    "MemoriesParams",
    "MemoryProfile",
    "Pinned",
    "Scope",
    "Strategy",
    "memories_findings",
    "offered_calls",
    "unapplied",
]
