"""Trojan Source: a control or bidi character a run wrote is shown as `gg show` shows it on every
page, never raw. A run gg records writes them into its program listing, its replies, a log line,
a view, an error, a subagent's brief, a task, a memory, a skill and a hand-over's diff;
every page of that run is opened in real Chromium and its DOM is read."""

from __future__ import annotations

import json
import re
from pathlib import Path

from console.browser import served
from console.conftest import gg_run
from console.crawl import crawl

RLO, LRI, PDI = "\u202e", "\u2066", "\u2069"
ESC = "\x1b"
REPLY = f"harmless {RLO}txt.exe"
# The Trojan Source listing: a reader of the raw text sees the check closed before `// Check if admin`.
TROJAN = f'if (accessLevel != "user{RLO} {LRI}// Check if admin{PDI} {LRI}") {{'
TROJAN_SHOWN = 'if (accessLevel != "user\ufffd \ufffd// Check if admin\ufffd \ufffd") {'
LOGGED = f"{ESC}[31mred{ESC}[0m {RLO}txt.exe"
LOGGED_SHOWN = "\u241b[31mred\u241b[0m \ufffdtxt.exe"
SKILL = "readme"  # a skill's folder name is refused when it holds one: its description carries them
# Every character gg show pictures or replaces, but newline and tab (which the page keeps).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def js(text: str) -> str:
    """`text` as a JavaScript string literal holding its characters raw (none is a quote, a
    backslash or a line end)."""
    return f'"{text}"'


FIRST = f"""import {{ files, views }} from "gg";
const accessLevel = "user";
{TROJAN}
  files.writeFile("ADMIN.txt", "admin");
}}
console.log({js(LOGGED)});
views.openText("view", {js("body " + REPLY)});
throw new Error({js("boom " + REPLY)});
"""
SECOND = (
    'import { programs } from "gg";\n'
    'programs.rerun(programs.get("{{receipt 1.1}}").replace("throw new Error", "console.log"));\n'
)
THIRD = f"""import {{ delegation, memories, skills, tasks }} from "gg";
skills.readSkill({js(SKILL)});
tasks.addTask({{ id: "t1", title: {js("task " + REPLY)} }});
memories.createMemory({{ name: "note", description: {js("note " + REPLY)}, body: {js(REPLY)} }});
const child = delegation.spawnSubagent({{ agent: "worker", prompt: {js("brief " + REPLY)} }});
delegation.waitForSubagents([child.id]);
"""
FINISH = f'import {{ session }} from "gg";\nsession.finish({js("done " + REPLY)});\n'
MEMORY_PARAMS = {
    "scope": "isolated",
    **dict.fromkeys(("maxCount", "maxTotalLen", "maxResults"), 0),
    "maxLenPerMemory": 2000,
    "maxLenIndex": 2000,
    "maxLenDescription": 200,
}


def bidi_run(folder: Path) -> Path:
    """A capability set and journal whose texts carry control and bidi characters."""
    skill = folder / "workspace" / "skills" / SKILL
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text(f"---\ndescription: skill {REPLY}\n---\n{REPLY}\n", encoding="utf-8")
    code = {"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 30}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    root = {
        "slug": "root",
        "task": f"Read {REPLY}",
        "model": model,
        "capabilities": [
            code,
            {"id": "program-library", "params": {"keep": 20, "idLength": 4}},
            {"id": "skills", "params": {"dir": "skills", "builtIns": {}}},
            {"id": "subagents", "params": {"maxDepth": 1}},
            {"id": "memories", "implementation": "markdown", "params": MEMORY_PARAMS},
            {"id": "tasks", "params": {"maxTasks": 4, "mode": "simple"}},
        ],
        "subagents": [{"agent": "worker", "description": f"works {REPLY}", "scopes": ["subagent"]}],
    }
    worker = {"slug": "worker", "task": f"Work {REPLY}", "model": model, "capabilities": [code]}
    (folder / "gg.json").write_text(json.dumps({"name": "bidi", "agents": [root, worker]}), encoding="utf-8")
    programs = (FIRST, SECOND, THIRD, FINISH)
    lines = [
        {"text": REPLY, "calls": [{"name": "submit_program", "arguments": {"program": p}}]} for p in programs
    ]
    lines.append({"profile": "worker", **lines[-1]})
    (folder / "journal.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    return folder


def test_every_control_and_bidi_character_a_run_wrote_is_shown_pictured_on_every_page(tmp_path: Path, page):
    run = gg_run(tmp_path / "base", bidi_run(tmp_path / "bidi"))

    def visit(path: str) -> str:
        page.goto(base + path)
        page.locator("details:not([open]) > summary").evaluate_all("els => els.forEach(e => e.click())")
        return page.content()

    with served(run.store) as base:
        pages, _ = crawl("/", visit)
        texts = {}
        for path in ("activity", "overview"):
            page.goto(f"{base}/runs/{run.run_id}/instances/root/{path}")
            page.locator("details:not([open]) > summary").evaluate_all("els => els.forEach(e => e.click())")
            texts[path] = page.inner_text("main")
        page.goto(f"{base}/runs/{run.run_id}/programs")
        texts["programs"] = page.inner_text("main")
    assert len(pages) > 20
    for path, html in pages.items():
        raw = RAW.search(html)
        assert raw is None, f"{path} shows U+{ord(raw[0]):04X} raw" if raw else ""
    shown = "harmless \ufffdtxt.exe"
    assert shown in texts["activity"] and TROJAN_SHOWN in texts["activity"]  # the reply, the listing
    assert LOGGED_SHOWN in texts["activity"] and f"Error: boom {shown}" in texts["activity"]
    assert f"body {shown}" in texts["activity"]
    assert f'+console.log("boom {shown}");' in texts["programs"]  # the hand-over's diff
    assert f'-throw new Error("boom {shown}");' in texts["programs"]
    every = "\n".join(pages.values())
    for said in (f"task {shown}", f"note {shown}", f"brief {shown}", f"skill {shown}", f"done {shown}"):
        assert said in every, said
