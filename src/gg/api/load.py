"""`gg.load`: a capability set from a file, a folder, a parsed document or one built in code.

- a path (`str` or `Path`): a JSON or TOML file, or a folder holding one `gg.json` / `gg.toml`;
  relative paths inside resolve against the file's folder;
- a mapping: the document itself, as the file would hold it; relative paths resolve against
  `base` (the working directory unless given);
- a `CapabilitySet`: judged again whole, so one changed in code (`model_copy(update=...)`) is
  held to every rule a file is.
Every defect is reported at once, in one `ConfigError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gg.config.model import CapabilitySet

IN_CODE = "(capability set)"


def load(
    config: str | Path | Mapping[str, Any] | CapabilitySet, *, base: str | Path | None = None
) -> CapabilitySet:
    """The capability set `config` describes, validated. Raises `gg.ConfigError` naming every
    defect, each at its key path."""
    return load_for_run(config, base=base, root_model_handed=False)


def load_for_run(
    config: str | Path | Mapping[str, Any] | CapabilitySet,
    *,
    base: str | Path | None = None,
    root_model_handed: bool,
) -> CapabilitySet:
    """`load`, for a run that may be handed the root's model (then the root profile need not
    name one). A loaded `CapabilitySet` is judged again as a document, but a profile behind its
    root that it holds without a model was let go without one where it was loaded (`gg mcp
    serve`'s profiles served for other arms) and is not asked for one again: spawning it where no
    model answers it is refused at the spawn, naming it."""
    from gg.agents.profiles import own_modules_judge
    from gg.config.load import load_capability_set, parse_capability_set
    from gg.config.model import CapabilitySet

    handed, judge = (0,) if root_model_handed else (), own_modules_judge()  # the root: agents[0]
    if isinstance(config, CapabilitySet):
        unnamed = [index for index, agent in enumerate(config.agents) if index and agent.model is None]
        handed = (*handed, *unnamed)
        config = config.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(config, Mapping):
        folder = Path(base or Path.cwd())
        return parse_capability_set(config, folder, IN_CODE, models_handed=handed, operations=judge)
    if isinstance(config, str | Path):  # pyright: ignore[reportUnnecessaryIsInstance]
        return load_capability_set(config, models_handed=handed, operations=judge)
    raise TypeError(f"gg.load takes a path, a mapping or a CapabilitySet, not {type(config).__name__}")


def source_of(config: object) -> Path:
    """What a run records as its configuration's path."""
    return Path(config) if isinstance(config, str | Path) else Path(IN_CODE)
