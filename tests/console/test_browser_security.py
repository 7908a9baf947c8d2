"""Text a model or a program wrote never runs in the browser: a run gg records writes it into
every such field, and every page of that run is opened in real Chromium."""

from __future__ import annotations

import json
from pathlib import Path

from console.browser import served
from console.conftest import gg_run
from console.crawl import crawl

SCRIPT = "<script>window.__pwned = 'script'; alert('script')</script>"
ATTRIBUTE = "\"><img src=x onerror=\"window.__pwned = 'img'; alert('img')\">"
PAYLOAD = f"{SCRIPT} {ATTRIBUTE} '><svg onload=alert('svg')>"


def every_page(page, base: str, start: str) -> list[str]:
    """Opens every console page reachable from `start` (static files and live streams aside),
    asserting on each that nothing the run wrote became markup or ran."""

    def visit(path: str) -> str:
        page.goto(base + path)
        assert page.evaluate("window.__pwned === undefined"), path
        assert page.locator("img").count() == 0, path
        assert page.locator("script:not([src='/static/live.js'])").count() == 0, path
        assert page.locator("[onerror], [onload]").count() == 0, path
        return page.content()

    return list(crawl(start, visit)[0])


MEMORY_PARAMS = {
    "scope": "isolated",
    **dict.fromkeys(("maxCount", "maxTotalLen", "maxResults"), 0),
    "maxLenPerMemory": 2000,
    "maxLenIndex": 2000,
    "maxLenDescription": 2000,
}
SKILL_NAME = '"><img src=x onerror="window.__pwned = \'skill\'">'  # a folder's name: no slash


def injected_run(folder: Path) -> Path:
    """A capability set and journal whose every model- or program-written text is the payload:
    the reply, the program, a view's label and body, a log line, an error, a subagent's brief, a
    skill's name and description, a task's title, a memory's description and body, an issue's
    title and scope, a turn archived (its error), the summary."""
    said = json.dumps(PAYLOAD)
    skill = folder / "workspace" / "skills" / SKILL_NAME
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text(f"---\ndescription: {PAYLOAD}\n---\n{PAYLOAD}\n", encoding="utf-8")
    code = {"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 30}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    root = {
        "slug": "root",
        "task": PAYLOAD,
        "model": model,
        "capabilities": [
            code,
            {"id": "program-library", "params": {"keep": 20, "idLength": 4}},
            {"id": "skills", "params": {"dir": "skills", "builtIns": {}}},
            {"id": "subagents", "params": {"maxDepth": 1}},
            {"id": "memories", "implementation": "markdown", "params": MEMORY_PARAMS},
            {"id": "tasks", "params": {"maxTasks": 4, "mode": "simple"}},
            {"id": "project-management", "params": {"maxEpics": 1, "maxIssues": 2, "maxRetries": 0}},
            {"id": "agent-managed-context"},
        ],
        "subagents": [{"agent": "worker", "description": PAYLOAD, "scopes": ["subagent", "implementer"]}],
    }
    worker = {"slug": "worker", "task": PAYLOAD, "model": model, "capabilities": [code]}
    (folder / "gg.json").write_text(
        json.dumps({"name": "injected", "agents": [root, worker]}), encoding="utf-8"
    )
    first = (
        'import { board, delegation, memories, skills, tasks, views } from "gg";\n'
        f"skills.readSkill({json.dumps(SKILL_NAME)});\n"
        f"views.openText({said}, {said});\nconsole.log({said});\n"
        f'const child = delegation.spawnSubagent({{ agent: "worker", prompt: {said} }});\n'
        "delegation.waitForSubagents([child.id]);\n"
        f'tasks.addTask({{ id: "t1", title: {said} }});\n'
        f'memories.createMemory({{ name: "note", description: {said}, body: {said} }});\n'
        f'const epic = board.createEpic({{ prefix: "PAY", title: {said}, description: {said} }});\n'
        f"const issue = board.createIssue({{ title: {said}, inScope: {said}, outOfScope: {said}, "
        f'completionCriteria: {said}, agent: "worker", epicId: epic.id }});\n'
        "board.waitForIssue(issue.id);\n"
    )
    archive = 'import { context } from "gg";\ncontext.archiveThread([{ from: 2, to: 2 }]);\n'
    finish = f'import {{ session }} from "gg";\nsession.finish({said});\n'
    lines = [
        {"text": PAYLOAD, "calls": [{"name": "submit_program", "arguments": {"program": first}}]},
        {
            "text": PAYLOAD,
            "calls": [{"name": "submit_program", "arguments": {"program": f"throw new Error({said});\n"}}],
        },
        {"text": PAYLOAD, "calls": [{"name": "submit_program", "arguments": {"program": archive}}]},
        {"text": PAYLOAD, "calls": [{"name": "submit_program", "arguments": {"program": finish}}]},
        {
            "profile": "worker",
            "text": PAYLOAD,
            "calls": [{"name": "submit_program", "arguments": {"program": finish}}],
        },
    ]
    (folder / "journal.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    return folder


def test_text_a_recorded_run_wrote_is_shown_as_text_and_never_runs(tmp_path: Path, page):
    run = gg_run(tmp_path / "base", injected_run(tmp_path / "injected"))
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    with served(run.store) as base:
        visited = every_page(page, base, "/")
        page.goto(f"{base}/runs/{run.run_id}/instances/root/activity")
        activity = page.inner_text("main")
        page.goto(f"{base}/runs/{run.run_id}/instances/root.1/overview")
        brief = page.inner_text("main")
        page.goto(f"{base}/runs/{run.run_id}/modules/store/skills-0")
        skills = page.inner_text("main")
        texts = {}
        for store in ("tasks-0", "memories-0", "archive-0"):
            page.goto(f"{base}/runs/{run.run_id}/modules/store/{store}")
            page.locator("details summary").evaluate_all("els => els.forEach(e => e.click())")
            texts[store] = page.inner_text("main")
        page.goto(f"{base}/runs/{run.run_id}/project")
        texts["project"] = page.inner_text("main")
    assert dialogs == []
    assert len(visited) > 30
    assert PAYLOAD in activity and f"Error: {PAYLOAD}" in activity  # the reply, view, log, error
    assert PAYLOAD in brief
    assert SKILL_NAME in skills and PAYLOAD in skills  # the skill's name and description
    assert f"t1\t{PAYLOAD}\tpending" in texts["tasks-0"]  # the task's title, in the table
    assert texts["memories-0"].count(PAYLOAD) >= 2  # the memory's description and body
    assert f"Error: {PAYLOAD}" in texts["archive-0"]  # the archived turn
    assert f"PAY\t{PAYLOAD}\t{PAYLOAD}" in texts["project"]  # the epic's title and description
    assert f"{PAYLOAD}\nby root.2" in texts["project"]  # the title on its card, by its implementer
