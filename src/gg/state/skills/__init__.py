"""Skills: the catalogue an agent's profile offers (`shelf`: a directory's skills and gg's own,
read within the workspace) and the skills module that records which of them this window has read
(`module`)."""

from gg.state.skills.module import SkillReads, SkillsModule
from gg.state.skills.shelf import Skill, SkillCatalogues, SkillShelf, SkillText, split_front_matter

__all__ = [
    "Skill",
    "SkillCatalogues",
    "SkillReads",
    "SkillShelf",
    "SkillText",
    "SkillsModule",
    "split_front_matter",
]
