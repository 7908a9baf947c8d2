// The worker boot module: a node:worker_threads Worker that runs programs, each in a realm of its
// own (`realm.js`, appended to this module), one at a time.
//
// Rules kept here:
// - every specifier resolves through `resolveSpecifier`: `gg`, `gg:<family>`, `gg:core` and
//   `lib:<key>` for anyone; `sdk:/...` and the program itself only for gg's own modules; every
//   other specifier becomes a `refused:` URL whose load throws the refusal sentence;
// - the lockdown runs on the Worker's own global after the node imports: what a program must
//   not reach is deleted, timers and fetch are throwers naming what is missing; a realm gets
//   what is left;
// - the program talks to gg over the run's own two named pipes, never through the main thread:
//   its calls, the lines it logs and the run's `end` go out as JSON lines, built here from
//   strings alone (nothing a program planted on a prototype can change a line), and each call
//   blocks until its one reply line has come back; the pipes are closed at the run's end;
// - console output is kept here, each line cut to 2 KiB: the first lines go out one by one (a
//   program stopped at its ceiling keeps them), then at most every `LOG_BATCH_MS`, and before
//   every call and at the end; between two batches only the last `MAX_LOG_LINES` are kept, the
//   others counted as dropped;
// - the program's outcome is the first uncaught failure of its own: the module's own throw, an
//   error raised from a job, or a rejection of one of its realm's promises still unhandled once
//   the job queue is empty; a failure of another realm (work an earlier program left behind)
//   is not counted;
// - a TypeScript program (`program.ts`) and a `.ts` code module run with their types stripped:
//   blanked out in place, so every position stays the author's; a construct that needs code
//   (an enum, a parameter property) is transformed instead, with a source map naming the file.
import { stripTypeScriptTypes } from "node:module";
import { setImmediate } from "node:timers";
import v8 from "node:v8";
import vm from "node:vm";
import { workerData } from "node:worker_threads";

const { ctl, sdk, words, families, callCap, plainDepth } = workerData;
const G = globalThis;
const inspectValue = G.Deno.inspect;
const openFile = G.Deno.openSync;
const memoryUsage = G.Deno.memoryUsage;
const setV8Flags = v8.setFlagsFromString;
const runInNewContext = vm.runInNewContext;
const now = G.performance.now.bind(G.performance);
const post = ctl.postMessage.bind(ctl);
const uncurry = (f) => G.Function.prototype.call.bind(f);
const writeFile = uncurry(G.Deno.FsFile.prototype.writeSync);
const readFile = uncurry(G.Deno.FsFile.prototype.readSync);
const closeFile = uncurry(G.Deno.FsFile.prototype.close);
const isPrototypeOf = uncurry(G.Object.prototype.isPrototypeOf);
const encoder = new G.TextEncoder();
const decoder = new G.TextDecoder();
const encodeText = uncurry(G.TextEncoder.prototype.encode);
const decodeBytes = uncurry(G.TextDecoder.prototype.decode);
const Bytes = G.Uint8Array;
const TypedArrayPrototype = G.Object.getPrototypeOf(G.Uint8Array.prototype);
const byteLength = uncurry(G.Object.getOwnPropertyDescriptor(TypedArrayPrototype, "length").get);
const bufferOf = uncurry(G.Object.getOwnPropertyDescriptor(TypedArrayPrototype, "buffer").get);
const copyBytes = uncurry(TypedArrayPrototype.set);
const Buffer = G.ArrayBuffer;
const stringify = G.JSON.stringify;
const createRecord = () => G.Object.create(null);
const sliceText = uncurry(G.String.prototype.slice);
const searchText = uncurry(G.String.prototype.search);
const splitText = uncurry(G.String.prototype.split);
const replaceText = uncurry(G.String.prototype.replace);
const replaceAllText = uncurry(G.String.prototype.replaceAll);
const lastIndexOfText = uncurry(G.String.prototype.lastIndexOf);
const trimText = uncurry(G.String.prototype.trim);
const codeAt = uncurry(G.String.prototype.charCodeAt);
const hasOwn = G.Object.hasOwn;
const ownKeys = G.Object.keys;
const ReferenceErrorClass = G.ReferenceError;
const ErrorClass = G.Error;
const LINE_CHARS = 2048;
const HEAD_CHARS = 4096;
const FRAME_CHARS = 400; // characters (code points) of one frame, its location kept whole
const PROGRAM_URLS = { js: "sandbox:/program.js", ts: "sandbox:/program.ts" };
const STRIPPED_NAME = "file:///stripTypeScriptTypes.ts";
const MAP_PREFIX = "//# sourceMappingURL=data:application/json;base64,";
const stripTypes = stripTypeScriptTypes;
const decodeBase64 = G.atob;
const encodeBase64 = G.btoa;
const SyntaxErrorClass = G.SyntaxError;

