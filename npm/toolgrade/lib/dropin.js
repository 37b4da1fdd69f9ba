// What the drop-in scorers share: grading one case with one metric entry,
// the peer's kind of error, and reading a trace that is not in the peer's
// own shape through toolgrade's trace readers.

import { evaluate, extract } from "../index.js";
import { MetricError } from "./errors.js";

/**
 * Grades one case with one metric entry and returns its metric result. A
 * rejected config throws a ConfigError, an unreadable case a CaseError;
 * a metric error (the peer would throw) is left in the result's `error`.
 */
export async function scoreOne(kase, metricEntry) {
  const [r] = await evaluate([kase], [metricEntry]);
  return r.metrics[0];
}

/**
 * The error a drop-in throws where its peer throws: an instance of the
 * peer's class where it is a JavaScript built-in (SyntaxError, TypeError;
 * with a MetricError's caseId), else a MetricError named as the peer's
 * class (ScorerRunError...).
 */
export function peerError(message, peerClass = "Error") {
  const builtin = { SyntaxError, TypeError, RangeError }[peerClass];
  if (builtin) {
    const err = new builtin(message);
    err.toolgrade = true;
    return err;
  }
  const err = new MetricError(message);
  if (peerClass !== "Error") err.name = peerClass;
  return err;
}

/**
 * The calls toolgrade's trace readers find in value when it is a trace in
 * another format than the peer's own (isNativeFormat says which detected
 * formats are the peer's): null when the readers do not recognise it, find
 * no call, or detect the peer's own format, so that the peer's reading
 * (and its errors) apply.
 */
export async function foreignCalls(value, isNativeFormat = () => false) {
  if (value === null || value === undefined || typeof value !== "object") return null;
  let trace;
  try {
    trace = await extract(value);
  } catch {
    return null;
  }
  if (trace.calls.length === 0 || isNativeFormat(trace.format)) return null;
  return trace.calls;
}

/** A call's arguments as JSON text, as a chat message carries them. */
export function argumentsText(call) {
  if (typeof call.args_raw === "string") return call.args_raw;
  return JSON.stringify(call.args ?? {});
}

/** Whether a read call failed (the trace marks its result as an error). */
export function failed(call) {
  return call.output !== null && typeof call.output === "object" && call.output.is_error === true;
}

/** Throws a TypeError for option keys a factory does not take. */
export function noUnknownOptions(where, options, known) {
  if (options === null || options === undefined) return;
  if (typeof options !== "object") throw new TypeError(`${where}: want an options object, got ${typeof options}`);
  const unknown = Object.keys(options).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw new TypeError(
      `${where}: unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} ` +
        `(want ${known.join(", ")}); toolgrade refuses what the peer would ignore, so that a misspelt option cannot change a verdict unseen`,
    );
  }
}
