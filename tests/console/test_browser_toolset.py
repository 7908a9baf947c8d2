"""The Agents tab's toolset, per profile, in real Chromium: what its agents were offered (each with
its calls, a muted `0×` for one never called), what its ablation withheld (a refused call counted
beside it), and what they called. A run `gg run` records: the root withholds `files.write_file` and
`memories.*`, reads a file twice, tries the write anyway and starts a worker that withholds nothing
and writes. An instance's Surface file shows its own."""

from __future__ import annotations

import json
from pathlib import Path

from console.browser import served
from console.conftest import gg_run

ROOT_PROGRAM = """import { delegation, files } from "gg";
files.readFile("notes.txt");
files.readFile("notes.txt");
try { files.writeFile("out.txt", "no"); } catch (e) { console.log(e.code); }
const child = delegation.spawnSubagent({ agent: "worker", prompt: "write out.txt" });
delegation.waitForSubagents([child.id]);
"""
WORKER_PROGRAM = """import { files, session } from "gg";
files.writeFile("out.txt", "yes");
session.finish("written");
"""
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
MEMORY_PARAMS = {
    "scope": "isolated",
    "maxCount": 10,
    "maxTotalLen": 10_000,
    "maxResults": 0,
    "maxLenPerMemory": 2000,
    "maxLenIndex": 2000,
    "maxLenDescription": 200,
}
MEMORY_CALLS = ("write_memory", "update_memory", "create_memory", "read_memory", "edit_memory")


def ablated_run(folder: Path) -> Path:
    (folder / "workspace").mkdir(parents=True)
    (folder / "workspace" / "notes.txt").write_text("hello\n", encoding="utf-8")
    code = {"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 30}}
    model = {"provider": "replay", "journal": "journal.jsonl"}
    root = {
        "slug": "root",
        "task": "Read the notes.",
        "model": model,
        "capabilities": [
            code,
            {"id": "subagents", "params": {"maxDepth": 1}},
            {"id": "memories", "implementation": "markdown", "params": MEMORY_PARAMS},
        ],
        "subagents": [{"agent": "worker", "description": "writes", "scopes": ["subagent"]}],
        "disabledOperations": ["files.write_file", "memories.*"],
    }
    worker = {"slug": "worker", "task": "Write.", "model": model, "capabilities": [code]}
    document = {"name": "ablated", "agents": [root, worker]}
    (folder / "gg.json").write_text(json.dumps(document), encoding="utf-8")

    def reply(source: str, profile: str | None = None) -> str:
        line = {"text": "", "calls": [{"name": "submit_program", "arguments": {"program": source}}]}
        return json.dumps({"profile": profile, **line} if profile else line) + "\n"

    journal = reply(ROOT_PROGRAM) + reply(FINISH) + reply(WORKER_PROGRAM, "worker")
    (folder / "journal.jsonl").write_text(journal, encoding="utf-8")
    return folder


def _row(page, profile: str, operation: str):
    return page.locator(f'#profile-{profile} tr.tool[data-operation="{operation}"]')


def test_the_agents_tab_shows_each_profiles_offered_withheld_and_called_operations(tmp_path: Path, page):
    run = gg_run(tmp_path / "base", ablated_run(tmp_path / "ablated"))
    with served(run.store) as base:
        page.goto(f"{base}/runs/{run.run_id}/agents")
        root_summary = page.inner_text("#profile-root .toolset-summary")
        worker_summary = page.inner_text("#profile-worker .toolset-summary")
        read = _row(page, "root", "files.read_file")
        assert read.locator("td.calls").inner_text() == "2×"
        never = _row(page, "root", "files.list_dir")
        assert never.locator("td.calls").inner_text() == "0×"
        assert never.locator("td.calls span.muted").count() == 1  # offered, never called: muted
        muted = never.locator("td.calls span").evaluate("e => getComputedStyle(e).color")
        plain = read.locator("td.calls").evaluate("e => getComputedStyle(e).color")
        assert muted != plain
        write = _row(page, "root", "files.write_file")
        assert write.get_attribute("class") == "tool tool-withheld"
        assert write.locator(".badge").inner_text() == "withheld"
        assert write.locator("td.calls").inner_text() == "1×"  # tried anyway, refused
        for call in MEMORY_CALLS:
            assert _row(page, "root", f"memories.{call}").get_attribute("class") == "tool tool-withheld"
        worker_write = _row(page, "worker", "files.write_file")
        assert worker_write.get_attribute("class") == "tool tool-offered"
        assert worker_write.locator("td.calls").inner_text() == "1×"
        assert page.locator("#profile-worker tr.tool-withheld").count() == 0
        page.goto(f"{base}/runs/{run.run_id}/instances/root/surface")  # one instance's own toolset
        surface_summary = page.inner_text(".toolset-summary")
        shown = page.locator('tr.tool[data-operation="files.write_file"] .badge').inner_text()
    assert root_summary.endswith("offered · 8 withheld · 5 called")  # read, write, spawn, wait, finish
    assert worker_summary.endswith("offered · 0 withheld · 2 called")
    assert surface_summary == root_summary and shown == "withheld"
