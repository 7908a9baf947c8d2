"""`skills.readSkill` (capability `skills`) and gg's own skills; the catalogue itself, its
directory, front matter, code modules and confinement, is `gg.state.skills.shelf`.

Rules kept here:
- `readSkill(name)` returns the body and loads the code module, if any, for the agent: it is
  reached as `lib:<key>` from the agent's next program on (`gg.sdk.surface`); the skill joins
  the window's read set (`gg.state.skills`) at its first read, and its body is pinned in the
  window (the skill band, one block per skill: a second read pins no second copy);
- gg's own skills (`BUILT_IN_FAMILIES`, `gg-<family>`) join an agent's catalogue beside its
  directory's, each unless its profile's `builtIns` switches it off and only where the agent may
  call one of the family's functions: its body is the family's reference pages (the module's,
  then each function's the agent may call), its description the module's brief. A directory's
  skill of the same name replaces gg's (an author who writes `gg-filesystem` means to replace
  gg's, and a catalogue never lists one name twice);
- an unknown name is `not-found`, naming the skills there are; a file over 1 MiB is
  `limit-exceeded`; a file that cannot be read is `io-error`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gg import prompts
from gg.config.skills import BUILT_IN_FAMILIES
from gg.errors import ErrorCode, FatalFault, GgDefect, OperationError
from gg.sdk.docs.index import DocEntry, DocKind
from gg.sdk.registry import Capability, ErrorDoc, Operation, Param, ParamType
from gg.state.skills.shelf import Skill, SkillShelf
from gg.state.window import Band

if TYPE_CHECKING:
    from gg.sdk.scope import ProgramScope

CAPABILITY = "skills"


def built_in_skills(pages: Sequence[DocEntry], offered: Collection[str]) -> list[Skill]:
    """gg's own skills of the families `offered` names, for an agent documented by `pages`: one
    per family it may call into."""
    found: list[Skill] = []
    for name, family in BUILT_IN_FAMILIES.items():
        own = [page for page in pages if page.module == family]
        module = next((page for page in own if page.kind is DocKind.MODULE), None)
        if name not in offered or module is None:
            continue
        body = "\n\n".join([module.body, *(p.body for p in own if p.kind is DocKind.FUNCTION)])
        found.append(Skill(name, module.summary, text=body))
    return found


def _read_skill(scope: ProgramScope, args: Mapping[str, Any]) -> str:
    surface = scope.surface
    shelf = None if surface is None else surface.skills
    if surface is None or shelf is None:  # the gate admits only agents whose profile enables skills
        raise GgDefect(FatalFault.HOST_FAULT, "skills.read_skill reached an agent without a skills shelf")
    name: str = args["name"]
    skill = shelf.get(name)
    if skill is None:
        raise OperationError("read_skill", ErrorCode.NOT_FOUND, _no_such_skill(name, shelf))
    text = shelf.read(skill)
    scope.skills_read.record(skill.name)
    if scope.window is not None:
        pinned = prompts.render("skill-pinned", name=skill.name, body=text.body.strip("\n"))
        scope.window.pin(Band.SKILL, pinned, key=skill.name)
    if text.code is not None:
        source, extension = text.code
        surface.load_module(skill.name, source, extension, skill.description)
    return text.body


def _no_such_skill(name: str, shelf: SkillShelf) -> str:
    shown = name if len(name) <= 60 else name[:60] + "…"
    names = ", ".join(f"`{skill.name}`" for skill in shelf.skills)
    return f"no skill `{shown}`; " + (f"the skills are {names}" if names else "there are no skills")


SKILLS_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="skills",
        key="read_skill",
        params=(Param("name", ParamType.STRING, doc="the skill's name, as the skills catalogue lists it"),),
        returns="string",
        summary="Read a skill's text; its code module, if it has one, is importable from your next program.",
        gate=Capability(CAPABILITY),
        handler=_read_skill,
        dispatches_tool=False,
        errors=(
            ErrorDoc(ErrorCode.NOT_FOUND, "no skill has that name; the message names the skills there are"),
            ErrorDoc(ErrorCode.LIMIT_EXCEEDED, "a file of the skill is over 1 MiB"),
            ErrorDoc(ErrorCode.IO_ERROR, "a file of the skill cannot be read"),
        ),
    ),
)
