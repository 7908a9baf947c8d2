// The SDK runtime (`sdk:/runtime.js`), shared by every generated family module.
//
// Rules kept here:
// - the bridge is taken once from a one-shot global the boot deletes before any program runs;
//   the intrinsics a call needs are captured at load, and a call walks its specs by index, never
//   by an iterator, so a program that replaces JSON, Atomics, Function.prototype.call or the
//   array iterator changes nothing a call does;
// - required arguments are positional, optional ones come in a trailing options object whose
//   keys are the camelCase wire names; only declared keys cross, in a null-prototype record, and
//   a key that is not declared is refused, naming it and the declared ones;
// - a u32, positive-number, list, turn-span or options-object mistake is an ApiError raised here,
//   before the host, whose `operation` is gg's key (`read_file`), as a host failure's is; a
//   mistyped string is a TypeError;
// - an `any` argument must be plain JSON data (null, booleans, finite numbers, strings, arrays
//   and plain objects, at most `plainDepth` deep; a key whose value is undefined is left out, as
//   absent): anything else (a Set, a Map, NaN, a BigInt, undefined in an array, a function, a
//   class instance) is refused naming where in the argument it is (`data.ids[0]`) and what it is,
//   never turned into something else on the way. What crosses is a copy made here, of
//   null-prototype arrays and objects, so no getter, `toJSON` or prototype the program planted
//   changes it after the check;
// - a host failure comes back as `{operation, code, message}` with gg's key and is thrown as an
//   ApiError; alias methods are attached, non-enumerable, to each record of a result;
// - every call counts against the program's call cap (`calls.cap`), the refused ones too; a call
//   past it is an ApiError (`limit-exceeded`) raised here, which never reaches the host, and is
//   counted in `calls.refused`.
const BRIDGE = Symbol.for("gg.bridge");
const { invoke, words, calls, plainDepth } = globalThis[BRIDGE];
delete globalThis[BRIDGE];

const parse = JSON.parse;
const stringify = JSON.stringify;
const isArray = Array.isArray;
const isInteger = Number.isInteger;
const isFinite = Number.isFinite;
const createRecord = () => Object.create(null);
const defineProperty = Object.defineProperty;
const uncurry = (f) => Function.prototype.call.bind(f);
const replaceText = uncurry(String.prototype.replace);
const sliceText = uncurry(String.prototype.slice);
const hasOwn = Object.hasOwn;
const ownKeys = Object.keys;
const getPrototypeOf = Object.getPrototypeOf;
const setPrototypeOf = Object.setPrototypeOf;
const ownDescriptor = Object.getOwnPropertyDescriptor;
const objectTag = uncurry(Object.prototype.toString);
const codeAt = uncurry(String.prototype.charCodeAt);
const ObjectPrototype = Object.prototype;
const ArrayPrototype = Array.prototype;
const U32_MAX = 4294967295;
const byWire = new Map();
const keyOf = new Map(); // each SDK function -> its documentation key, `gg.<family>.<name>`

function say(key, values) {
  return replaceText(words[key], /\{(\w+)\}/g, (whole, name) => (hasOwn(values, name) ? values[name] : whole));
}

function typeName(value) {
  if (value === null) return "null";
  if (isArray(value)) return "array";
  return typeof value;
}

function shown(value) {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return stringify(value.length > 60 ? sliceText(value, 0, 60) + "\u2026" : value);
  return typeName(value);
}

export class ApiError extends Error {
  constructor(operation, code, message) {
    super(message);
    this.operation = operation;
    this.code = code;
  }

  toJSON() {
    return { name: this.name, operation: this.operation, code: this.code, message: this.message };
  }
}
defineProperty(ApiError.prototype, "name", { value: "ApiError", writable: true, configurable: true });

function invalid(operation, key, values) {
  return new ApiError(operation, "invalid-argument", say(key, values));
}

