// The Deno main thread of a guest pool: boots the Workers programs run in and starts each program
// on one.
//
// Rules kept here:
// - the only channel to Python is the private unix socket named by the one argument; messages
//   are JSON lines (`init`, `run`, `go`, `rest` in; `ready`, `waiting`, `started`, `done` out);
//   a running program's calls and lines never pass here: its Worker speaks to Python over the
//   run's own named pipes, which the `run` message names;
// - a Worker talks to this thread only over the private port handed to it at creation; its
//   `parentPort`/`postMessage` traffic is ignored, so a program cannot forge a `done`;
// - spare Workers are kept booted for the next programs, so programs that come back to back (a
//   hand-over chain, several submissions of one reply) each find one ready; how many, and how
//   many are kept warm, Python says at `init` (`gg.sandbox.deno.workers`). Booting
//   holds this thread for the whole boot, so Workers are booted one at a time: a program that
//   finds none booted starts on the first that is, and Python is told (`waiting` as soon as
//   this thread reads the run, `started` with the time it waited); `ready` is sent once the
//   first Worker has booted. Each Worker kept warm (below) takes the place of a spare, down to
//   one spare, and none once the warm set is full: an owner whose Worker is warm needs none;
// - spares are booted only while no program runs or waits: at once after `rest` when none is
//   left (the next program needs one, and the boot goes on while gg prepares it), else once the
//   process has been idle for `REFILL_IDLE_MS` (as while a model thinks), so programs replayed
//   back to back are not held up by a boot they do not need;
// - Python holds the process to a tight data limit while a program runs, so no Worker boots then
//   (a boot maps half a gigabyte for a moment): a run begins only once no Worker is booting and
//   the one retired last has ended (or `RETIRE_WAIT_MS` passed), says `started`, and hands the
//   program to its Worker on `go` (sent once the limit is set); spares are booted again only
//   after `rest` (sent once it is lifted), until the next run comes;
// - a run names its owner (one agent incarnation) or none. A Worker whose program of an owner
//   ended `ok` or `threw` is kept warm for that owner's next program instead of retired, for
//   `WARM_RUNS` programs at most, for the `warmOwners` owners served last (the oldest is
//   retired; none is retired while a run holds the process) and while the next comes within
//   `warmIdleMs` (work a program left behind runs no longer than that past its owner's last
//   program); a run of that owner takes it before any spare. Each program still runs in a realm
//   of its own (`realm.js`); only an owner's own later programs share its Worker's realm. A run
//   with no owner gets a fresh Worker, retired after it;
// - Workers have no `resourceLimits`: with them, Deno ends a Worker as out of memory on any
//   last-resort collection, so an allocation the data limit refuses never becomes the RangeError
//   that names the program's line. The heap is bounded by the data limit and V8's own flags;
// - each ready Worker says what V8 holds for it (`heap`); `started` says what the warm Workers of
//   other owners hold at the least (`neighbours`: each, the least a ready Worker held), which the
//   run's memory allowance leaves to them (`gg.sandbox.deno.memory`);
// - the time ceiling is not kept here: Deno's `worker.terminate()` does not stop a Worker that is
//   still running JavaScript, so Python kills this whole process when a program overruns. A
//   `done` says `crowded` when Workers that should have ended are still alive.
import { MessageChannel, Worker } from "node:worker_threads";

const REFILL_IDLE_MS = 100; // idle this long (between turns), the spares are booted again
const RETIRE_WAIT_MS = 50; // the longest a run waits for the Worker retired before it to end
// A warm Worker serves one owner this many programs, then is retired: what realms leave in the
// Worker beyond the realms themselves, which are collected (`realm.js`), such as compiled code V8
// keeps and the blob store, is bounded by it, and a boot (~50 ms) over 64 programs is under 1 ms each.
const WARM_RUNS = 64;
const encoder = new TextEncoder();
const conn = await Deno.connect({ transport: "unix", path: Deno.args[0] });
const writer = conn.writable.getWriter();

const pool = {
  boot: null, bundle: null, spares: [], current: null, waiting: null, refill: null,
  retired: new Set(), announced: false, resting: true, warm: new Map(), // owner -> Worker, oldest first
  workerBytes: null, // the least a ready Worker held, as V8 counted it (its heap and external memory)
  // How many Workers to hold, as Python says at `init` (`gg.sandbox.deno.workers`).
  spareWorkers: 1, warmOwners: 0, warmIdleMs: 0, lingeringWorkers: 0,
};

function send(line) {
  writer.write(encoder.encode(line + "\n")).catch(() => Deno.exit(0));
}

function sendMessage(message) {
  send(JSON.stringify(message));
}

// ---- workers -------------------------------------------------------------------------------

