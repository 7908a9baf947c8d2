"""The JavaScript guest's ceilings, engine failures, lockdown, isolation between programs and logs."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import struct
import termios
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from jsworld import CEILINGS, JAVASCRIPT, TRIVIAL, Host, host, registry, run

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.channel import CHANNEL_FOLDER, RunChannel
from gg.sandbox.deno.pool import MAIN_HEAP_MB, DenoPool, start
from gg.sandbox.deno.serving import Held, Serving, drain
from gg.sandbox.deno.wire import DenoProcess, run_message
from gg.sandbox.livelogs import StreamedTail
from gg.sandbox.watch import Deadline, Watch
from gg.sdk.codemodule import CodeModule
from support.manual_clock import HeldClock, ManualClock
from support.wall_bounds import ANSWERED_WITHIN_SECS, STOPPED_WITHIN_SECS

pytestmark = JAVASCRIPT

__all__ = ["host"]  # fixtures


@dataclass
class HeldHost(Host):
    """A host whose `clock` stands still until the program has made its first call and logged
    `lines_before_release` lines: a ceiling on that clock counts only from then, so the program
    is stopped where the test put it however long the machine took to boot it."""

    clock: HeldClock = field(default_factory=HeldClock)
    lines_before_release: int = 0
    live: list[str] = field(default_factory=list[str])

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        self._release_when_ready(called=True)
        return super().__call__(operation, args)

    def logged(self, lines: Sequence[str], dropped: int) -> None:
        self.live.extend(lines)
        self._release_when_ready(called=bool(self.calls))

    def _release_when_ready(self, called: bool) -> None:
        if called and len(self.live) >= self.lines_before_release:
            self.clock.release()


# ---- ceilings and the engine ------------------------------------------------------------------


def assert_next_program_runs(arm: JavaScriptArm, host: Host) -> None:
    start = time.monotonic()
    execution = run(arm, host, TRIVIAL)
    assert execution.ok, execution.failure
    assert time.monotonic() - start < ANSWERED_WITHIN_SECS


@pytest.mark.parametrize(
    "source",
    [
        'import { views } from "gg";\nviews.openText("started", "spinning");\nfor (;;) {}\n',
        'import { files } from "gg";\nfor (;;) { try { files.readFile("nope"); } catch {} }\n',
        'import { views } from "gg";\nviews.openText("started", "blocking");\nAtomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\n',  # noqa: E501
    ],
)
def test_the_time_ceiling_stops_any_program_and_the_next_one_runs(host: Host, source: str) -> None:
    """The ceiling's clock runs from the program's first call, so the call is made before the
    stop on any machine; how soon after its ceiling a program is stopped is `bench/ceilings.py`'s
    to measure."""
    held = HeldHost(host.workspace)
    ceilings = Ceilings(timeout_secs=0.75, max_memory_bytes=CEILINGS.max_memory_bytes)
    with JavaScriptArm(registry(), clock=held.clock) as arm:
        execution = run(arm, held, source, ceilings)
        assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
        assert execution.failure.text == "The program was stopped at its 0.75 s timeout."
        assert 0.75 <= execution.duration_ms / 1000 < STOPPED_WITHIN_SECS
        assert held.calls, "the calls made before the stop stand"
        assert_next_program_runs(arm, held)


def test_the_lines_a_program_logged_before_its_stop_are_kept(host: Host) -> None:
    """The ceiling's clock runs once gg holds both lines, so the stop comes while the program
    spins past them on any machine."""
    held = HeldHost(host.workspace, lines_before_release=2)
    ceilings = Ceilings(timeout_secs=0.5, max_memory_bytes=CEILINGS.max_memory_bytes)
    source = (
        'import { views } from "gg";\nconsole.log("before the loop");\nconsole.log("still before");\n'
        'views.openText("spinning", "now");\nfor (;;) {}\n'
    )
    with JavaScriptArm(registry(), clock=held.clock) as arm:
        execution = run(arm, held, source, ceilings)
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert execution.logs == ("before the loop", "still before")


def test_the_ceiling_counts_from_the_programs_start_however_long_its_start_took(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock jumps 10 s between the program's send and the guest's `started` (as when a
    Worker boots for it, or a boot holds the guest, on a loaded machine): the program still has
    its whole 1 s ceiling from its start."""
    clock = ManualClock()
    send = DenoProcess.send

    def send_then_jump(process: DenoProcess, message: Mapping[str, Any]) -> None:
        send(process, message)
        if message.get("t") == "run":
            clock.advance(10.0)

    monkeypatch.setattr(DenoProcess, "send", send_then_jump)
    with JavaScriptArm(registry(), clock=clock) as arm:
        execution = run(arm, host, TRIVIAL, Ceilings(1.0, CEILINGS.max_memory_bytes))
    assert execution.ok, execution.failure
    assert host.views == {"alive": "yes"}


