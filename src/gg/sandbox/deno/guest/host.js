// The Deno main thread of a guest pool: relays between Python and one Worker per program.
//
// Rules kept here:
// - the only channel to Python is the private unix socket named by the one argument; messages
//   are JSON lines (`init`, `run`, `reply` in; `ready`, `call`, `logs`, `done` out);
// - a Worker talks to this thread only over the private ports handed to it at creation; its
//   `parentPort`/`postMessage` traffic is ignored, so a program cannot forge a call or a `done`;
// - a reply reaches the blocked Worker as a port message plus an Atomics store and notify;
// - the lines a program logs are kept here as a capped tail (200 lines) with a count of the
//   lines dropped, which `done` carries; they are also streamed to Python as they come: at once
//   when the last batch went out `LOG_BATCH_MS` ago or more, else in the next batch (at most 200
//   lines, the lines left out counted), so a program stopped at its ceiling keeps what it logged;
// - `SPARE_WORKERS` Workers are kept booted for the next programs; the one a program takes is
//   replaced at once, while the program runs, so programs run back to back find one ready.
//   `ready` is sent once the first spare has booted;
// - the time ceiling is not kept here: Deno's `worker.terminate()` does not stop a Worker that is
//   still running JavaScript, so Python kills this whole process when a program overruns. A
//   `done` says `crowded` when Workers that should have ended are still alive.
import { Worker, MessageChannel } from "node:worker_threads";

const MAX_LOG_LINES = 200;
const LOG_BATCH_MS = 20;
const SPARE_WORKERS = 2;
const MAX_LINGERING_WORKERS = 2; // retired Workers still alive past which a process is crowded
const CODE_RANGE_MB = 32; // without it each Worker reserves ~530 MB, which RLIMIT_DATA counts
const encoder = new TextEncoder();
const conn = await Deno.connect({ transport: "unix", path: Deno.args[0] });
const writer = conn.writable.getWriter();

const pool = { boot: null, bundle: null, heapMb: 0, spares: [], current: null, retired: new Set() };

function send(line) {
  writer.write(encoder.encode(line + "\n")).catch(() => Deno.exit(0));
}

function sendMessage(message) {
  send(JSON.stringify(message));
}

// ---- workers -------------------------------------------------------------------------------

function bootWorker(heapMb) {
  const ctl = new MessageChannel();
  const reply = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const workerData = { ctl: ctl.port2, reply: reply.port2, flag, ...pool.bundle };
  const worker = new Worker(pool.boot, {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, codeRangeSizeMb: CODE_RANGE_MB },
    workerData,
    transferList: [ctl.port2, reply.port2],
  });
  const slot = { worker, ctl: ctl.port1, reply: reply.port1, flag, heapMb, run: null, dead: false, onReady: null };
  ctl.port1.on("message", (message) => onWorkerMessage(slot, message));
  worker.on("error", (error) => onWorkerError(slot, error));
  worker.on("exit", () => onWorkerExit(slot));
  return slot;
}

function takeWorker(heapMb) {
  if (heapMb !== pool.heapMb) {
    for (const spare of pool.spares) retire(spare);
    pool.spares = [];
    pool.heapMb = heapMb;
  }
  pool.spares = pool.spares.filter((spare) => !spare.dead);
  return pool.spares.shift() ?? bootWorker(heapMb);
}

function fillSpares() {
  while (pool.spares.length < SPARE_WORKERS) pool.spares.push(bootWorker(pool.heapMb));
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
  const slot = takeWorker(message.heapMb);
  const run = {
    id: message.id, started: performance.now(), calling: false, logs: [], dropped: 0, over: false,
    outbox: [], outDropped: 0, lastSent: -Infinity, timer: null,
  };
  slot.run = run;
  pool.current = slot;
  slot.ctl.postMessage({ t: "run", program: message.program, lang: message.lang, libs: message.libs });
  fillSpares();
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

function onWorkerMessage(slot, message) {
  if (message?.t === "ready" && slot.onReady !== null) {
    slot.onReady();
    slot.onReady = null;
  }
  const run = slot.run;
  if (run === null || run.over || message === null || typeof message !== "object") return;
  if (message.t === "call") {
    run.calling = true;
    send(`{"t":"call","id":${run.id},"op":${JSON.stringify(String(message.op))},"args":${String(message.args)}}`);
  } else if (message.t === "logs") {
    keepLogs(run, message.lines);
  } else if (message.t === "done") {
    finish(slot, message.failure ? { status: "threw", failure: message.failure } : { status: "ok" });
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
  if (slot.run !== null) finish(slot, { status: "trap", detail: "the worker exited" });
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
  if (message.t === "run") return startRun(message);
  if (message.t === "init") {
    pool.boot = new URL("data:text/javascript," + encodeURIComponent(message.boot));
    pool.bundle = { sdk: message.sdk, words: message.words, families: message.families };
    pool.heapMb = message.heapMb;
    fillSpares();
    pool.spares[0].onReady = () => sendMessage({ t: "ready" });
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
