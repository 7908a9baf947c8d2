// The Deno main thread of a guest pool: relays between Python and one Worker per program.
//
// Rules kept here:
// - the only channel to Python is the private unix socket named by the one argument; messages
//   are JSON lines (`init`, `run`, `reply` in; `ready`, `call`, `done` out);
// - a Worker talks to this thread only over the private ports handed to it at creation; its
//   `parentPort`/`postMessage` traffic is ignored, so a program cannot forge a call or a `done`;
// - a reply reaches the blocked Worker as a port message plus an Atomics store and notify;
// - logs are kept here as a capped tail (200 lines) with a count of the lines dropped; Python
//   asks for them (`logs`) before it kills the process of a run stopped at its ceiling;
// - one spare Worker is booted after each `done` is written, for the next program; `ready` is
//   sent once the first spare has booted;
// - the time ceiling is not kept here: Deno's `worker.terminate()` does not stop a Worker that is
//   still running JavaScript, so Python kills this whole process when a program overruns. A
//   `done` says `crowded` when Workers that should have ended are still alive.
import { Worker, MessageChannel } from "node:worker_threads";

const MAX_LOG_LINES = 200;
const MAX_LIVE_WORKERS = 3;
const CODE_RANGE_MB = 32; // without it each Worker reserves ~530 MB, which RLIMIT_DATA counts
const encoder = new TextEncoder();
const conn = await Deno.connect({ transport: "unix", path: Deno.args[0] });
const writer = conn.writable.getWriter();

const pool = { boot: null, bundle: null, spare: null, current: null, live: new Set() };

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
  pool.live.add(slot);
  ctl.port1.on("message", (message) => onWorkerMessage(slot, message));
  worker.on("error", (error) => onWorkerError(slot, error));
  worker.on("exit", () => onWorkerExit(slot));
  return slot;
}

function takeWorker(heapMb) {
  const spare = pool.spare;
  pool.spare = null;
  if (spare && !spare.dead && spare.heapMb === heapMb) return spare;
  if (spare) retire(spare);
  return bootWorker(heapMb);
}

function bootSpare(heapMb) {
  if (pool.spare === null && pool.current === null) pool.spare = bootWorker(heapMb);
}

function retire(slot) {
  slot.dead = true;
  slot.worker.terminate().catch(() => {});
  slot.ctl.close();
  slot.reply.close();
}

// ---- one run -------------------------------------------------------------------------------

function startRun(message) {
  const slot = takeWorker(message.heapMb);
  const run = { id: message.id, started: performance.now(), calling: false, logs: [], dropped: 0, over: false };
  slot.run = run;
  pool.current = slot;
  slot.ctl.postMessage({ t: "run", program: message.program, lang: message.lang, libs: message.libs });
}

function keepLogs(run, lines) {
  for (const line of lines) run.logs.push(String(line));
  const over = run.logs.length - MAX_LOG_LINES;
  if (over > 0) {
    run.logs.splice(0, over);
    run.dropped += over;
  }
}

function finish(slot, result) {
  const run = slot.run;
  if (run === null || run.over) return;
  run.over = true;
  retire(slot);
  if (pool.current === slot) pool.current = null;
  const ms = performance.now() - run.started;
  const crowded = pool.live.size > MAX_LIVE_WORKERS;
  sendMessage({ t: "done", id: run.id, ms, logs: run.logs, dropped: run.dropped, crowded, ...result });
  setTimeout(() => bootSpare(slot.heapMb), 0);
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
  pool.live.delete(slot);
  if (slot.run !== null) finish(slot, { status: "trap", detail: "the worker exited" });
}

function sendLogs(id) {
  const run = pool.current?.run;
  if (run && run.id === id) sendMessage({ t: "logs", id, logs: run.logs, dropped: run.dropped });
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
  if (message.t === "logs") return sendLogs(message.id);
  if (message.t === "init") {
    pool.boot = new URL("data:text/javascript," + encodeURIComponent(message.boot));
    pool.bundle = { sdk: message.sdk, words: message.words, families: message.families };
    pool.spare = bootWorker(message.heapMb);
    pool.spare.onReady = () => sendMessage({ t: "ready" });
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