def test_lines_written_but_not_yet_read_when_the_guest_is_stopped_are_kept() -> None:
    """The Worker writes its lines to the run's pipe and spins; gg has read none of them when it
    stops the guest: they are read from the pipe after the stop, and stand."""
    source = 'console.log("first");\nconsole.log("second");\nfor (;;) {}\n'
    written = b'{"t":"logs","dropped":0,"lines":["first"]}\n{"t":"logs","dropped":0,"lines":["second"]}\n'
    bundle = build_bundle(registry())
    process = start(bundle, MAIN_HEAP_MB, DenoPool(bundle).data_limit(MAIN_HEAP_MB))
    channel = RunChannel(os.path.join(process.process.directory, CHANNEL_FOLDER), 1)
    try:
        process.send(run_message(1, source, "js", (), channel.paths))
        while process.receive(ANSWERED_WITHIN_SECS).get("t") != "started":
            pass
        process.send({"t": "go", "id": 1})
        until = time.monotonic() + ANSWERED_WITHIN_SECS
        while unread(channel.fileno()) < len(written) and time.monotonic() < until:
            time.sleep(0.001)
        process.stop()
        deadline = Deadline(CEILINGS.timeout_secs)
        held = Held(1, CEILINGS.max_memory_bytes, Watch(deadline, process.process))
        serving = Serving(held, lambda operation, args: None, StreamedTail(None), channel)
        drain(serving)
    finally:
        channel.close()
        process.kill()
    assert serving.streamed.tail() == (("first", "second"), 0)


def unread(fd: int) -> int:
    """How many bytes the pipe `fd` holds."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def test_a_heap_overrun_is_out_of_memory_and_the_pool_survives(arm: JavaScriptArm, host: Host) -> None:
    ceilings = Ceilings(timeout_secs=10.0, max_memory_bytes=64 * 1024 * 1024)
    execution = run(
        arm, host, "const hoard = [];\nfor (;;) hoard.push(new Array(1e6).fill(hoard.length));\n", ceilings
    )
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_OUT_OF_MEMORY
    assert "67108864 bytes" in execution.failure.text
    assert_next_program_runs(arm, host)


def test_a_lost_engine_is_a_trap_and_the_next_program_gets_a_new_one(arm: JavaScriptArm, host: Host) -> None:

    def crash(operation: str, args: object) -> None:
        pid = arm.pool.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)

    host.hook = crash
    execution = run(arm, host, 'import { files } from "gg";\nfiles.readFile("notes.txt");\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TRAP
    host.hook = None
    assert_next_program_runs(arm, host)


def test_close_from_another_thread_ends_a_running_program_at_once(host: Host) -> None:
    """The program is closed on once it runs (its first call was answered); a trap, not the
    30 s ceiling's timeout, ends it, and it ends well inside that ceiling."""
    closed: list[float] = []

    def close_soon(operation: str, args: object) -> None:
        def close() -> None:
            closed.append(time.monotonic())
            arm.close()

        threading.Timer(0.3, close).start()

    with JavaScriptArm(registry()) as arm:
        assert run(arm, host, TRIVIAL).ok
        host.hook = close_soon
        execution = run(
            arm,
            host,
            'import { views } from "gg";\nviews.openText("running", "yes");\nfor (;;) {}\n',
            Ceilings(timeout_secs=30.0, max_memory_bytes=CEILINGS.max_memory_bytes),
        )
        ended = time.monotonic()
        assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TRAP
        assert closed and ended - closed[0] < 10.0
        host.hook = None
        assert_next_program_runs(arm, host)