function bootWorker() {
  const ctl = new MessageChannel();
  const workerData = { ctl: ctl.port2, ...pool.bundle };
  const worker = new Worker(pool.boot, { workerData, transferList: [ctl.port2] });
  const slot = { worker, ctl: ctl.port1, ready: false, run: null, program: null, dead: false, served: 0, idle: null };
  ctl.port1.on("message", (message) => onWorkerMessage(slot, message));
  worker.on("error", (error) => onWorkerError(slot, error));
  worker.on("exit", () => onWorkerExit(slot));
  pool.spares.push(slot);
}

function scheduleRefill(afterMs) {
  if (pool.refill !== null) clearTimeout(pool.refill);
  pool.refill = setTimeout(refill, afterMs);
}

// Spares are booted only at rest: from `rest` (or the start) until the next run.
function refill() {
  pool.refill = null;
  prune();
  if (!pool.resting || pool.waiting !== null || pool.spares.length >= sparesWanted()) return;
  bootWorker();
}

// After `rest`: each warm Worker makes its next realm ahead; the next spare is booted at once
// when none is left, else only once the process has been idle a while.
function rested() {
  pool.resting = true;
  prune();
  for (const slot of pool.warm.values()) if (!slot.dead) slot.ctl.postMessage({ t: "prepare" });
  scheduleRefill(pool.spares.length === 0 ? 0 : REFILL_IDLE_MS);
}

// How many spares to keep: each warm Worker takes the place of one, down to one spare; none while
// the warm set is full.
function sparesWanted() {
  if (pool.warmOwners > 0 && pool.warm.size >= pool.warmOwners) return 0;
  return Math.max(pool.spareWorkers - pool.warm.size, 1);
}

function prune() {
  pool.spares = pool.spares.filter((spare) => !spare.dead);
}

// Whether a run may begin: no Worker is booting (a boot must not go on under the data limit the
// run is held to), and the Worker retired last is gone, so what the process holds idle is not
// the last program's (one that has not ended within `RETIRE_WAIT_MS` counts as the process's).
function settled(message) {
  if (pool.spares.some((spare) => !spare.ready)) return false;
  return pool.retired.size === 0 || performance.now() - message.received >= RETIRE_WAIT_MS;
}

function retire(slot) {
  slot.dead = true;
  pool.retired.add(slot);
  slot.worker.terminate().catch(() => {});
  slot.ctl.close();
}

// ---- one run -------------------------------------------------------------------------------

function startRun(message) {
  pool.resting = false;
  if (pool.refill !== null) clearTimeout(pool.refill);
  pool.refill = null;
  prune();
  const slot = settled(message) ? warmWorker(message.owner) ?? pool.spares.shift() ?? null : null;
  if (slot === null) return waitForSpare(message);
  const waited = pool.waiting !== null ? { waitedMs: performance.now() - message.received } : {};
  pool.waiting = null;
  const owner = typeof message.owner === "string" ? message.owner : null;
  slot.run = { id: message.id, started: performance.now(), over: false, owner };
  slot.served += 1;
  slot.program = { t: "run", program: message.program, lang: message.lang, libs: message.libs, channel: message.channel };
  pool.current = slot;
  sendMessage({ t: "started", id: message.id, neighbours: neighbourBytes(), ...waited });
}

// What the warm Workers of other owners hold at the least: each, what a ready Worker held. The
// run's own warm Worker is out of the warm set by now, so what it kept is the run's to bear.
function neighbourBytes() {
  let warm = 0;
  for (const slot of pool.warm.values()) if (!slot.dead) warm += 1;
  return warm * (pool.workerBytes ?? 0);
}

// The Worker kept warm for `owner`, taken out of the warm set; none for a run with no owner.
function warmWorker(owner) {
  if (typeof owner !== "string" || !pool.warm.has(owner)) return null;
  const slot = pool.warm.get(owner);
  pool.warm.delete(owner);
  clearTimeout(slot.idle);
  return slot.dead ? null : slot;
}

// After its program ended `ok` or `threw`, a Worker serves its owner again while it may.
function keepWarm(slot, result) {
  const owner = slot.run.owner;
  if (owner === null || slot.dead || slot.served >= WARM_RUNS) return false;
  if (result.status !== "ok" && result.status !== "threw") return false;
  pool.warm.delete(owner);
  pool.warm.set(owner, slot);
  slot.idle = setTimeout(() => coolDown(owner, slot), pool.warmIdleMs);
  if (pool.warm.size > pool.warmOwners) coolDown(...pool.warm.entries().next().value);
  return true;
}