const CHECKS = {
  string(operation, name, value) {
    if (typeof value !== "string") throw new TypeError(say("argString", { name, got: typeName(value) }));
    return value;
  },
  "string?"(operation, name, value) {
    if (value !== null && typeof value !== "string") {
      throw new TypeError(say("argString", { name, got: typeName(value) }));
    }
    return value;
  },
  "string!"(operation, name, value) {
    if (typeof value !== "string") throw invalid(operation, "argString", { name, got: typeName(value) });
    return value;
  },
  u32(operation, name, value) {
    if (typeof value === "number" && isInteger(value) && value >= 0 && value <= U32_MAX) return value;
    throw invalid(operation, "argU32", { name, got: shown(value) });
  },
  count(operation, name, value) {
    if (typeof value === "number" && isInteger(value) && value >= 1 && value <= U32_MAX) return value;
    throw invalid(operation, "argCount", { name, got: shown(value) });
  },
  positiveNumber(operation, name, value) {
    if (typeof value === "number" && isFinite(value) && value > 0) return value;
    throw invalid(operation, "argPositive", { name, got: shown(value) });
  },
  "string[]"(operation, name, value) {
    if (!isArray(value)) throw invalid(operation, "argStringList", { name, got: typeName(value) });
    const items = [];
    for (let i = 0; i < value.length; i++) {
      if (typeof value[i] !== "string") throw invalid(operation, "argListEntry", { name, got: shown(value[i]) });
      items[i] = value[i];
    }
    return items;
  },
  "turnSpan[]"(operation, name, value) {
    if (!isArray(value)) throw invalid(operation, "argSpanList", { name, got: typeName(value) });
    const spans = [];
    for (let i = 0; i < value.length; i++) {
      const span = value[i];
      if (span === null || typeof span !== "object" || isArray(span)) {
        throw invalid(operation, "argSpanEntry", { name, got: typeName(span) });
      }
      const from = span.from;
      const to = span.to;
      if (from === undefined || to === undefined) throw invalid(operation, "argSpanBounds", { name });
      spans[i] = { from: CHECKS.u32(operation, name + "[].from", from), to: CHECKS.u32(operation, name + "[].to", to) };
    }
    return spans;
  },
  any(operation, name, value) {
    return value === undefined ? undefined : plainCopy(operation, [name], value, 0); // undefined: left out
  },
  docTarget(operation, name, value) {
    if (typeof value === "string") return value;
    if (typeof value === "function") {
      const key = keyOf.get(value);
      if (key !== undefined) return key;
      throw invalid(operation, "argDocForeign", { name });
    }
    throw invalid(operation, "argDocTarget", { name, got: typeName(value) });
  },
};

// ---- plain data --------------------------------------------------------------------------

// `value` as plain JSON data, copied; `trail` is where it sits (the parameter, then keys and
// indexes), for the refusal.
function plainCopy(operation, trail, value, depth) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (isFinite(value)) return value;
      break;
    case "object":
      if (value === null) return null;
      if (depth >= plainDepth) throw notPlain(operation, trail, containerName(value) + " nested deeper");
      if (isArray(value) && getPrototypeOf(value) === ArrayPrototype) return arrayCopy(operation, trail, value, depth);
      if (!isArray(value) && isPlainPrototype(getPrototypeOf(value))) return objectCopy(operation, trail, value, depth);
      break;
  }
  throw notPlain(operation, trail, kindName(value));
}

function isPlainPrototype(proto) {
  return proto === ObjectPrototype || proto === null;
}

function arrayCopy(operation, trail, value, depth) {
  const copy = setPrototypeOf([], null);
  const length = value.length;
  for (let i = 0; i < length; i++) {
    trail[trail.length] = i;
    copy[i] = plainCopy(operation, trail, value[i], depth + 1);
    trail.length -= 1;
  }
  return copy;
}

function objectCopy(operation, trail, value, depth) {
  const copy = createRecord();
  const keys = ownKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const item = value[keys[i]];
    if (item === undefined) continue;
    trail[trail.length] = keys[i];
    copy[keys[i]] = plainCopy(operation, trail, item, depth + 1);
    trail.length -= 1;
  }
  return copy;
}

function notPlain(operation, trail, got) {
  let where = trail[0];
  for (let i = 1; i < trail.length; i++) {
    const step = trail[i];
    where += typeof step === "number" ? "[" + step + "]" : isIdentifier(step) ? "." + step : "[" + stringify(step) + "]";
  }
  return invalid(operation, "argPlainData", { name: shownKey(where), got });
}

