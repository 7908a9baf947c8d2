"""Skills in a whole session: a skill of the agent's directory named like one of gg's own is the
one the agent reads, and the launch log says it replaced gg's (skills docs: "An authored skill of
the same name wins")."""

from __future__ import annotations

from pathlib import Path

from crew import line, profile, run_crew

SKILLS = {"id": "skills", "params": {"dir": "skills", "builtIns": {}}}


def test_a_directory_skill_named_like_a_built_in_wins_and_the_launch_log_names_both(tmp_path: Path) -> None:
    files = {"skills/gg-filesystem.md": "---\ndescription: Our own file rules.\n---\nOURS-ALONE\n"}
    program = (
        'import { session, skills } from "gg";\n'
        'console.log(skills.readSkill("gg-filesystem"));\n'
        'session.finish("read");\n'
    )
    crew = run_crew(tmp_path, [profile("root", SKILLS)], [line(program)], files=files)
    assert crew.logs("root") == ["OURS-ALONE\n"]
    system = crew.requests["root"][0].system
    assert system.count("gg-filesystem") == 1 and "Our own file rules." in system
    notes = [e for e in crew.of("log", "root") if "gg-filesystem" in e["message"]]
    assert [(e["level"], e["message"]) for e in notes] == [
        (
            "info",
            "root's skills directory holds `gg-filesystem`, which replaces gg's own skill of that name"
            " (skills/gg-filesystem.md)",
        )
    ]
    assert notes[0]["fields"] == {"skill": "gg-filesystem", "file": "skills/gg-filesystem.md"}
    assert crew.index("log", "root") < crew.index("model_request", "root")


def test_a_skill_whose_name_holds_a_control_character_is_not_offered_and_the_launch_log_warns(
    tmp_path: Path,
) -> None:
    files = {"skills/esc\x1b[31m.md": "RAW\n", "skills/plain.md": "PLAIN\n"}
    program = (
        'import { session, skills } from "gg";\n'
        'console.log(skills.readSkill("plain"));\n'
        'session.finish("read");\n'
    )
    crew = run_crew(tmp_path, [profile("root", SKILLS)], [line(program)], files=files)
    assert crew.logs("root") == ["PLAIN\n"]
    system = crew.requests["root"][0].system
    assert "`esc" not in system and "\x1b" not in system and "`plain`" in system
    (note,) = [e for e in crew.of("log", "root") if "`skills/esc" in e["message"]]
    assert (note["level"], note["message"]) == (
        "warn",
        "root's skills directory holds `skills/esc\\u001b[31m.md`, whose name holds a control or bidi"
        " character; it is not offered as a skill",
    )
    assert note["fields"] == {"file": "skills/esc\\u001b[31m.md"}
    assert crew.index("log", "root") < crew.index("model_request", "root")
