"""Solved when counts.json maps each note's file name to its word count, keys sorted."""

import json
import os
import sys
from pathlib import Path

template = Path(os.environ["GG_STUDY_DIR"]) / "tasks" / "word-count" / "workspace" / "notes"
wanted = {note.name: len(note.read_text().split()) for note in sorted(template.iterdir())}
try:
    found = json.loads(Path("counts.json").read_text())
except (OSError, ValueError) as unreadable:
    sys.exit(f"counts.json cannot be read: {unreadable}")
if found != wanted:
    sys.exit(f"counts.json holds {found}, wanted {wanted}")
if list(found) != sorted(found):
    sys.exit(f"counts.json's keys are not sorted: {list(found)}")
print("counts.json is right")
