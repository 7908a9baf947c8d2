// ---- realms (guest/realm.js, appended to the boot module) ------------------------------------
//
// Rules kept here:
// - every program runs in a realm of its own: a fresh V8 context with its own global and
//   intrinsics, in which gg's SDK modules, the `lib:` modules and the program are compiled and
//   evaluated anew, so nothing a program plants (a global, a prototype, a module's state)
//   reaches the next program, even one served by the same Worker;
// - the realm's global holds the Web APIs the Worker's global holds after the lockdown (the
//   same objects, copied; the global's inherited event methods are not among them); the console,
//   the throwers that name what is missing and the SDK's bridge record are made inside the
//   realm, so nothing else of the Worker's realm is handed over;
// - the bridge (calls and console lines) serves its own program only: once the run is over it
//   is revoked, and a call made from work the program left behind is refused inside the realm,
//   a line it logs is dropped. A call answers with a string only, never a Worker error;
// - resolution is the boot module's (`resolveSpecifier`, `loadSource`), for static and dynamic
//   imports alike; a module is compiled once per realm;
// - a realm is closed once its run is over (`closeRealm`): Deno's vm keeps every dynamic-import
//   hook it was given, with the module it was given for, for the Worker's life, and so would
//   keep each program's whole realm (measured: 0.3 MiB and more a program); a closed realm's
//   modules let go of their engine handles and its hook of the realm, so the realm can be
//   collected. Only the program and `lib:` modules get the hook: gg's own never import
//   dynamically;
// - once the Worker's heap holds `LEFT_BYTES` more than at rest (or after its last collection),
//   a closed realm is collected before the next program begins: its memory ceiling is never spent
//   on what earlier ones left, and eight agents' warm Workers fit a process (issue 27);
// - Deno sends an `import()` from code built at run time (`new Function`, an indirect `eval`) to
//   the first realm its Worker opened, whichever program builds it: in a later program it meets a
//   closed realm and is refused, naming why;
// - the program and each `lib:` module end with an import of an empty module that awaits once,
//   so their code runs from the job queue, with no frame of gg's beneath theirs; a source that
//   does not compile with it is compiled as written, for the engine's own SyntaxError;
// - a TypeScript source transformed with a source map has its failure's frames mapped back to
//   the author's positions here (V8 reads no source map of a realm's module).
const REALM_NAMES = new Set(vm.runInContext("Object.getOwnPropertyNames(globalThis)", vm.createContext({})));
const WEB_APIS = G.Object.getOwnPropertyNames(G)
  .filter((name) => !REALM_NAMES.has(name) && !UNAVAILABLE.includes(name))
  .map((name) => [name, G[name], G.Object.getOwnPropertyDescriptor(G, name).enumerable]);
const defineOn = G.Object.defineProperty;
const locatedErrors = new WeakSet(); // the SyntaxErrors `located` made
const GATE = "gg-gate:" + G.crypto.randomUUID();
const GATE_SOURCE = "await undefined;\n";
const SDK_ENTRIES = ["sdk:/core.js", "sdk:/gg.js"];
const CLOSED_REPLY = stringify({ ok: false, closed: "gg's channel is closed: the program is over" });
const CLOSED_IMPORT = () => G.Promise.reject(new ErrorClass(say("importClosed", {})));
const WORDS_JSON = stringify(words);
const QUIET_METHODS = stringify([
  "count", "countReset", "group", "groupCollapsed", "groupEnd", "time", "timeEnd", "timeLog", "clear",
  "profile", "profileEnd", "timeStamp",
]);
const THROWERS = stringify(G.Object.fromEntries(UNAVAILABLE.map((name) => [name, say("unavailable", { name })])));
// Runs inside the realm: the console (over the Worker's line sink), the throwers, and the bridge
// record the SDK runtime takes; it returns the intrinsics the boot module reads failures with.
const REALM_SETUP = `(function (record, quietNames, throwers, invoke, words, cap, plainDepth) {
  "use strict";
  delete globalThis.gc; // the engine's collector, there for the boot module alone
  const out = (...args) => { record(args); };
  const quiet = () => {};
  const methods = { log: out, info: out, debug: out, warn: out, error: out, trace: out, dir: out, dirxml: out, table: out };
  methods.assert = (condition, ...args) => { if (!condition) record(["Assertion failed", ...args]); };
  for (const name of JSON.parse(quietNames)) methods[name] = quiet;
  Object.defineProperty(globalThis, "console", { value: Object.freeze(methods), writable: true, configurable: true, enumerable: false });
  const said = JSON.parse(throwers);
  for (const name of Object.keys(said)) {
    const sentence = said[name];
    const thrower = { [name]() { throw new Error(sentence); } }[name];
    Object.defineProperty(globalThis, name, { value: thrower, writable: true, configurable: true, enumerable: false });
  }
  const calls = { cap, made: 0, refused: 0 };
  globalThis[Symbol.for("gg.bridge")] = { invoke, words: JSON.parse(words), calls, plainDepth };
  // made later, once the program may have replaced globals: so what they need is taken now
  const define = Object.defineProperty;
  const [SyntaxErrorClass, TypeErrorClass] = [SyntaxError, TypeError];
  const withStack = (error, stack) => define(error, "stack", { value: stack, writable: true, configurable: true });
  const syntaxError = (message, frames) => withStack(new SyntaxErrorClass(message), "SyntaxError: " + message + frames);
  const refusal = (message, frames) => {
    const error = withStack(new TypeErrorClass(message), "TypeError: " + message + frames);
    define(error, "code", { value: "ERR_MODULE_NOT_FOUND", writable: true, enumerable: true, configurable: true });
    return error;
  };
  return { calls, refusal, syntaxError, ObjectPrototype: Object.prototype, PromisePrototype: Promise.prototype, ReferenceError };
})`;