def test_a_defect_in_the_host_propagates_and_the_pool_recovers(arm: JavaScriptArm, host: Host) -> None:
    from gg.errors import FatalFault, GgDefect

    def broken(operation: str, args: object) -> None:
        raise GgDefect(FatalFault.HOST_FAULT, "the membrane broke")

    host.hook = broken
    with pytest.raises(GgDefect):
        run(arm, host, 'import { files } from "gg";\nfiles.readFile("notes.txt");\n')
    host.hook = None
    assert_next_program_runs(arm, host)


# ---- lockdown, isolation, logs ------------------------------------------------------------------

ALLOWED_GLOBALS = frozenset(
    """
Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date
Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError
globalThis JSON Math Intl ArrayBuffer Atomics Uint8Array Int8Array Uint16Array Int16Array Uint32Array
Int32Array BigUint64Array BigInt64Array Uint8ClampedArray Float32Array Float64Array Float16Array
DataView Map BigInt Set Iterator WeakMap WeakSet Proxy Reflect FinalizationRegistry WeakRef decodeURI
decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN console
queueMicrotask AbortController AbortSignal Blob ByteLengthQueuingStrategy CloseEvent CompressionStream
CountQueuingStrategy CryptoKey CustomEvent DecompressionStream DOMException QuotaExceededError DOMMatrix
DOMMatrixReadOnly DOMPoint DOMPointReadOnly DOMQuad DOMRect DOMRectReadOnly ErrorEvent Event EventTarget
File FileReader FormData Headers ImageData ImageBitmap MessageEvent Performance PerformanceEntry
PerformanceMark PerformanceMeasure PerformanceObserver PerformanceObserverEntryList
PromiseRejectionEvent ProgressEvent ReadableStream ReadableStreamDefaultReader Request Response
TextDecoder TextEncoder TextDecoderStream TextEncoderStream TransformStream URL URLPattern
URLSearchParams MessageChannel MessagePort WritableStream WritableStreamDefaultWriter
WritableStreamDefaultController ReadableByteStreamController ReadableStreamBYOBReader
ReadableStreamBYOBRequest ReadableStreamDefaultController TransformStreamDefaultController atob btoa
crypto Crypto SubtleCrypto performance reportError structuredClone onunhandledrejection onerror Temporal
SuppressedError DisposableStack AsyncDisposableStack SharedArrayBuffer WebAssembly
DedicatedWorkerGlobalScope setTimeout setInterval setImmediate clearTimeout clearInterval clearImmediate
requestAnimationFrame cancelAnimationFrame fetch
    """.split()  # noqa: SIM905
)


def test_the_worker_global_holds_only_the_reviewed_names(arm: JavaScriptArm, host: Host) -> None:
    program = 'import { views } from "gg";\nviews.openText("names", JSON.stringify(Object.getOwnPropertyNames(globalThis)));'  # noqa: E501
    assert run(arm, host, program).ok

    names = set(json.loads(host.views["names"]))
    assert names - ALLOWED_GLOBALS == set(), (
        "new globals appeared: review them and extend the lockdown or the list"
    )
    for gone in [
        "Deno",
        "process",
        "Buffer",
        "caches",
        "BroadcastChannel",
        "Worker",
        "WebSocket",
        "navigator",
        "postMessage",
        "nodeBootstrap",
        "location",
    ]:
        assert gone not in names