let program = "";
let programUrl = PROGRAM_URLS.js;
let libs = new Map();
const refusals = new Map();

// ---- wording -------------------------------------------------------------------------------

function say(key, values) {
  return replaceText(words[key], /\{(\w+)\}/g, (whole, name) => (hasOwn(values, name) ? values[name] : whole));
}

// ---- module resolution ---------------------------------------------------------------------

function isInternalParent(parentURL) {
  const parent = String(parentURL ?? "");
  return parent.startsWith("sdk:/");
}

function refuse(spec, sentence) {
  const url = "refused:" + encodeURIComponent(spec);
  refusals.set(url, sentence);
  return url;
}

function libRefusal(spec) {
  const keys = [...libs.keys()];
  const key = sliceText(spec, 4);
  if (keys.length === 0) return say("importNoLibs", { spec, key });
  return say("importLib", { spec, key, keys: keys.join(", ") });
}

function resolveSpecifier(spec, parentURL) {
  if (spec === "gg") return "sdk:/gg.js";
  if (spec.startsWith("gg:")) {
    const family = spec.slice(3);
    if (family === "core" || families.includes(family)) return `sdk:/${family}.js`;
    return refuse(spec, say("importFamily", { spec }));
  }
  if (spec.startsWith("lib:")) return libs.has(spec.slice(4)) ? spec : refuse(spec, libRefusal(spec));
  if (isInternalParent(parentURL)) {
    if (spec === programUrl || hasOwn(sdk, spec)) return spec;
  }
  if (spec.startsWith("sdk:") || spec.startsWith("sandbox:")) return refuse(spec, say("importInternal", { spec }));
  return refuse(spec, say("importElsewhere", { spec }));
}

function loadSource(url) {
  if (url === programUrl) return programUrl === PROGRAM_URLS.ts ? stripped(program, url) : program;
  if (hasOwn(sdk, url)) return sdk[url];
  if (url.startsWith("lib:") && libs.has(url.slice(4))) {
    const lib = libs.get(url.slice(4));
    return lib.extension === "ts" ? stripped(lib.source, url) : lib.source;
  }
  throw refusals.get(url) ?? say("importElsewhere", { spec: url });
}

// ---- TypeScript ----------------------------------------------------------------------------

function renamed(error, url) {
  const name = replaceText(url, "sandbox:/", "");
  const message = replaceAllText(String(error?.message ?? error), STRIPPED_NAME, name);
  return new SyntaxErrorClass(message);
}

function mapped(code, url) {
  const at = lastIndexOfText(code, MAP_PREFIX);
  if (at < 0) return code;
  const map = replaceAllText(decodeBase64(trimText(sliceText(code, at + MAP_PREFIX.length))), STRIPPED_NAME, url);
  keepSourceMap(url, map);
  return sliceText(code, 0, at) + MAP_PREFIX + encodeBase64(map);
}

function stripped(source, url) {
  try {
    return stripTypes(source, { mode: "strip" });
  } catch {
    // a construct strip mode cannot blank out: transform it, keeping positions through a map
  }
  try {
    return mapped(stripTypes(source, { mode: "transform", sourceMap: true }), url);
  } catch (error) {
    throw renamed(error, url);
  }
}

// ---- the run's channel ---------------------------------------------------------------------

const READ_BYTES = 1 << 16;
const NEWLINE = 10;
const inboxBuffer = new Buffer(READ_BYTES);
const inbox = new Bytes(inboxBuffer);
const channel = { calls: null, replies: null };

function openChannel(paths) {
  channel.calls = openFile(paths.calls, { write: true });
  channel.replies = openFile(paths.replies, { read: true });
}

function closeChannel() {
  for (const file of [channel.calls, channel.replies]) {
    try {
      closeFile(file);
    } catch {
      // already closed
    }
  }
  channel.calls = null;
  channel.replies = null;
}

