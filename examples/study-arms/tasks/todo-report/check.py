"""Solved when todos.md lists every TODO under src/ as `- src/<file>:<line>: <text>`, in order."""

import os
import sys
from pathlib import Path

template = Path(os.environ["GG_STUDY_DIR"]) / "tasks" / "todo-report" / "workspace"
wanted = [
    f"- src/{source.name}:{number}: {line.split('TODO:', 1)[1].strip()}"
    for source in sorted((template / "src").iterdir())
    for number, line in enumerate(source.read_text().splitlines(), start=1)
    if "TODO:" in line
]
found = [line for line in Path("todos.md").read_text().splitlines() if line.startswith("- ")]
if found != wanted:
    sys.exit("todos.md lists:\n" + "\n".join(found) + "\nwanted:\n" + "\n".join(wanted))
print("todos.md is right")
