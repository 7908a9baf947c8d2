"""Run gg from Python, offline: a model scripted in Python answers, and its programs call the
shop's own host functions (`shop.py`) as well as gg's.

    python examples/python-api/run.py                       # the run lands in ./.gg like `gg run`
    python examples/python-api/run.py --record shop.jsonl   # and records it as a replay journal
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import gg
from shop import inventory

HERE = Path(__file__).resolve().parent
REFUSED_EXIT = 2  # what `gg run` exits with when it refuses a launch

TURN_1 = """import { files, inventory, views } from "gg";
const orders = JSON.parse(files.readTextFile("orders.json"));
const lines = [];
for (const { sku, quantity } of orders) {
  try {
    const r = inventory.reserve(sku, quantity);
    lines.push({ sku, reserved: r.reserved, short: r.short, left: inventory.count(sku) });
  } catch (error) {
    lines.push({ sku, error: `${error.code}: ${error.message}` });
  }
}
views.openText("reservations", JSON.stringify(lines));
"""

TURN_2 = """import { session } from "gg";
session.finish(SUMMARY);
"""


class Shopper:
    """A model scripted in Python: any object with `model_id` and `complete(request)` is one."""

    model_id = "scripted:shopper"

    def complete(self, request: gg.Request) -> gg.Reply:
        turn = 1 + sum(1 for message in request.messages if message.role == "assistant")
        program = TURN_1 if turn == 1 else TURN_2.replace("SUMMARY", json.dumps(self._summary(request)))
        call = gg.ToolCall(f"call_{turn}", "submit_program", {"program": program})
        return gg.Reply(text="", calls=(call,), usage=gg.Usage(0, 0), model=self.model_id)

    def _summary(self, request: gg.Request) -> str:
        """What the first turn's view showed, read back from the window as a model would."""
        shown = next(m.content for m in reversed(request.messages) if "reservations" in m.content)
        lines = json.loads(shown[shown.index("[") : shown.rindex("]") + 1])
        done = [line["sku"] for line in lines if "error" not in line and not line["short"]]
        short = [f"{line['sku']} ({line['short']} short)" for line in lines if line.get("short")]
        failed = [line["sku"] for line in lines if "error" in line]
        return f"Reserved {', '.join(done)}; short: {', '.join(short)}; not stocked: {', '.join(failed)}."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", type=Path, help="also record the session as this new journal file")
    parser.add_argument("--store", type=Path, default=Path.cwd(), help="the folder whose .gg/ keeps the run")
    arguments = parser.parse_args()

    def show(event: gg.Event) -> None:
        wire = event.to_wire()
        if wire["type"] == "api_result" and wire["operation"].startswith("inventory."):
            outcome = "ok" if wire["ok"] else wire["failure"]
            print(f"  turn {event.turn}: {wire['operation']} -> {outcome}")

    try:
        result = gg.run(
            HERE / "gg.json",
            model=Shopper(),
            families=[inventory],
            on_event=show,
            record=arguments.record,
            store=arguments.store,
        )
    except gg.ConfigError as refusal:  # a refused launch, told as `gg run` tells it: every defect,
        print(refusal, file=sys.stderr)  # on stderr, no traceback, nothing recorded
        sys.exit(REFUSED_EXIT)
    print(f"{result.run_id}: {result.status} (exit {result.exit_code}) after {result.turns} turns")
    print(f"final text: {result.final_text}")
    for agent in result.agents:
        print(f"  {agent.agent_id}: {agent.turns} turns, {agent.programs} programs, {agent.error_turns} error turns")
    with gg.open_store(arguments.store) as store:
        kept = store.run(result.run_id)
        print(f"the store keeps {len(kept.events())} events and {len(kept.transcript().turns)} turns of it")


if __name__ == "__main__":
    main()
