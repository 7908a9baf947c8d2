"""One program's run in the worker: a fresh booted session (`boot`), the code modules loaded, the
program fed as `program.py`, and every suspension answered.

Rules kept here:
- every program gets a session of its own, booted for it and given back after it (nothing a program
  leaves reaches the next); while it waits for the next program the worker boots one ahead for the
  same ceilings (`prepare`), and drops it for a program with other ceilings;
- each code module runs in a feed of its own (only when the program mentions `lib`), in the order
  given, and becomes an attribute of `lib`; then the program itself is fed, unchanged;
- `import gg` and `import lib` are answered with the booted objects; any other import the engine does
  not provide itself is `ModuleNotFoundError`; an undefined name stays undefined (`NameError`);
  an OS call is left to the engine's default (refused), except a sleep: `time.sleep` waits, and
  `asyncio.sleep` is a future the other tasks run past (`Sleeps`);
- an SDK call is served by `HostCalls`, at once (it is never a future);
- the checked twin first type-checks the program in a throwaway session whose feed may not run
  for more than a microsecond, so the check's verdict comes before anything of the program runs.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_monty import (
    ExternalModule,
    FunctionSnapshot,
    FutureSnapshot,
    Monty,
    MontyComplete,
    MontyCrashedError,
    MontyError,
    MontyRuntimeError,
    MontySyntaxError,
    MontyTypingError,
    NameLookupSnapshot,
    ResourceLimits,
)

from gg.sandbox.monty.worker.boot import SCRIPT_NAME, Booted, boot, boot_source
from gg.sandbox.monty.worker.capture import LibSource, Prints, Sources, describe
from gg.sandbox.monty.worker.channel import Channel
from gg.sandbox.monty.worker.hostcall import HostCalls, HostOperation, Words
from gg.sandbox.monty.worker.sleeps import ASYNC_SLEEP, Sleeps

CHECK_FEED_SECS = 1e-6
_MENTIONS_LIB = re.compile(r"\blib\b")
_LOADER = """import lib as _lib
_ns = {"__name__": "lib." + _key}
exec(_source, _ns)
_module = type("lib." + _key, (), {})()
for _name in _ns:
    if not _name.startswith("_"):
        setattr(_module, _name, _ns[_name])
