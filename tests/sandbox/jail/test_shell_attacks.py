"""The shell attack cases (`tests/cases/attacks/NNN-<arm>-shell-*.yaml`) on every arm, against
gg's real SDK, membrane and jail.

Each case's program runs byte for byte (tokens substituted) under its ceilings and its `shell`
params, against the canary fixture of the cases' README, with the canary variables in the
harness's environment and a real listener on 127.0.0.1 for `@@PORT@@`. The baseline holds for
every case: no canary and no passwd line in any view, log or error text (B1); nothing created or
changed outside the workspace and no `/tmp/gg-pwned*` marker (B2); the listener accepts nothing
during the case nor within 1 s after it (B3); no process of the case is alive after any shell
call returns, and a trivial program runs within 2 s afterwards (B4); a documented outcome only,
within the case's `wall_secs` (B5). Each test then checks its case's own expectations.
"""

from __future__ import annotations

import json
import re
import resource
import secrets
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

import gg
from gg.agents.shell import hidden_from_jails
from gg.config.catalogue import Role
from gg.config.ceilings import Ceilings
from gg.outcome import ErrorKind, ErrorType
from gg.sandbox.execution import Arm, Execution
from gg.sandbox.jail import JailPolicy, open_jail
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.sdk.shell import ShellAccess
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.attack_fixture import build_canary, ceilings_of, markers_in_tmp, outside_snapshot, substitute
from support.guest_world import QuietLog
from support.shared_arms import ArmShelf
from support.wall_bounds import ANSWERED_WITHIN_SECS

CASES = Path(__file__).resolve().parents[2] / "cases" / "attacks"
SHELL_CASES = sorted(CASES.glob("*-shell-*.yaml"))
PASSWD_LINE = re.compile(r"^root:[^:]*:0:0:", re.M)
LINE = re.compile(
    r"^(?P<label>[\w-]+) (?:=> exit=(?P<exit>\d+) truncated=(?P<truncated>\w+) dropped=(?P<dropped>\d+) "
    r"out=(?P<out>.*)|!! (?P<code>[\w-]+): (?P<message>.*))$"
)
TRIVIAL = {
    "javascript": 'import { views } from "gg"; views.openText("alive", "yes");',
    "python": 'from gg import views\nviews.open_text("alive", "yes")\n',
}
ENVIRONMENT = {"GG_CANARY_ENV": "CANARY-ENV-51ac0e", "OPENAI_API_KEY": "sk-CANARY-KEY-a7d2f9"}