// A fresh realm for `run`, its SDK loaded (as the boot loaded it into the Worker before).
async function openRealm(run) {
  const context = vm.createContext({});
  const global = vm.runInContext("globalThis", context);
  for (const [name, value, enumerable] of WEB_APIS) {
    defineOn(global, name, { value, writable: true, enumerable, configurable: true });
  }
  const setup = vm.runInContext(REALM_SETUP, context);
  const made = setup(sinkOf(run), QUIET_METHODS, THROWERS, bridgeOf(run), WORDS_JSON, callCap, plainDepth);
  run.calls = made.calls;
  const open = { realm: null }; // what the dynamic-import hook reaches: nothing once the realm is closed
  const realm = {
    context, modules: new Map(), ApiError: null, ReferenceError: made.ReferenceError, refusal: made.refusal, syntaxError: made.syntaxError,
    ObjectPrototype: made.ObjectPrototype, PromisePrototype: made.PromisePrototype, open,
    importHook: (spec, referencing) => (open.realm === null ? CLOSED_IMPORT() : dynamicImport(open.realm, spec, referencing)),
  };
  open.realm = realm;
  for (const url of SDK_ENTRIES) await evaluated(realm, url);
  realm.ApiError = realm.modules.get("sdk:/core.js").namespace.ApiError;
  return realm;
}

const LEFT_BYTES = 4 * 2 ** 20;
let restingHeap = 0; // the Worker's heap with its first realm open, then after each collection
let collector = null;

// The engine's collector, made on first need (a context costs a few ms, no boot pays for it): V8
// gives `gc` to every context made once `expose-gc` is on, so each realm deletes its own.
function collectGarbage() {
  if (collector === null) {
    setV8Flags("--expose-gc");
    collector = runInNewContext("gc");
  }
  collector();
}

// The realm of a run that is over lets go of what the engine keeps: each module's handles to its
// engine module and context (the polyfill's own symbol-keyed fields), and the hook's realm.
// Work the program left behind that imports after this is refused. The collection comes a task
// later, once nothing of the run is left on the stack to keep the realm, and again, should it
// still be due, as the next program begins (`tidy`).
function closeRealm(realm) {
  realm.open.realm = null;
  for (const module of realm.modules.values()) {
    for (const key of G.Object.getOwnPropertySymbols(module)) delete module[key];
  }
  realm.modules.clear();
  setImmediate(tidy);
}

function tidy() {
  if (memoryUsage().heapUsed <= restingHeap + LEFT_BYTES) return;
  collectGarbage();
  restingHeap = memoryUsage().heapUsed; // what outlives every realm is not collected again and again
}

function sinkOf(run) {
  return (args) => {
    if (!run.over) record(args);
  };
}

function bridgeOf(run) {
  return (operation, argsJson) => {
    if (run.over) return CLOSED_REPLY;
    try {
      return invoke(String(operation), String(argsJson));
    } catch {
      return CLOSED_REPLY;
    }
  };
}

// The module at `url` in `realm`, linked and evaluated.
async function evaluated(realm, url) {
  const module = await moduleFor(realm, url);
  if (module.status === "unlinked") await module.link((spec, referencing) => linked(realm, spec, referencing, ""));
  await module.evaluate();
  return module;
}