setattr(_lib, _key, _module)
"""

SyncSnapshot = FunctionSnapshot | NameLookupSnapshot | FutureSnapshot | MontyComplete


@dataclass(frozen=True)
class Job:
    id: int
    program: str
    libs: tuple[tuple[str, str], ...]
    timeout_secs: float
    memory_bytes: int
    checked: bool

    @classmethod
    def from_message(cls, message: Mapping[str, Any]) -> Job:
        libs = tuple((str(key), str(source)) for key, source in (message.get("libs") or {}).items())
        return cls(
            int(message["id"]),
            str(message["program"]),
            libs,
            float(message["timeoutSecs"]),
            int(message["memoryBytes"]),
            bool(message.get("checked")),
        )


class Engine:
    """The worker's lasting state: the engine pool and the SDK it boots into every session."""

    def __init__(self, pool: Monty, channel: Channel, init: Mapping[str, Any]) -> None:
        self.pool = pool
        self.channel = channel
        self.boot_source = boot_source(init["prelude"])
        self.operations = {name: HostOperation.from_spec(spec) for name, spec in init["operations"].items()}
        self.words = Words(init["words"])
        self.prelude_spans = [(str(n), int(a), int(b)) for n, a, b in init["preludeSpans"]]
        self.cap = int(init["maxHostCalls"])
        self.max_lines = int(init["maxLogLines"])
        self.max_line_chars = int(init["maxLogLineChars"])
        self.host_module = host_module(self.operations, init["stubs"])
        self.lib_stubs = ExternalModule({}, stubs=init["stubs"]["lib"])
        self.spare: Booted | None = None

    def take(self, job: Job) -> Booted:
        """A booted session for `job`: the spare when it was made for the same ceilings."""
        spare, self.spare = self.spare, None
        ceilings = (job.timeout_secs, job.memory_bytes)
        if spare is not None and spare.ceilings == ceilings:
            return spare
        if spare is not None:
            spare.close()
        return self._boot(ceilings)

    def _boot(self, ceilings: tuple[float, int]) -> Booted:
        return boot(self.pool, self.boot_source, self.host_module, self.cap, ceilings)

    def prepare(self, job: Job) -> None:
        """Boot the next program's session ahead, for `job`'s ceilings (not on the checked twin,
        whose check needs the engine's one process first)."""
        if job.checked or self.spare is not None:
            return
        try:
            self.spare = boot(
                self.pool, self.boot_source, self.host_module, self.cap, (job.timeout_secs, job.memory_bytes)
            )
        except MontyError:
            self.spare = None  # the next program boots its own, and meets the failure there

    def close(self) -> None:
        if self.spare is not None:
            self.spare.close()
            self.spare = None

    def run(self, job: Job) -> dict[str, Any]:
        """The `done` message for `job` (a `checked` message goes out first on the checked twin)."""
        compile_ms: float | None = None
        if job.checked:
            started = time.monotonic()
            try:
                diagnostics = self.check(job)
            except MontyCrashedError as crash:
                return {"t": "done", "id": job.id, "status": "trap", "detail": str(crash)[:2000]}
            compile_ms = (time.monotonic() - started) * 1000
            if diagnostics is not None:
                return {
                    "t": "done",
                    "id": job.id,
                    "status": "compile",
                    "diagnostics": diagnostics,
                    "compileMs": compile_ms,
                }
            self.channel.send({"t": "checked", "id": job.id, "ms": compile_ms})
        done = ProgramRun(self, job).execute()
        return {**done, "compileMs": compile_ms}

    def check(self, job: Job) -> str | None:
        """The type checker's diagnostics for `job`'s program, or None when it passes."""
        limits: ResourceLimits = {"max_feed_duration_secs": CHECK_FEED_SECS, "max_memory": job.memory_bytes}
        modules = {"gg": self.host_module, "lib": self.lib_stubs}
        with self.pool.checkout(
            script_name=SCRIPT_NAME,
            limits=limits,
            type_check=True,
            type_check_format="concise",
            external_modules=modules,
        ) as session:
            try:
                snap = session.feed_start(job.program, print_callback=lambda stream, text: None)
                while isinstance(snap, FunctionSnapshot) and snap.function_name == "import_stubs":
                    snap = snap.resume_auto()
            except MontyTypingError as rejected:
                return rejected.display()
            except MontyCrashedError:
                raise
            except MontyError:
                return None  # the check passed; the run stopped at once
        return None


def host_module(operations: Mapping[str, HostOperation], stubs: Mapping[str, str]) -> ExternalModule:
    """The host side of `gg`: one placeholder function per operation (calls arrive as snapshots and
    are answered by `HostCalls`), and every module's stub for the type checker."""
    families: dict[str, dict[str, Any]] = {}
    for name in operations:
        _, family, key = name.split(".", 2)
        families.setdefault(family, {})[key] = _answered_elsewhere
    for module in stubs:
        if module.startswith("gg.") and module != "gg.core":
            families.setdefault(module[3:], {})
    attrs: dict[str, Any] = {
        family: ExternalModule(functions, stubs=stubs.get(f"gg.{family}"))
        for family, functions in families.items()
    }
    attrs["core"] = ExternalModule({}, stubs=stubs.get("gg.core"))
    return ExternalModule(attrs, stubs=stubs.get("gg"))