function isIdentifier(key) {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const c = codeAt(key, i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

function containerName(value) {
  return isArray(value) ? "array" : "object";
}

// What a value that is not plain data is: `NaN`, `BigInt`, `undefined`, `function`, `Set`, or a
// class instance's class.
function kindName(value) {
  const type = typeof value;
  if (type === "number") return "" + value;
  if (type === "bigint") return "BigInt";
  if (type !== "object") return type;
  try {
    const tag = sliceText(objectTag(value), 8, -1);
    const proto = getPrototypeOf(value);
    const maker = proto === null ? undefined : ownDescriptor(proto, "constructor")?.value;
    const named = typeof maker === "function" ? ownDescriptor(maker, "name")?.value : undefined;
    return (tag === "Object" || tag === "Array") && typeof named === "string" && named !== "" ? named : tag;
  } catch {
    return "an object that cannot be inspected";
  }
}

// ---- options -------------------------------------------------------------------------------

function readOptions(spec, options, args) {
  if (spec.optional.length === 0 || options === undefined || options === null) return;
  if (typeof options !== "object" || isArray(options)) {
    throw invalid(spec.key, "argOptions", { got: typeName(options) });
  }
  const keys = ownKeys(options);
  for (let i = 0; i < keys.length; i++) {
    if (!declaresOption(spec, keys[i])) throw invalid(spec.key, "argUnknownOption", { function: spec.js, name: shownKey(keys[i]), known: knownOptions(spec) });
  }
  for (let i = 0; i < spec.optional.length; i++) {
    const name = spec.optional[i][0];
    const value = options[name];
    if (value === undefined) continue;
    args[name] = value === null ? null : CHECKS[spec.optional[i][1]](spec.key, name, value);
  }
}

function declaresOption(spec, key) {
  for (let i = 0; i < spec.optional.length; i++) if (spec.optional[i][0] === key) return true;
  return false;
}

function knownOptions(spec) {
  let known = "";
  for (let i = 0; i < spec.optional.length; i++) known += (i ? ", " : "") + "`" + spec.optional[i][0] + "`";
  return known;
}

function shownKey(key) {
  return key.length > 60 ? sliceText(key, 0, 60) + "\u2026" : key;
}

function attachAliases(spec, value) {
  if (spec.aliases.length === 0 || value === null || typeof value !== "object") return value;
  if (!isArray(value)) return withAliases(spec.aliases, value);
  for (let i = 0; i < value.length; i++) withAliases(spec.aliases, value[i]);
  return value;
}

function withAliases(aliases, record) {
  if (record === null || typeof record !== "object") return record;
  for (let i = 0; i < aliases.length; i++) {
    const method = aliases[i][0];
    const wire = aliases[i][1];
    const field = aliases[i][2];
    const target = (...rest) => byWire.get(wire)(record[field], ...rest);
    defineProperty(record, method, { value: target, writable: true, configurable: true, enumerable: false });
  }
  return record;
}

/** Run one SDK call: check the arguments, cross to the host, and hand back its answer. */
export function call(spec, required, options) {
  if (calls.made >= calls.cap) {
    calls.refused += 1;
    throw new ApiError(spec.key, "limit-exceeded", words.callCap);
  }
  calls.made += 1;
  const args = createRecord();
  const declared = spec.required;
  for (let i = 0; i < declared.length; i++) {
    const param = declared[i];
    if (required[i] === undefined && !param[2]) continue;
    args[param[0]] = CHECKS[param[1]](spec.key, param[0], required[i]);
  }
  readOptions(spec, options, args);
  const answer = parse(invoke(spec.wire, stringify(args)));
  if (!answer.ok) {
    if (answer.closed !== undefined) throw new Error(String(answer.closed));
    const error = answer.error;
    throw new ApiError(String(error.operation), String(error.code), String(error.message));
  }
  return attachAliases(spec, answer.value);
}

/** Make an SDK function reachable by its wire key (for the alias methods that call it) and
 * known by its documentation key (for a documentation target given as the function itself). */
export function register(spec, fn) {
  byWire.set(spec.wire, fn);
  keyOf.set(fn, "gg." + sliceText(spec.wire, 0, spec.wire.indexOf(".")) + "." + spec.js);
}