class Listener:
    """The canary listener on 127.0.0.1: records every connection it accepts."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.socket.getsockname()[1]
        self.accepted: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            connection.settimeout(0.5)
            try:
                self.accepted.append(connection.recv(256))
            except OSError:
                self.accepted.append(b"")
            connection.close()


@dataclass(frozen=True)
class Probe:
    """One line of a case's `probe` view: a command's result or its ApiError."""

    label: str
    exit_code: int | None = None
    truncated: bool = False
    dropped: int = 0
    output: str = ""
    code: str | None = None
    message: str = ""


def probes(text: str) -> dict[str, Probe]:
    found: dict[str, Probe] = {}
    for line in text.splitlines():
        match = LINE.match(line)
        assert match, line
        if match["code"]:
            found[match["label"]] = Probe(
                match["label"], code=match["code"], message=json.loads(match["message"])
            )
        else:
            found[match["label"]] = Probe(
                match["label"],
                int(match["exit"]),
                match["truncated"] == "true",
                int(match["dropped"]),
                json.loads(match["out"]),
            )
    return found


@dataclass
class Outcome:
    execution: Execution
    views: dict[str, str]
    seconds: float

    @property
    def type(self) -> ErrorType | None:
        return self.execution.failure.type if self.execution.failure else None

    @property
    def text(self) -> str:
        parts = [*self.views, *self.views.values(), *self.execution.logs]
        if self.execution.failure:
            parts.append(self.execution.failure.text)
        return "\n".join(parts)


@dataclass
class Watched:
    """The membrane, and what was alive on the host after each shell call returned."""

    membrane: Membrane
    mark: str
    leftovers: list[list[int]] = field(default_factory=list[list[int]])

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        try:
            return self.membrane(operation, args)
        finally:
            if operation == "shell.shell":
                self.leftovers.append(alive_with(self.mark))


def alive_with(text: str) -> list[int]:
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@dataclass
class World:
    root: Path
    case: dict[str, Any]
    arm: Arm
    listener: Listener
    mark: str = field(default_factory=lambda: f"1000.{secrets.randbelow(10**9):09d}")
    outcomes: list[Outcome] = field(default_factory=list[Outcome])
    watched: list[Watched] = field(default_factory=list[Watched])

    @property
    def ceilings(self) -> Ceilings:
        return ceilings_of(self.case)

    def tokens(self, text: str) -> str:
        text = text.replace("@@PORT@@", str(self.listener.port)).replace("@@MARK@@", self.mark)
        text = text.replace("@@HARNESS@@", str(Path(gg.__file__).parent))
        return substitute(text.replace("@@STORE@@", str(Path.cwd() / ".gg")), self.root)

    def access(self) -> ShellAccess:
        params = self.case["shell"]
        policy = JailPolicy(
            (self.root / "ws").resolve(),
            int(params.get("maxMemoryBytes", 1 << 32)),
            bool(params.get("network", False)),
            hidden_from_jails(),
            int(params.get("maxFileBytes", 1 << 30)),
        )
        return ShellAccess(open_jail(policy), float(params.get("timeoutSecs", 120)))

    def run(self, program: str, shell: ShellAccess) -> Outcome:
        views = ViewSet()
        spell = default_registry().spelling(self.arm.language)
        workspace = Workspace(self.root / "ws")
        scope = ProgramScope(
            "root", Role.STANDARD, frozenset({"shell"}), workspace, views, 1, shell=shell, spell=spell
        )
        watched = Watched(Membrane(default_registry(), scope, QuietLog(), self.arm.language), self.mark)
        self.watched.append(watched)
        start = time.monotonic()
        execution = self.arm.run(self.tokens(program), watched, self.ceilings)
        seconds = time.monotonic() - start
        shown = {view.selector: view.render().split("\n----\n", 1)[-1] for view in views.close_turn()}
        outcome = Outcome(execution, shown, seconds)
        self.outcomes.append(outcome)
        return outcome

    def main(self) -> tuple[Outcome, dict[str, Probe]]:
        shell = self.access()
        outcome = self.run(self.case["program"], shell)
        assert outcome.seconds < float(self.case["wall_secs"]), outcome.seconds
        for followup in self.case.get("followup", []):
            self.run(followup["program"], shell)
        assert outcome.execution.failure is None, outcome.execution.failure
        return outcome, probes(outcome.views["probe"])


@pytest.fixture
def world(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    arms: ArmShelf,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[World]:
    case = yaml.safe_load(Path(request.param).read_text())
    build_canary(tmp_path, case)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    # gg's own Deno cache (a guest started here fills it) is kept apart from the home whose every
    # byte the case checks: Deno writes it, never the command
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("gg-cache")))
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    listener = Listener()
    before, markers = outside_snapshot(tmp_path), markers_in_tmp()
    world = World(tmp_path, case, arms.get(case["arm"]), listener)
    try:
        yield world
        _check_baseline(world, before, markers)
    finally:
        listener.socket.close()


def _check_baseline(world: World, before: dict[str, bytes], markers: set[Path]) -> None:
    for outcome in world.outcomes:
        assert "CANARY-" not in outcome.text, outcome.text[:3000]
        assert not PASSWD_LINE.search(outcome.text)
        if outcome.type is not None:
            assert outcome.type.kind in {ErrorKind.PROGRAM_FAULT, ErrorKind.SANDBOX_LIMIT}, outcome.type
    assert all(left == [] for watched in world.watched for left in watched.leftovers)
    assert outside_snapshot(world.root) == before
    assert markers_in_tmp() == markers
    time.sleep(1.0)
    assert world.listener.accepted == [], world.listener.accepted
    assert alive_with(world.mark) == []
    start = time.monotonic()
    assert _trivial(world).ok and time.monotonic() - start < ANSWERED_WITHIN_SECS


def _trivial(world: World) -> Execution:
    language = world.arm.language
    spell = default_registry().spelling(language)
    scope = ProgramScope(
        "root", Role.STANDARD, frozenset(), Workspace(world.root / "ws"), ViewSet(), 1, spell=spell
    )
    program = TRIVIAL["python" if language.startswith("python") else "javascript"]
    membrane = Membrane(default_registry(), scope, QuietLog(), language)
    return world.arm.run(program, membrane, Ceilings(5.0, 256 * 1024 * 1024))


def _cases(slug: str) -> list[Any]:
    return [pytest.param(str(path), id=path.stem) for path in SHELL_CASES if path.stem.endswith(slug)]


def _failed(probe: Probe) -> bool:
    return probe.code is None and probe.exit_code not in (None, 0)


@pytest.mark.parametrize("world", _cases("shell-escapes"), indirect=True)
def test_a_command_reads_no_host_secret_and_writes_nothing_outside(world: World) -> None:
    _, seen = world.main()
    for label in (
        "shadow",
        "ssh-key",
        "ssh-tilde",
        "ssh-root",
        "bashrc",
        "outside",
        "sibling",
        "harness",
        "store",
    ):
        assert _failed(seen[label]), seen[label]
    search = seen["harness-search"].output
    assert "membrane.py" not in search and "runs.db" not in search and "gg-jail-etc" not in search
    assert seen["passwd"].exit_code == 0 and seen["passwd"].output.startswith("gg:x:")
    names = {line.split("=", 1)[0] for line in seen["env"].output.splitlines() if "=" in line}
    assert names <= {"PATH", "HOME", "LANG", "PWD"}, names
    assert seen["env-vars"].output == "[][][]\n"
    assert seen["write-tmp"].output == "x\n"
    assert _failed(seen["write-outside"]) and _failed(seen["symlink-out"])
    assert "Read-only file system" in seen["write-system"].output
    assert seen["write-system"].output.count("Read-only file system") == 3
    assert seen["write-sysctl"].output.count("Read-only file system") == 2


@pytest.mark.parametrize("world", _cases("shell-network"), indirect=True)
def test_a_command_reaches_no_network(world: World) -> None:
    _, seen = world.main()
    for label in ("loopback", "loopback-name", "outside-address"):
        assert "connected" not in seen[label].output, seen[label]
    assert "Connection refused" in seen["loopback"].output
    assert "Network is unreachable" in seen["outside-address"].output
    assert seen["dns"].output.endswith("no-answer\n")
    assert seen["interfaces"].output.split() == ["lo"]


@pytest.mark.parametrize("world", _cases("shell-leftovers"), indirect=True)
def test_every_process_a_command_left_is_gone_when_its_call_returns(world: World) -> None:
    _, seen = world.main()
    for label in ("background", "nohup", "setsid", "double-fork", "closed-streams"):
        assert (seen[label].exit_code, seen[label].output) == (0, "started\n"), seen[label]
    timeout = seen["timeout"]
    assert timeout.code == "limit-exceeded" and timeout.message.endswith("waiting\n")
    assert [len(left) for left in world.watched[0].leftovers] == [0] * 6
    (after,) = probes(world.outcomes[1].views["next"]).values()
    assert after.exit_code == 0 and int(after.output) <= 4


@pytest.mark.parametrize("world", _cases("shell-floods"), indirect=True)
def test_floods_of_memory_disk_processes_and_output_are_bounded(world: World) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcome, seen = world.main()
    # The program is never stopped at its 2 s ceiling, however long the floods take (on a slow
    # machine longer than it): the commands' time is not the program's. How long they take is the
    # machine's; the clock rule itself is pinned by test_time_in_a_command_is_off_the_programs_clock.
    assert outcome.execution.failure is None, outcome.execution.failure
    assert "Out of memory" in seen["memory"].output
    assert "No space left on device" in seen["memory-tmp"].output
    held = int(seen["memory-tmp"].output.splitlines()[-1])
    assert 256 * 1024 * 1024 - 8 * 1024 * 1024 < held <= 256 * 1024 * 1024
    assert seen["disk-file"].output.endswith("rc=153\n8388608\n")
    assert seen["disk-many"].output.endswith("41943040\ttotal\n")
    # The bomb meets the process bound either way. Whether the top shell can still fork its `sleep`
    # once the bomb holds every process is a race the kernel decides: the call then ends at its 3 s
    # timeout (`limit-exceeded`, as the case expects) or at once, the shell's own fork refused.
    bomb = seen["fork-bomb"]
    if bomb.code is None:
        assert bomb.exit_code != 0 and "Cannot fork" in bomb.output, bomb
    else:
        assert bomb.code == "limit-exceeded" and "Cannot fork" in bomb.message, bomb
    flood = seen["flood"]
    assert flood.exit_code == 0 and flood.truncated and flood.output == "END\n"  # from a line's start
    assert flood.dropped == 100_000_000 + len("\n")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024
    ansi = seen["ansi"].output
    assert ansi == "red  done\n", ansi
    assert (world.root / "ws" / "fill.bin").stat().st_size == 8 * 1024 * 1024