// One line out: `text` is gg's own JSON, built from strings alone.
function sendLine(text) {
  const bytes = encodeText(encoder, text + "\n");
  const length = byteLength(bytes);
  let sent = writeFile(channel.calls, bytes);
  while (sent < length) sent += writeFile(channel.calls, new Bytes(bufferOf(bytes), sent));
}

// The one reply line to the call just sent, without its newline.
function receiveLine() {
  let got = readFile(channel.replies, inbox);
  if (got === null) throw new ErrorClass("gg's channel is closed: the program is over");
  if (inbox[got - 1] === NEWLINE) return decodeBytes(decoder, new Bytes(inboxBuffer, 0, got - 1));
  const parts = createRecord();
  let count = 0;
  let total = 0;
  for (;;) {
    const part = new Bytes(got);
    copyBytes(part, new Bytes(inboxBuffer, 0, got));
    parts[count++] = part;
    total += got;
    if (part[got - 1] === NEWLINE) break;
    got = readFile(channel.replies, inbox);
    if (got === null) throw new ErrorClass("gg's channel is closed: the program is over");
  }
  const wholeBuffer = new Buffer(total);
  const whole = new Bytes(wholeBuffer);
  for (let i = 0, at = 0; i < count; at += byteLength(parts[i]), i++) copyBytes(whole, parts[i], at);
  return decodeBytes(decoder, new Bytes(wholeBuffer, 0, total - 1));
}

// ---- console capture -----------------------------------------------------------------------

const MAX_LOG_LINES = 200;
const EAGER_LOG_LINES = 200;
const LOG_BATCH_MS = 20;
// The lines not sent yet, a ring of the last `MAX_LOG_LINES` (a record with no prototype, so no
// setter a program plants on Array.prototype sees them), and how many were pushed out of it.
const logs = { ring: createRecord(), first: 0, size: 0, dropped: 0, lastFlush: -Infinity, count: 0 };

function keepLine(line) {
  logs.ring[(logs.first + logs.size) % MAX_LOG_LINES] = line;
  if (logs.size < MAX_LOG_LINES) logs.size += 1;
  else {
    logs.first = (logs.first + 1) % MAX_LOG_LINES;
    logs.dropped += 1;
  }
}

function flushLogs() {
  if (logs.size === 0 && logs.dropped === 0) return;
  let lines = "";
  for (let i = 0; i < logs.size; i++) {
    const line = logs.ring[(logs.first + i) % MAX_LOG_LINES];
    lines += (i ? "," : "") + (typeof line === "string" ? stringify(line) : '""');
  }
  const dropped = logs.dropped;
  logs.first = 0;
  logs.size = 0;
  logs.dropped = 0;
  logs.lastFlush = now();
  sendLine('{"t":"logs","dropped":' + dropped + ',"lines":[' + lines + "]}");
}

function cut(text, limit) {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return sliceText(text, 0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit) + "\u2026";
}

function show(value) {
  if (typeof value === "string") return sliceText(value, 0, LINE_CHARS + 1);
  try {
    return sliceText(String(inspectValue(value, { depth: 4, colors: false, iterableLimit: 100, strAbbreviateSize: LINE_CHARS })), 0, LINE_CHARS + 1);
  } catch {
    return "[a value that cannot be shown]";
  }
}

function record(args) {
  let line = "";
  for (let i = 0; i < args.length && line.length <= LINE_CHARS; i++) line += (i ? " " : "") + show(args[i]);
  keepLine(cut(line, LINE_CHARS));
  logs.count += 1;
  if (logs.count <= EAGER_LOG_LINES || now() - logs.lastFlush >= LOG_BATCH_MS) flushLogs();
}

// ---- the bridge ----------------------------------------------------------------------------

// One call out and its reply line. The realm's runtime gets this only through `bridgeOf`.
function invoke(operation, argsJson) {
  flushLogs();
  sendLine('{"t":"call","op":' + stringify(operation) + ',"args":' + argsJson + "}");
  return receiveLine();
}

// ---- failure capture -----------------------------------------------------------------------

function splitStack(stack) {
  const cut = searchText(stack, /\n\s+at /);
  if (cut < 0) return { head: stack, frames: [] };
  const frames = splitText(sliceText(stack, cut + 1), "\n");
  for (let i = 0; i < frames.length; i++) frames[i] = shownFrame(frames[i]);
  return { head: sliceText(stack, 0, cut), frames };
}