// The module `spec` names from `referencing`; a refused one is the realm's TypeError, as the
// module loader words it, its `frames` those of the `import()` that asked for it. An error the
// boot module raised (a source that does not parse, a TypeScript source that cannot be
// stripped) reaches the program as the realm's own error, never the Worker's.
async function linked(realm, spec, referencing, frames) {
  if (spec === GATE) return moduleFor(realm, GATE);
  try {
    return await moduleFor(realm, resolveSpecifier(String(spec), referencing?.identifier));
  } catch (error) {
    if (typeof error === "string") throw realm.refusal(error, frames);
    if (locatedErrors.has(error)) throw realm.syntaxError(String(error.message), frames);
    if (error !== null && typeof error === "object" && isPrototypeOf(G.Object.prototype, error)) {
      throw realm.refusal(String(error), frames); // worded as the module loader words it
    }
    throw error;
  }
}

async function moduleFor(realm, url) {
  const known = realm.modules.get(url);
  if (known !== undefined) return known;
  const options = { context: realm.context, identifier: url };
  if (url === programUrl || url.startsWith("lib:")) options.importModuleDynamically = realm.importHook;
  const module = url === GATE ? new vm.SourceTextModule(GATE_SOURCE, options) : await compiled(loadSource(url), url, options);
  realm.modules.set(url, module);
  return module;
}

// A program or `lib:` module with the gate, or as written when it does not compile with it; one
// that does not compile at all throws the engine's SyntaxError located as the module loader
// locates it.
async function compiled(source, url, options) {
  if (url !== programUrl && !url.startsWith("lib:")) return new vm.SourceTextModule(source, options);
  try {
    return new vm.SourceTextModule(source + "\nimport " + stringify(GATE) + ";\n", options);
  } catch {
    // compiled as written below
  }
  try {
    return new vm.SourceTextModule(source, options);
  } catch (error) {
    throw await located(error, source, url);
  }
}

// The SyntaxError of a source V8 does not parse, with the place the module loader names: the
// loader parses the same text (and so never runs it) and says where, for a data URL.
async function located(error, source, url) {
  if (error?.name !== "SyntaxError") return error;
  try {
    await import("data:text/javascript," + encodeURIComponent(source));
  } catch (parsed) {
    const place = /:(\d+):(\d+)$/.exec(String(parsed?.message ?? ""));
    if (place === null) return error;
    const message = String(error.message) + " at " + url + ":" + place[1] + ":" + place[2];
    const shown = new SyntaxErrorClass(message);
    defineOn(shown, "stack", { value: "SyntaxError: " + message, writable: true, configurable: true });
    locatedErrors.add(shown);
    return shown;
  }
  return error;
}

async function dynamicImport(realm, spec, referencing) {
  const frames = callerFrames(new ErrorClass().stack);
  const module = await linked(realm, String(spec), referencing, frames);
  if (module.status === "unlinked") await module.link((inner, from) => linked(realm, inner, from, frames));
  return module;
}

// The frames of the program's own code in `stack`, as the awaits they are.
function callerFrames(stack) {
  let frames = "";
  for (const line of splitText(String(stack), "\n")) {
    const at = searchText(line, /at (?:.* \()?(?:sandbox:\/|lib:)/);
    if (at >= 0) frames += "\n    at async " + sliceText(line, at + 3);
  }
  return frames;
}

// ---- source maps ---------------------------------------------------------------------------

const BASE64_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const sourceMaps = new Map(); // url -> for each generated line, its [column, line, column] segments
const MAPPED_FRAME = /(sandbox:\/program\.ts|lib:[^\s:()]+):(\d+):(\d+)/g;

function keepSourceMap(url, map) {
  try {
    sourceMaps.set(url, decodeMappings(G.JSON.parse(map).mappings));
  } catch {
    sourceMaps.delete(url);
  }
}

function decodeMappings(mappings) {
  const lines = [];
  const at = [0, 0, 0, 0]; // source index, source line, source column carry over lines
  for (const group of splitText(mappings, ";")) {
    const segments = [];
    let column = 0;
    for (const segment of splitText(group, ",")) {
      const values = vlq(segment);
      if (values.length === 0) continue;
      column += values[0];
      if (values.length < 4) continue;
      for (let i = 1; i < 4; i++) at[i] += values[i];
      segments.push([column, at[2], at[3]]);
    }
    lines.push(segments);
  }
  return lines;
}

function vlq(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = BASE64_DIGITS.indexOf(text[i]);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value % 2 ? -((value - 1) / 2) : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

// `stack` with each position in a mapped source put back where its author wrote it.
function remapped(stack) {
  if (sourceMaps.size === 0) return stack;
  return replaceText(stack, MAPPED_FRAME, (whole, url, line, column) => {
    const segments = sourceMaps.get(url)?.[Number(line) - 1];
    if (segments === undefined) return whole;
    let best = null;
    for (const segment of segments) {
      if (segment[0] > Number(column) - 1) break;
      best = segment;
    }
    return best === null ? whole : `${url}:${best[1] + 1}:${best[2] + 1}`;
  });
}