// `owner`'s warm Worker is retired, if it is still `slot`; while a run holds the process, only once
// it is done (the run's allowance counted the Worker as its owner's).
function coolDown(owner, slot) {
  if (pool.warm.get(owner) !== slot) return;
  if (pool.current !== null) {
    slot.idle = setTimeout(() => coolDown(owner, slot), REFILL_IDLE_MS);
    return;
  }
  pool.warm.delete(owner);
  clearTimeout(slot.idle);
  retire(slot);
}

// No spare may take the run yet: say so once, with whether a Worker boots for it (none does when
// the run waits only for the Worker retired last to end), and boot one when none is left.
function waitForSpare(message) {
  const first = pool.waiting === null;
  pool.waiting = message;
  if (!first) return;
  const booting = pool.spares.length === 0 || pool.spares.some((spare) => !spare.ready);
  sendMessage({ t: "waiting", id: message.id, booting });
  if (pool.retired.size > 0) setTimeout(() => startWaiting(message), RETIRE_WAIT_MS);
  if (pool.spares.length === 0) bootWorker();
}

function startWaiting(message) {
  if (pool.waiting === message && pool.current === null) startRun(message);
}

// Python has set the run's data limit: the program goes to its Worker.
function go(id) {
  const slot = pool.current;
  if (slot === null || slot.program === null || slot.run.id !== id) return;
  slot.run.started = performance.now();
  slot.ctl.postMessage(slot.program);
  slot.program = null;
}

function finish(slot, result) {
  const run = slot.run;
  if (run === null || run.over) return;
  run.over = true;
  const lingering = pool.retired.size;
  if (pool.current === slot) pool.current = null;
  if (!keepWarm(slot, result)) retire(slot);
  const ms = performance.now() - run.started;
  const crowded = lingering > pool.lingeringWorkers;
  sendMessage({ t: "done", id: run.id, ms, crowded, ...result });
}

function onReady(slot, heap) {
  slot.ready = true;
  if (Number.isFinite(heap) && heap > 0) pool.workerBytes = Math.min(pool.workerBytes ?? heap, heap);
  if (!pool.announced) {
    pool.announced = true;
    sendMessage({ t: "ready" });
  }
  if (pool.waiting !== null) startWaiting(pool.waiting);
  else if (pool.resting) scheduleRefill(REFILL_IDLE_MS);
}

function onWorkerMessage(slot, message) {
  if (message === null || typeof message !== "object") return;
  if (message.t === "ready" && !slot.ready && !slot.dead) return onReady(slot, Number(message.heap));
  if (slot.run === null || slot.run.over) return;
  const refusedCalls = Number(message.refusedCalls) || 0;
  if (message.t === "done" && message.failure) finish(slot, { status: "threw", failure: message.failure, refusedCalls });
  else if (message.t === "done") finish(slot, { status: "ok", refusedCalls });
  else if (message.t === "broken") finish(slot, { status: "trap", detail: String(message.detail) });
}

function onWorkerError(slot, error) {
  slot.dead = true;
  if (slot.run === null) return;
  const status = error?.code === "ERR_WORKER_OUT_OF_MEMORY" ? "oom" : "trap";
  finish(slot, { status, detail: String(error?.message ?? error) });
}

function onWorkerExit(slot) {
  slot.dead = true;
  pool.retired.delete(slot);
  if (slot.run !== null && !slot.run.over) return finish(slot, { status: "trap", detail: "the worker exited" });
  if (pool.waiting !== null) startWaiting(pool.waiting); // a spare died booting, or the last retired is gone
}

// ---- the channel to Python -----------------------------------------------------------------

function onLine(line) {
  const message = JSON.parse(line);
  if (message.t === "run") return startRun({ ...message, received: performance.now() });
  if (message.t === "go") return go(message.id);
  if (message.t === "rest") return rested();
  if (message.t === "init") {
    pool.boot = new URL("data:text/javascript," + encodeURIComponent(message.boot));
    const { sdk, words, families, callCap, plainDepth } = message;
    pool.bundle = { sdk, words, families, callCap, plainDepth };
    pool.spareWorkers = message.spareWorkers;
    pool.warmOwners = message.warmOwners;
    pool.warmIdleMs = message.warmIdleMs;
    pool.lingeringWorkers = message.lingeringWorkers;
    bootWorker();
  }
}

async function* lines(readable) {
  const decoder = new TextDecoder();
  let pending = [];
  for await (const chunk of readable) {
    let text = decoder.decode(chunk, { stream: true });
    let cut;
    while ((cut = text.indexOf("\n")) >= 0) {
      pending.push(text.slice(0, cut));
      yield pending.join("");
      pending = [];
      text = text.slice(cut + 1);
    }
    if (text) pending.push(text);
  }
}

for await (const line of lines(conn.readable)) onLine(line);
Deno.exit(0);