// A frame of at most `FRAME_CHARS` characters: a longer one keeps its location (`(file:line:col)`)
// whole and cuts what comes before it, never inside a surrogate pair, marking the cut with `…`.
function shownFrame(frame) {
  if (charactersFrom(frame, 0) <= FRAME_CHARS) return frame;
  const open = lastIndexOfText(frame, " (");
  const located = open > 0 && codeAt(frame, frame.length - 1) === 41; // ")"
  const location = located ? sliceText(frame, open) : "";
  const room = FRAME_CHARS - 1 - charactersFrom(location, 0);
  if (room < 1) return firstCharacters(frame, FRAME_CHARS - 1) + "\u2026";
  return firstCharacters(located ? sliceText(frame, 0, open) : frame, room) + "\u2026" + location;
}

// The first `count` characters (code points) of `text`.
function firstCharacters(text, count) {
  let end = 0;
  for (let n = 0; n < count && end < text.length; n++) end += isPairAt(text, end) ? 2 : 1;
  return sliceText(text, 0, end);
}

function isPairAt(text, at) {
  const code = codeAt(text, at);
  if (code < 0xd800 || code > 0xdbff || at + 1 >= text.length) return false;
  const next = codeAt(text, at + 1);
  return next >= 0xdc00 && next <= 0xdfff;
}

function ownProperties(error) {
  const props = [];
  for (const key of ownKeys(error)) {
    if (key === "stack" || key === "message" || props.length >= 8) continue;
    props[props.length] = [key, show(typeof error[key] === "string" ? G.JSON.stringify(error[key]) : error[key])];
  }
  return props;
}

function kindOf(error) {
  const realm = current.realm;
  if (realm !== null && realm.ApiError !== null && error instanceof realm.ApiError) return "api";
  if (realm !== null && error instanceof realm.ReferenceError) return "name";
  if (error instanceof ReferenceErrorClass) return "name";
  return "throw";
}

// How many characters (code points, as Python counts them) `text` holds from `from` on.
function charactersFrom(text, from) {
  let count = 0;
  for (let i = from; i < text.length; i += isPairAt(text, i) ? 2 : 1) count++;
  return count;
}

// `text` cut to `limit` code units (never inside a pair), and how many characters were left out.
function kept(text, limit) {
  if (text.length <= limit) return { text, cut: 0 };
  const code = codeAt(text, limit - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  return { text: sliceText(text, 0, end), cut: charactersFrom(text, end) };
}

function fullText(value) {
  if (typeof value === "string") return value;
  try {
    return String(inspectValue(value, { depth: 4, colors: false, iterableLimit: 100, strAbbreviateSize: HEAD_CHARS }));
  } catch {
    return "[a value that cannot be shown]";
  }
}

function describe(error, rejected) {
  try {
    if (error === null || typeof error !== "object" || typeof error.stack !== "string") {
      const value = kept(fullText(error), HEAD_CHARS);
      return { kind: "throw", rejected, value: value.text, valueCut: value.cut };
    }
    const { head, frames } = splitStack(remapped(error.stack));
    const fallback = `${error.name}: ${error.message}`;
    const shown = kept(head || fallback, HEAD_CHARS);
    return { kind: kindOf(error), rejected, head: shown.text, headCut: shown.cut, frames, props: ownProperties(error) };
  } catch {
    return { kind: "throw", rejected, value: "[a thrown value that cannot be shown]" };
  }
}

// The program now running: its realm, its outcome, its calls; `null` between programs.
const current = { run: null, realm: null };

function fail(error, rejected) {
  const run = current.run;
  if (run === null || run.over) return;
  if (run.failure === null) run.failure = describe(error, rejected);
}

// A failure counts for the program now running only when it is that program's own: an object
// of another realm (an earlier program's leftover work) is dropped.
function ownFailure(error) {
  const realm = current.realm;
  if (realm === null) return false;
  if (error === null || (typeof error !== "object" && typeof error !== "function")) return true;
  return isPrototypeOf(realm.ObjectPrototype, error) || isPrototypeOf(G.Object.prototype, error);
}

G.addEventListener("error", (event) => { event.preventDefault(); if (ownFailure(event.error)) fail(event.error, false); });
G.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  if (ownPromise(event.promise)) fail(event.reason, true);
});

function ownPromise(promise) {
  const realm = current.realm;
  return realm !== null && isPrototypeOf(realm.PromisePrototype, promise);
}

