"""Study folders for the tests: the study-arms example's tasks and journals, under a study file
written for the test (its configs, repeats and checks chosen there)."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "study-arms"
TASKS = ("word-count", "csv-total", "todo-report")

BASE = """
name = "arms-under-test"
repeats = {repeats}
seed = 3

[limits]
maxTurns = 8

[base]
name = "arms-under-test"

[[base.agents]]
slug = "root"
model = {{ provider = "replay" }}
capabilities = [
  {{ id = "responses-as-code", params = {{ language = "javascript", timeoutSecs = 20 }} }},
  {{ id = "program-library", params = {{ keep = 20, idLength = 4 }} }},
]
"""

ARMS = """
[configs.javascript]

[configs.typescript]
[[configs.typescript.agents]]
slug = "root"
capabilities = [{ id = "responses-as-code", params = { language = "typescript" } }]
"""

TASK = """
[tasks.{task}]
workspace = "tasks/{task}/workspace"
text = "The task {task}, as the example words it."
check = {{ command = 'python3 "$GG_STUDY_DIR/tasks/{task}/check.py"', produces = [{produces}] }}
"""

JOURNALS = """[tasks.{task}.journals]
javascript = "tasks/{task}/javascript.jsonl"
typescript = "tasks/{task}/typescript.jsonl"
"""

PRODUCES = {"word-count": '"counts.json"', "csv-total": '"total.txt"', "todo-report": '"todos.md"'}


def arms_study(
    folder: Path,
    repeats: int = 2,
    tasks: tuple[str, ...] = TASKS,
    configs: str = ARMS,
    journals: bool = True,
    check: str | None = None,
) -> Path:
    """A study of `configs` (javascript × typescript) over `tasks`, in `folder`; its study file.
    `check` replaces every task's check command."""
    folder.mkdir(parents=True, exist_ok=True)
    for task in tasks:
        shutil.copytree(EXAMPLE / "tasks" / task, folder / "tasks" / task, dirs_exist_ok=True)
    text = BASE.format(repeats=repeats) + configs
    for task in tasks:
        written = TASK.format(task=task, produces=PRODUCES[task]) + (
            JOURNALS.format(task=task) if journals else ""
        )
        if check is not None:
            written = written.replace(f'python3 "$GG_STUDY_DIR/tasks/{task}/check.py"', check)
        text += written
    study = folder / "study.toml"
    study.write_text(text)
    return study