def test_nothing_a_program_leaves_behind_reaches_the_next_program(arm: JavaScriptArm, host: Host) -> None:
    counter = (
        CodeModule(
            "counter", "export const state = { runs: 0 };\nexport function bump() { return ++state.runs; }\n"
        ),
    )
    first = run(
        arm,
        host,
        (
            'import * as counter from "lib:counter";\nimport { files } from "gg";\n'
            'globalThis.leftover = 1; Object.prototype.leftoverProto = 1; globalThis[Symbol.for("gg.persist")] = 1;\n'  # noqa: E501
            'counter.bump();\nString.prototype.trim = () => "poisoned";\n'
            'try { files.readFile = () => "forged"; } catch (e) { console.log(e.name); }\n'
        ),
        modules=counter,
    )
    assert first.ok and first.logs == ("TypeError",)
    second = run(
        arm,
        host,
        (
            'import * as counter from "lib:counter";\nimport { files } from "gg";\n'
            'console.log(typeof globalThis.leftover, typeof ({}).leftoverProto, typeof globalThis[Symbol.for("gg.persist")],'  # noqa: E501
            ' counter.state.runs, " x ".trim(), files.readFile("notes.txt").kind);\n'
        ),
        modules=counter,
    )
    assert second.logs == ("undefined undefined undefined 0 x text",)


def test_the_bridge_is_gone_before_the_program_starts(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import * as gg from "gg";\n'
            "const registered = Object.getOwnPropertySymbols(globalThis).filter((s) => Symbol.keyFor(s) !== undefined);\n"  # noqa: E501
            'console.log(typeof globalThis[Symbol.for("gg.bridge")], registered.length, Object.keys(gg).join(","));\n'  # noqa: E501
        ),
    )
    assert execution.logs == ("undefined 0 ApiError,files,shell,tasks,views",)


def test_logs_are_capped_inside_the_guest_and_keep_the_tail(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'console.log("x".repeat(10 * 1024 * 1024));\n'
            "for (let i = 0; i < 200000; i++) console.log(`line ${i}`);\n"
            'const cyclic = { name: "c" }; cyclic.self = cyclic; console.log(cyclic);\n'
            'console.log(new Proxy({}, { get() { throw new Error("trap"); }, ownKeys() { throw new Error("trap"); } }));\n'  # noqa: E501
            'console.log("last");\n'
        ),
    )
    assert execution.ok, execution.failure
    assert execution.logs[-1] == "last"
    assert len(execution.logs) <= 200
    assert execution.logs_suppressed == 200003 + 1 - len(execution.logs)
    assert all(len(line.encode()) <= 2 * 1024 + 3 for line in execution.logs)


def test_close_kills_the_engine_and_removes_its_directory(host: Host) -> None:

    with JavaScriptArm(registry()) as arm:
        assert arm.pool.pid is None, "the pool starts on first use"
        assert run(arm, host, TRIVIAL).ok
        pid = arm.pool.pid
        assert pid is not None
        directory = arm.pool._leases.latest.process.directory  # type: ignore[union-attr]
        assert os.path.isdir(directory)
    assert arm.pool.pid is None
    assert not os.path.exists(directory)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_memory_outside_the_heap_counts_against_the_memory_ceiling(arm: JavaScriptArm, host: Host) -> None:
    """Typed arrays live outside the JS heap; the guest process as a whole is held to the ceiling."""
    ceilings = Ceilings(timeout_secs=30.0, max_memory_bytes=64 * 1024 * 1024)
    source = (
        'import { views } from "gg";\nconst kept = [];\n'
        "for (let i = 0; i < 12; i++) kept.push(new Uint8Array(16 * 1024 * 1024).fill(1));\n"
        'views.openText("kept", String(kept.length * 16) + " MiB");\n'
    )
    execution = run(arm, host, source, ceilings)
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_OUT_OF_MEMORY
    assert "67108864 bytes" in execution.failure.text and "kept" not in host.views
    assert_next_program_runs(arm, host)
