// Turning JavaScript values into the JSON the toolgrade process reads,
// refusing what JSON.stringify would quietly change: a NaN or Infinity
// (written as null), a function, symbol or bigint, a Map or Set (written as
// {}), or a cycle. `undefined` members are left out, as JSON.stringify
// does: an absent key, which the peers' JavaScript reads as undefined too.
// A negative zero is written -0, where JSON.stringify writes 0: some peers
// tell them apart (promptfoo's exact argument match).

class Unencodable extends Error {}

// NEGATIVE_ZERO stands in for -0 while JSON.stringify runs; its quoted
// form is then replaced by -0. It is random, so no string of the input
// holds it.
const NEGATIVE_ZERO = `\u0000toolgrade-negative-zero-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}\u0000`;
const NEGATIVE_ZERO_JSON = JSON.stringify(NEGATIVE_ZERO);
let sawNegativeZero = false;

function check(key, value) {
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) throw new Unencodable();
      if (Object.is(value, -0)) {
        sawNegativeZero = true;
        return NEGATIVE_ZERO;
      }
      return value;
    case "function":
    case "symbol":
    case "bigint":
      throw new Unencodable();
    case "object":
      if (value instanceof Map || value instanceof Set) throw new Unencodable();
      return value;
    default:
      return value;
  }
}

/**
 * JSON text of value. On a value JSON cannot hold, throws a TypeError
 * naming `where` and the path to it (`where.tools_called[0].args.n: NaN is
 * not a JSON value`).
 */
export function encode(value, where) {
  sawNegativeZero = false;
  try {
    const text = JSON.stringify(value, check);
    return sawNegativeZero ? text.replaceAll(NEGATIVE_ZERO_JSON, "-0") : text;
  } catch (err) {
    if (!(err instanceof Unencodable) && !(err instanceof TypeError)) throw err;
    const found = findBad(value, where, new Set());
    throw new TypeError(found ?? `${where}: ${err.message}`);
  }
}

function describe(v) {
  if (typeof v === "number") return `${v} is not a JSON number`;
  if (typeof v === "function") return "a function is not a JSON value";
  if (typeof v === "bigint") return `the bigint ${v} is not a JSON number (convert it to a number or a string)`;
  if (typeof v === "symbol") return "a symbol is not a JSON value";
  if (v instanceof Map) return "a Map is not a JSON value (use a plain object)";
  if (v instanceof Set) return "a Set is not a JSON value (use an array)";
  return "not a JSON value";
}

// findBad walks value as JSON.stringify does and names the first value it
// refuses.
function findBad(value, path, seen) {
  if (value !== null && typeof value === "object" && typeof value.toJSON === "function") {
    value = value.toJSON();
  }
  const t = typeof value;
  if ((t === "number" && !Number.isFinite(value)) || t === "function" || t === "symbol" || t === "bigint" ||
      value instanceof Map || value instanceof Set) {
    return `${path}: ${describe(value)}`;
  }
  if (value === null || t !== "object") return null;
  if (seen.has(value)) return `${path}: a cycle (the value contains itself)`;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v === undefined) continue;
      const r = findBad(v, `${path}[${i}]`, seen);
      if (r) return r;
    }
  } else {
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const r = findBad(v, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, seen);
      if (r) return r;
    }
  }
  seen.delete(value);
  return null;
}