def _answered_elsewhere(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("an SDK call is answered through its snapshot")


class ProgramRun:
    """One job in one fresh session."""

    def __init__(self, engine: Engine, job: Job) -> None:
        self.engine = engine
        self.job = job
        self.prints = Prints(engine.max_lines, engine.max_line_chars, self._stream)
        self.calls = HostCalls(engine.channel, job.id, engine.operations, engine.words, engine.cap)
        self.sources = Sources(program=job.program.splitlines(), prelude_spans=engine.prelude_spans)
        self.objects: dict[str, Any] = {}
        self.sleeps = Sleeps()
        self.feeds = 1  # the session's feed 0 was its boot

    def _stream(self, lines: list[str], dropped: int) -> None:
        self.engine.channel.send({"t": "logs", "id": self.job.id, "lines": lines, "dropped": dropped})

    def execute(self) -> dict[str, Any]:
        started = time.monotonic()
        try:
            outcome = self._boot_and_run()
        except MontyCrashedError as crash:
            lost = "memory" in str(crash).lower()
            outcome = {"status": "oom" if lost else "trap", "detail": str(crash)[:2000]}
        logs = self.prints.finish()
        ms = (time.monotonic() - started) * 1000
        return {
            "t": "done",
            "id": self.job.id,
            **outcome,
            "logs": logs,
            "dropped": self.prints.dropped,
            "refusedCalls": self.calls.refused,
            "ms": ms,
        }

    def _boot_and_run(self) -> dict[str, Any]:
        try:
            booted = self.engine.take(self.job)
        except MontyCrashedError:
            raise
        except MontyError as broken:
            return {"status": "defect", "detail": str(broken)[:2000]}
        self.objects = booted.objects
        try:
            return self._run(booted.session)
        finally:
            booted.close()

    def _run(self, session: Any) -> dict[str, Any]:
        if self.job.libs and _MENTIONS_LIB.search(self.job.program):
            for key, source in self.job.libs:
                self.sources.loading = LibSource.of(key, source)
                loader = f"exec({_LOADER!r}, {{'_key': {key!r}, '_source': {source!r}}})"
                try:
                    self._feed(session, loader)
                except (MontyRuntimeError, MontySyntaxError) as error:
                    return self._threw(error)
                self.sources.libs.append(self.sources.loading)
                self.sources.loading = None
        self.sources.program_feed = f"<python-input-{self.feeds}>"
        try:
            self._feed(session, self.job.program)
        except (MontyRuntimeError, MontySyntaxError) as error:
            return self._threw(error)
        return {"status": "ok"}

    def _threw(self, error: MontyRuntimeError | MontySyntaxError) -> dict[str, Any]:
        message = error.display("msg")
        kind = "syntax" if isinstance(error, MontySyntaxError) else "error"
        failure = describe(kind, error.display("type-msg"), message, error.traceback(), self.sources)
        failure["api"] = failure["type"] == "OSError" and message in self.calls.raised
        return {"status": "threw", "failure": failure}

    def _feed(self, session: Any, code: str) -> Any:
        self.feeds += 1
        snap: SyncSnapshot = session.feed_start(code, print_callback=self.prints)
        while not isinstance(snap, MontyComplete):
            snap = self._answer(snap)
        return snap.output

    def _answer(self, snap: SyncSnapshot) -> SyncSnapshot:
        if isinstance(snap, NameLookupSnapshot):
            return snap.resume()
        if isinstance(snap, FutureSnapshot):
            return snap.resume(self.sleeps.settle(snap.pending_call_ids))  # pyright: ignore[reportArgumentType]
        assert isinstance(snap, FunctionSnapshot)
        name = snap.function_name
        if name == "import":
            module = str(snap.args[0]) if snap.args else ""
            if module in self.objects:
                return snap.resume({"return_value": self.objects[module]})
            return snap.resume({"exc_type": "ModuleNotFoundError", "message": f"No module named '{module}'"})
        if name == "import_stubs":
            return snap.resume_auto()
        if snap.is_os_function:
            return self._os_call(snap)
        return snap.resume(self.calls.serve(name, snap.args))  # pyright: ignore[reportArgumentType]

    def _os_call(self, snap: FunctionSnapshot) -> SyncSnapshot:
        """A sleep waits (`time.sleep`) or is parked (`asyncio.sleep`); any other is refused."""
        secs = snap.args[0] if snap.args else None
        if not isinstance(secs, int | float) or isinstance(secs, bool):
            return snap.resume_not_handled()
        if snap.function_name == "system.sleep":
            time.sleep(max(0.0, float(secs)))
            return snap.resume({"return_value": None})
        if snap.function_name == ASYNC_SLEEP:
            self.sleeps.park(snap.call_id, float(secs))
            return snap.resume({"future": ...})
        return snap.resume_not_handled()
