// The Deno main thread of a guest pool: relays between Python and one Worker per program.
//
// Rules kept here:
// - the only channel to Python is the private unix socket named by the one argument; messages
//   are JSON lines (`init`, `run`, `go`, `reply`, `rest` in; `ready`, `waiting`, `started`,
//   `call`, `logs`, `done` out);
// - a Worker talks to this thread only over the private ports handed to it at creation; its
//   `parentPort`/`postMessage` traffic is ignored, so a program cannot forge a call or a `done`;
// - a reply reaches the blocked Worker as a port message plus an Atomics store and notify;
// - the lines a program logs are kept here as a capped tail (200 lines) with a count of the
//   lines dropped, which `done` carries; they are also streamed to Python as they come: at once
//   when the last batch went out `LOG_BATCH_MS` ago or more, else in the next batch (at most 200
//   lines, the lines left out counted), so a program stopped at its ceiling keeps what it logged;
// - `SPARE_WORKERS` Workers are kept booted for the next programs, so programs that come back
//   to back (a hand-over chain, several submissions of one reply) each find one ready. Booting
//   holds this thread up, so spares are booted one at a time and only once it has been idle for
//   `REFILL_IDLE_MS`; a program that finds none booted starts on the first that is, and Python
//   is told (`waiting` at once, `started` with the time it waited), so the wait is not on the
//   program's clock. `ready` is sent once the first spare has booted;
// - Python holds the process to a tight data limit while a program runs, so no Worker boots then:
//   a run begins only once no Worker is booting and the one retired last has ended (or
//   `RETIRE_WAIT_MS` passed), says `started`, and hands the program to its Worker on `go` (sent
//   once the limit is set); spares are booted again only after `rest` (sent once it is lifted);
// - Workers have no `resourceLimits`: with them, Deno ends a Worker as out of memory on any
//   last-resort collection, so an allocation the data limit refuses never becomes the RangeError
//   that names the program's line. The heap is bounded by the data limit and V8's own flags;
// - the time ceiling is not kept here: Deno's `worker.terminate()` does not stop a Worker that is
//   still running JavaScript, so Python kills this whole process when a program overruns. A
//   `done` says `crowded` when Workers that should have ended are still alive.
import { MessageChannel, Worker } from "node:worker_threads";

const MAX_LOG_LINES = 200;
const LOG_BATCH_MS = 20;
const SPARE_WORKERS = 4; // a whole hand-over chain runs back to back on Workers booted beforehand
const REFILL_IDLE_MS = 10; // how long the thread must be idle before it boots the next spare
const MAX_LINGERING_WORKERS = 2; // retired Workers still alive past which a process is crowded
const RETIRE_WAIT_MS = 50; // the longest a run waits for the Worker retired before it to end
const encoder = new TextEncoder();
const conn = await Deno.connect({ transport: "unix", path: Deno.args[0] });
const writer = conn.writable.getWriter();

const pool = {
  boot: null, bundle: null, spares: [], current: null, waiting: null, refill: null,
  retired: new Set(), announced: false,
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
  const reply = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const workerData = { ctl: ctl.port2, reply: reply.port2, flag, ...pool.bundle };
  const worker = new Worker(pool.boot, { workerData, transferList: [ctl.port2, reply.port2] });
  const slot = { worker, ctl: ctl.port1, reply: reply.port1, flag, ready: false, run: null, program: null, dead: false };
  ctl.port1.on("message", (message) => onWorkerMessage(slot, message));
  worker.on("error", (error) => onWorkerError(slot, error));
  worker.on("exit", () => onWorkerExit(slot));
  return slot;
}

function scheduleRefill() {
  if (pool.refill !== null) clearTimeout(pool.refill);
  pool.refill = setTimeout(refill, REFILL_IDLE_MS);
}

// Booting a Worker holds this thread up for most of its boot, so spares are booted one at a time
// and only while no program runs; a program that arrives meanwhile waits for one boot at most.
function refill() {
  pool.refill = null;
  pool.spares = pool.spares.filter((spare) => !spare.dead);
  if (pool.current !== null || pool.spares.length >= SPARE_WORKERS) return;
  pool.spares.push(bootWorker());
  scheduleRefill();
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
  slot.reply.close();
}

// ---- one run -------------------------------------------------------------------------------

