"""A message to a child is bounded like a view body, and so is what one turn of a child is handed
(issue 21, item 8): a message over 65,536 UTF-8 bytes is refused `invalid-argument`, never cut; a
message that would take the child's inbox past 262,144 bytes (four messages at their cap) before
its next turn is refused `limit-exceeded`, whole, saying what the inbox holds; every message taken
reaches the child's next prompt whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import line, profile, run_crew, subagents

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

SEND = {
    "javascript": """import { delegation } from "gg";
const child = delegation.spawnSubagent({ agent: "worker", prompt: "read your messages" });
const tried = (message) => {
  try { child.send(message); return "sent"; } catch (e) { return `${e.code}: ${e.message}`; }
};
const full = "x".repeat(65536);
console.log(JSON.stringify([
  tried("x".repeat(65537)), tried("é".repeat(32769)), tried("é".repeat(32768)),
  tried(full), tried(full), tried(full), tried("one more"),
]));
delegation.waitForSubagents([child.id]);
""",
    "python": """import json
from gg import core, delegation
child = delegation.spawn_subagent(agent="worker", prompt="read your messages")
full = "x" * 65536
tried = []
for message in ["x" * 65537, "é" * 32769, "é" * 32768, full, full, full, "one more"]:
    try:
        child.send(message)
        tried.append("sent")
    except OSError as e:
        tried.append(core.details(e).code + ": " + core.details(e).message)
print(json.dumps(tried))
delegation.wait_for_subagents([child.id])
""",
}
FINISH = {
    "javascript": 'import { session } from "gg";\nsession.finish("read them");\n',
    "python": 'from gg import session\nsession.finish("read them")\n',
}


def test_a_message_over_the_view_bound_and_one_past_a_turns_inbox_are_refused_whole(
    tmp_path: Path, arm: Arm
) -> None:
    """At one slot the child's first turn waits until the root waits, so every send lands before
    it: the inbox its first turn is handed is exactly what was taken."""
    lang = arm.language
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(), language=lang, roster=["worker"]), profile("worker", language=lang)],
        [line(SEND[lang]), line(FINISH[lang]), line(FINISH[lang], agent="root.1")],
        arm=arm,
        limits={"maxParallel": 1},
    )
    (tried,) = crew.logged_json("root")
    assert tried == [
        "invalid-argument: `message` is 65537 bytes, over the 65536-byte cap; write a shorter one",
        "invalid-argument: `message` is 65538 bytes, over the 65536-byte cap; write a shorter one",
        "sent",
        "sent",
        "sent",
        "sent",
        "limit-exceeded: `root.1`'s next turn already holds 262144 bytes of messages, and this one of 8 "
        "bytes would take it past the 262144 bytes one turn is handed; send it once `root.1` has taken "
        "that turn",
    ]
    handed = [m.content for m in crew.requests["root.1"][0].messages if m.content.startswith("Message from")]
    assert (
        handed
        == [f"Message from `root`\n----\n{'é' * 32768}"] + [f"Message from `root`\n----\n{'x' * 65536}"] * 3
    )
    assert crew.result.status.value == "completed"
