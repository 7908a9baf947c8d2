"""The programs of the MCP session tests, on each arm: turn 1 calls every kind of tool of the fixture
server and keeps what each call answered (`turn1.txt`) and the server's process id (`pid.txt`),
and opens the docs page of the tool with no output schema; turn 2 calls twice after the server
was killed (`turn2.txt`); turn 3 keeps the id of the process answering now and ends the session
with one more call's answer."""

from __future__ import annotations

JAVASCRIPT = (
    """import { fixture, files, views } from "gg";
const out = [];
const show = (f) => {
  try { out.push(JSON.stringify(f())); } catch (e) { out.push(`${e.code}: ${e.message}`); }
};
show(() => fixture.add(2, 0.5));
show(() => fixture.getNote(7));
show(() => fixture.ship({ street: "1 Main St", city: "Oslo" }, { priority: "high" }));
show(() => fixture.echo("ab"));
show(() => fixture.refuse("closed"));
show(() => fixture.pick(9));
show(() => fixture.add("two", 1));
show(() => fixture.nap(30));
files.writeFile("pid.txt", String(fixture.pid().result));
files.writeFile("turn1.txt", out.join("\\n"));
views.openDocsView("fixture.echo");
""",
    """import { fixture, files } from "gg";
const out = [];
for (let i = 0; i < 2; i++) {
  try { out.push(JSON.stringify(fixture.add(1, 1))); } catch (e) { out.push(`${e.code}: ${e.message}`); }
}
files.writeFile("turn2.txt", out.join("\\n"));
""",
    """import { files, fixture, session } from "gg";
files.writeFile("pid.txt", String(fixture.pid().result));
session.finish(JSON.stringify(fixture.add(4, 4)));
""",
)

TYPESCRIPT = (
    """import { ApiError, fixture, files, views } from "gg";
const out: string[] = [];
const show = (f: () => unknown): void => {
  try {
    out.push(JSON.stringify(f()));
  } catch (e) {
    const error = e as ApiError;
    out.push(`${error.code}: ${error.message}`);
  }
};
show(() => fixture.add(2, 0.5));
show(() => fixture.getNote(7));
show(() => fixture.ship({ street: "1 Main St", city: "Oslo" }, { priority: "high" }));
show(() => fixture.echo("ab"));
show(() => fixture.refuse("closed"));
show(() => fixture.pick(9));
show(() => fixture.add("two" as unknown as number, 1));
show(() => fixture.nap(30));
files.writeFile("pid.txt", String(fixture.pid().result));
files.writeFile("turn1.txt", out.join("\\n"));
views.openDocsView("fixture.echo");
""",
    """import { ApiError, fixture, files } from "gg";
const out: string[] = [];
for (let i = 0; i < 2; i++) {
  try {
    out.push(JSON.stringify(fixture.add(1, 1)));
  } catch (e) {
    const error = e as ApiError;
    out.push(`${error.code}: ${error.message}`);
  }
}
files.writeFile("turn2.txt", out.join("\\n"));
""",
    """import { files, fixture, session } from "gg";
files.writeFile("pid.txt", String(fixture.pid().result));
session.finish(JSON.stringify(fixture.add(4, 4)));
""",
)

PYTHON = (
    """from typing import Any, Callable
import gg

out: list[str] = []


def show(f: Callable[[], object]) -> None:
    try:
        out.append(str(f()))
    except gg.ApiError as e:
        out.append(str(e))


bad: Any = "two"
show(lambda: gg.fixture.add(2, 0.5))
show(lambda: gg.fixture.get_note(7))
show(lambda: gg.fixture.ship({"street": "1 Main St", "city": "Oslo"}, priority="high"))
show(lambda: gg.fixture.echo("ab"))
show(lambda: gg.fixture.refuse("closed"))
show(lambda: gg.fixture.pick(9))
show(lambda: gg.fixture.add(bad, 1))
show(lambda: gg.fixture.nap(30))
gg.files.write_file("pid.txt", str(gg.fixture.pid()["result"]))
gg.files.write_file("turn1.txt", "\\n".join(out))
gg.views.open_docs_view("fixture.echo")
""",
    """import gg

out: list[str] = []
for i in range(2):
    try:
        out.append(str(gg.fixture.add(1, 1)))
    except gg.ApiError as e:
        out.append(str(e))
gg.files.write_file("turn2.txt", "\\n".join(out))
""",
    """import gg

gg.files.write_file("pid.txt", str(gg.fixture.pid()["result"]))
gg.session.finish(str(gg.fixture.add(4, 4)))
""",
)

PROGRAMS = {"javascript": JAVASCRIPT, "typescript": TYPESCRIPT, "python": PYTHON, "python-typed": PYTHON}