function startRun(message) {
  pool.spares = pool.spares.filter((spare) => !spare.dead);
  const slot = settled(message) ? pool.spares.shift() ?? null : null;
  if (slot === null) {
    if (pool.waiting === null) {
      sendMessage({ t: "waiting", id: message.id }); // before a boot holds us up
      if (pool.retired.size > 0) setTimeout(() => startWaiting(message), RETIRE_WAIT_MS);
    }
    pool.waiting = message; // started as soon as the process has settled and a spare is ready
    if (pool.spares.length === 0) pool.spares.push(bootWorker());
    return;
  }
  const waited = pool.waiting !== null ? { waitedMs: performance.now() - message.received } : {};
  pool.waiting = null;
  const run = {
    id: message.id, started: performance.now(), calling: false, logs: [], dropped: 0, over: false,
    outbox: [], outDropped: 0, lastSent: -Infinity, timer: null,
  };
  slot.run = run;
  slot.program = { t: "run", program: message.program, lang: message.lang, libs: message.libs };
  pool.current = slot;
  sendMessage({ t: "started", id: message.id, ...waited });
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

function capped(lines, keep) {
  const over = lines.length - keep;
  if (over > 0) lines.splice(0, over);
  return Math.max(over, 0);
}

function keepLogs(run, lines) {
  for (const line of lines) {
    run.logs.push(String(line));
    run.outbox.push(String(line));
  }
  run.dropped += capped(run.logs, MAX_LOG_LINES);
  run.outDropped += capped(run.outbox, MAX_LOG_LINES);
  const wait = run.lastSent + LOG_BATCH_MS - performance.now();
  if (wait <= 0) streamLogs(run);
  else if (run.timer === null) run.timer = setTimeout(() => streamLogs(run), wait);
}

function streamLogs(run) {
  if (run.timer !== null) clearTimeout(run.timer);
  run.timer = null;
  if (run.outbox.length === 0 && run.outDropped === 0) return;
  sendMessage({ t: "logs", id: run.id, lines: run.outbox, dropped: run.outDropped });
  run.outbox = [];
  run.outDropped = 0;
  run.lastSent = performance.now();
}

function finish(slot, result) {
  const run = slot.run;
  if (run === null || run.over) return;
  run.over = true;
  streamLogs(run);
  const lingering = pool.retired.size;
  retire(slot);
  if (pool.current === slot) pool.current = null;
  const ms = performance.now() - run.started;
  const crowded = lingering > MAX_LINGERING_WORKERS;
  sendMessage({ t: "done", id: run.id, ms, logs: run.logs, dropped: run.dropped, crowded, ...result });
}

function onReady(slot) {
  slot.ready = true;
  if (!pool.announced) {
    pool.announced = true;
    sendMessage({ t: "ready" });
  }
  if (pool.waiting !== null) startWaiting(pool.waiting);
  else scheduleRefill();
}

function onWorkerMessage(slot, message) {
  if (message === null || typeof message !== "object") return;
  if (message.t === "ready" && !slot.ready && !slot.dead) return onReady(slot);
  const run = slot.run;
  if (run === null || run.over) return;
  if (message.t === "call") {
    run.calling = true;
    send(`{"t":"call","id":${run.id},"op":${JSON.stringify(String(message.op))},"args":${String(message.args)}}`);
  } else if (message.t === "logs") {
    keepLogs(run, message.lines);
  } else if (message.t === "done") {
    const refusedCalls = Number(message.refusedCalls) || 0;
    finish(slot, message.failure ? { status: "threw", failure: message.failure, refusedCalls } : { status: "ok", refusedCalls });
  }
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

function relayReply(line) {
  const slot = pool.current;
  const id = Number(/"id":(\d+)/.exec(line.slice(0, 64))?.[1]);
  if (slot === null || slot.run.over || !slot.run.calling || slot.run.id !== id) return;
  slot.run.calling = false;
  slot.reply.postMessage(line);
  Atomics.store(slot.flag, 0, 1);
  Atomics.notify(slot.flag, 0);
}

// ---- the channel to Python -----------------------------------------------------------------

function onLine(line) {
  if (line.startsWith('{"t":"reply"')) return relayReply(line);
  const message = JSON.parse(line);
  if (message.t === "run") return startRun({ ...message, received: performance.now() });
  if (message.t === "go") return go(message.id);
  if (message.t === "rest") return scheduleRefill();
  if (message.t === "init") {
    pool.boot = new URL("data:text/javascript," + encodeURIComponent(message.boot));
    const { sdk, words, families, callCap, plainDepth } = message;
    pool.bundle = { sdk, words, families, callCap, plainDepth };
    pool.spares.push(bootWorker());
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
