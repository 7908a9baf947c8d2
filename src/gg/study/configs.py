"""A study's capability sets: one per config and task, each judged by gg's own loader.

Rules:
- a config that is a path names a capability-set file (or a folder holding one), whose relative
  paths resolve against its own folder; a config that is an object is laid over `base` (see
  `merge.py`), and its paths, like the base's, resolve against the base's folder (the study's
  folder when the base is written inline); with no `base` an object is a whole capability set;
- over every config lie the study's `limits`, then the task: its workspace template, its text as
  the root agent's task, and the replay journal the task names for that config;
- every defect is reported at the study key that caused it (`configs.typescript.agents[0]…`,
  `base.agents[0]…`, `tasks.csv-total.journals.typescript`), once, with the file it lies in and
  the configs it spoils when the key path alone does not say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gg.config.catalogue import ROOT_SLUG
from gg.config.defects import Finding, Loc, mapping, render_defects, render_found, render_path, sequence
from gg.config.document import locate, read_document
from gg.config.load import judge_capability_set
from gg.config.model import CapabilitySet
from gg.errors import ConfigDefect, ConfigError
from gg.study.merge import Layer, Layered, layer

__all__ = ["ConfigSource", "capability_sets", "config_sources"]

_WANTED = "must be a path to a capability-set file, or an object of capability-set keys"


@dataclass(frozen=True)
class ConfigSource:
    """One config before its tasks: the layers it is made of, the folder its paths start at, and
    how a run's record names where it came from."""

    name: str
    layers: tuple[Layer, ...]
    folder: Path
    label: str


def config_sources(
    document: Mapping[str, Any], root: Path, study_file: Path
) -> tuple[dict[str, ConfigSource], list[ConfigDefect]]:
    """Every config the study names, read (files) and layered (variants), and the defects met."""
    defects: list[ConfigDefect] = []
    base = _base_layer(document.get("base"), root, defects)
    sources: dict[str, ConfigSource] = {}
    for name, written in (mapping(document.get("configs")) or {}).items():
        source = _source(name, written, base, root, study_file, defects)
        if source is not None:
            sources[name] = source
    return sources, defects


def _base_layer(written: object, root: Path, defects: list[ConfigDefect]) -> tuple[Layer, Path] | bool | None:
    """The base as a layer with its folder; None when the study has none; False when unreadable."""
    if written is None:
        return None
    read = _read(written, ("base",), root, defects)
    if read is None:
        return False
    document, folder, note = read
    return Layer(document, lambda loc: ("base", *loc), note), folder


def _source(
    name: str,
    written: object,
    base: tuple[Layer, Path] | bool | None,
    root: Path,
    study_file: Path,
    defects: list[ConfigDefect],
) -> ConfigSource | None:
    loc = ("configs", name)
    read = _read(written, loc, root, defects)
    if read is None or base is False:
        return None
    document, folder, note = read
    own = Layer(document, lambda inner: (*loc, *inner), note)
    if isinstance(written, str) or base is None:
        return ConfigSource(
            name, (own,), folder, str(folder / note) if note else f"{study_file}#configs.{name}"
        )
    assert not isinstance(base, bool)
    base_layer, base_folder = base
    return ConfigSource(name, (base_layer, own), base_folder, f"{study_file}#configs.{name}")


def _read(
    written: object, loc: Loc, root: Path, defects: list[ConfigDefect]
) -> tuple[Mapping[str, Any], Path, str] | None:
    """An inline object as it is, or the file a path names: (document, its folder, file note)."""
    if (inline := mapping(written)) is not None:
        return inline, root, ""
    if not isinstance(written, str) or not written.strip():
        defects.append(ConfigDefect(render_path(loc), render_found(written), _WANTED))
        return None
    try:
        file = locate(root / written)
        return read_document(file), file.resolve().parent, file.name
    except ConfigError as refusal:
        for defect in refusal.defects:
            reason = f"names {refusal.source}, which {defect.reason}"
            defects.append(ConfigDefect(render_path(loc), render_found(written), reason))
        return None


def capability_sets(
    sources: Mapping[str, ConfigSource],
    tasks: Mapping[str, Any],
    limits: object,
    root: Path,
    reported: frozenset[str] = frozenset(),
) -> tuple[dict[tuple[str, str], CapabilitySet], list[ConfigDefect]]:
    """The capability set of every (config, task), and every defect, each once; a defect at a
    study key path in `reported` (the study's own refusals) is not named again."""
    sets: dict[tuple[str, str], CapabilitySet] = {}
    spoiled: dict[tuple[str, str, str], list[str]] = {}
    ceilings = Layer({"limits": limits}, lambda loc: loc) if limits is not None else None
    for name, source in sources.items():
        for task, written in tasks.items():
            layers = (*source.layers, *([ceilings] if ceilings else []))
            overlay = _task_layer(task, mapping(written) or {}, name, root, layer(layers).document)
            layered = layer((*layers, overlay))
            loaded, findings = judge_capability_set(layered.document, source.folder)
            if loaded is not None:
                sets[(name, task)] = loaded
            for finding in findings:
                spoiled.setdefault(_locate(layered, finding), []).append(name)
    return sets, [_defect(key, names) for key, names in spoiled.items() if key[0] not in reported]


def _task_layer(
    task: str, written: Mapping[str, Any], config: str, root: Path, below: Mapping[str, Any]
) -> Layer:
    """The task's keys as a capability-set layer: workspace, the root's task and its journal."""
    document: dict[str, Any] = {}
    places: dict[Loc, Loc] = {}
    if isinstance(workspace := written.get("workspace"), str):
        document["workspace"] = str((root / workspace).resolve())
        places[("workspace",)] = ("tasks", task, "workspace")
    root_agent: dict[str, Any] = {"slug": ROOT_SLUG}
    if isinstance(text := written.get("text"), str):
        root_agent["task"] = text
        places[("agents", 0, "task")] = ("tasks", task, "text")
    journal = (mapping(written.get("journals")) or {}).get(config)
    if isinstance(journal, str):
        root_agent["model"] = {"journal": str((root / journal).resolve())}
        places[("agents", 0, "model", "journal")] = ("tasks", task, "journals", config)
    if _has_root(below):
        document["agents"] = [root_agent]
    return Layer(document, lambda loc: _placed(places, loc, ("tasks", task)))


def _placed(places: Mapping[Loc, Loc], loc: Loc, fallback: Loc) -> Loc:
    for depth in range(len(loc), 0, -1):
        if loc[:depth] in places:
            return (*places[loc[:depth]], *loc[depth:])
    return fallback


def _has_root(document: Mapping[str, Any]) -> bool:
    agents = sequence(document.get("agents")) or []
    return any((mapping(agent) or {}).get("slug") == ROOT_SLUG for agent in agents)


def _locate(layered: Layered, finding: Finding) -> tuple[str, str, str]:
    """(study key path, found, reason with the file it lies in) for one finding."""
    chosen, study_loc = layered.origin(finding.loc)
    found = render_defects([finding], layered.document)[0].found
    note = f" (in {chosen.note})" if chosen.note else ""
    return render_path(study_loc), found, finding.reason + note


def _defect(key: tuple[str, str, str], configs: list[str]) -> ConfigDefect:
    path, found, reason = key
    names = list(dict.fromkeys(configs))
    if not path.startswith("configs."):
        reason += f" (with config{'s' if len(names) > 1 else ''} {', '.join(names)})"
    return ConfigDefect(path, found, reason)