// ---- lockdown ------------------------------------------------------------------------------

const REMOVED = [
  "Deno", "process", "Buffer", "global", "require", "module", "caches", "CacheStorage", "Cache",
  "BroadcastChannel", "Worker", "SharedWorker", "WebSocket", "WebSocketStream", "EventSource",
  "XMLHttpRequest", "WebTransport", "navigator", "Navigator", "localStorage", "sessionStorage",
  "Storage", "indexedDB", "postMessage", "close", "onmessage", "onmessageerror", "importScripts",
  "Lock", "LockManager", "GPU", "createImageBitmap", "OffscreenCanvas", "ImageBitmapRenderingContext",
  "nodeBootstrap", "location", "WorkerLocation", "WorkerNavigator", "NavigatorUAData", "name", "gc",
];
const UNAVAILABLE = [
  "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate",
  "requestAnimationFrame", "cancelAnimationFrame", "fetch",
];

function lockdown() {
  for (const name of G.Object.getOwnPropertyNames(G)) {
    if (REMOVED.includes(name) || name.startsWith("GPU")) delete G[name];
  }
  for (const name of UNAVAILABLE) {
    const thrower = { [name]() { throw new Error(say("unavailable", { name })); } }[name];
    G.Object.defineProperty(G, name, { value: thrower, writable: true, configurable: true, enumerable: false });
  }
}

lockdown();

// ---- running the program -------------------------------------------------------------------

// One macrotask later the job queue has run dry and every rejection left unhandled has been
// reported. `setImmediate` is that task; a zero `setTimeout` costs the same and 2-3 ms more.
function drained() {
  return new Promise((resolve) => setImmediate(resolve));
}

async function runProgram(message) {
  tidy(); // should the last run's realm still be held, the program never meets it
  try {
    openChannel(message.channel);
  } catch (error) {
    post({ t: "broken", detail: String(error?.message ?? error) });
    return;
  }
  program = message.program;
  programUrl = message.lang === "ts" ? PROGRAM_URLS.ts : PROGRAM_URLS.js;
  libs = new Map(G.Object.entries(message.libs ?? {}));
  refusals.clear();
  sourceMaps.clear();
  logs.count = 0;
  logs.lastFlush = -Infinity;
  const next = prepared === null ? openRun() : prepared.catch(openRun);
  prepared = null;
  const opened = await next.catch((error) => ({ run: newRun(), realm: null, error }));
  current.run = opened.run;
  current.realm = opened.realm;
  try {
    if (opened.realm === null) throw opened.error;
    await evaluated(opened.realm, programUrl);
    await drained();
  } catch (error) {
    fail(error, false);
  }
  endRun(opened.run);
  if (opened.realm !== null) closeRealm(opened.realm);
}

// ---- realms made ahead ---------------------------------------------------------------------

// The next program's run record and realm, its SDK loaded, made while the Worker waits: at boot
// and, for a Worker kept for its owner, once gg has lifted the data limit (`prepare`).
let prepared = null;

function newRun() {
  return { over: false, failure: null, calls: null };
}

async function openRun() {
  const run = newRun();
  return { run, realm: await openRealm(run) };
}

function prepare() {
  if (prepared !== null) return prepared;
  prepared = openRun();
  prepared.catch(() => {}); // the run that takes it opens another
  return prepared;
}

// The run is over: its bridge is revoked, so what the program left behind can never call, log
// or end a run again; its last lines and `end` go out, the channel is closed.
function endRun(run) {
  flushLogs();
  run.over = true;
  sendLine('{"t":"end"}');
  closeChannel();
  const refusedCalls = run.calls === null ? 0 : Number(run.calls.refused) || 0;
  current.run = null;
  current.realm = null;
  post({ t: "done", failure: run.failure, refusedCalls });
}

ctl.on("message", (message) => {
  if (message?.t === "run") runProgram(message);
  else if (message?.t === "prepare") prepare();
});
// `realm.js` is evaluated by now: the first realm is made before the Worker says it is ready, and
// what V8 then holds for this Worker (its heap and external memory) goes with the word.
const heldBytes = () => {
  const usage = memoryUsage();
  return usage.heapTotal + usage.external;
};
queueMicrotask(() =>
  prepare().finally(() => {
    restingHeap = memoryUsage().heapUsed;
    post({ t: "ready", heap: heldBytes() });
  }),
);
