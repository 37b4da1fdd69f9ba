// toolgrade: grade how well LLM agents call tools, and reproduce the
// scores of DeepEval, Axion, agentevals, openevals, ADK, DeepFabric, BFCL,
// Ragas, Mastra, promptfoo and evalite exactly. The grading runs in the
// toolgrade binary (from this machine's platform package), one long-lived
// `toolgrade serve` process spoken to in JSON Lines.

import { readFileSync } from "node:fs";
import { Client, defaultClient } from "./lib/client.js";
import { CaseError, ConfigError, MetricError, ProcessError, ToolgradeError } from "./lib/errors.js";
import { encode } from "./lib/json.js";

export { Client, CaseError, ConfigError, MetricError, ProcessError, ToolgradeError };

/** This package's version, which its binary's `toolgrade version` prints too. */
export const VERSION = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version;

/** Cases sent to the process per request, at most. */
export const BATCH = 1000;

/**
 * The most JSON text one request may be: the process reads a request line
 * of up to 64 MiB (docs/budgets.md). A batch is cut well before it, so
 * that cases that fit one by one are never refused together.
 */
const MAX_REQUEST = 64 << 20;
const BATCH_BYTES = 16 << 20;

/**
 * The config as a serve request carries it: `{metrics: [entries], judge?}`.
 * A config is a metric entry, a list of them, or `{metrics, judge}`;
 * null or undefined is the native default metric.
 */
export function requestConfig(config) {
  if (config === null || config === undefined) return undefined;
  if (Array.isArray(config)) return { metrics: config.map(entry) };
  if (typeof config !== "object") {
    throw new TypeError(`a config is a metric entry object, a list of them, or {metrics: [...]}; got ${typeof config}`);
  }
  if ("metrics" in config) {
    if (!Array.isArray(config.metrics)) throw new TypeError("config.metrics: want a list of metric entries");
    // Other keys go along, for the process to reject a misspelled one.
    const out = { ...config, metrics: config.metrics.map(entry) };
    if (out.judge === null || out.judge === undefined) delete out.judge;
    return out;
  }
  return { metrics: [entry(config)] };
}

function entry(e, i) {
  if (e === null || typeof e !== "object" || Array.isArray(e)) {
    throw new TypeError(`config.metrics[${i ?? 0}]: want a metric entry object, got ${e === null ? "null" : Array.isArray(e) ? "a list" : typeof e}`);
  }
  return e;
}

function requestError(resp) {
  const field = resp.field;
  if (typeof field === "string" && field.startsWith("config")) return new ConfigError(resp.error, { field });
  return new ToolgradeError(resp.error);
}

/** The field a case error names ("... field tools_called[0].name: ..."). */
function fieldOf(message) {
  const m = /\bfield ([^:\s]+):/.exec(message);
  return m ? m[1] : undefined;
}

/**
 * Grades cases a batch at a time, yielding one result per case in order.
 * Cases are objects in toolgrade's case format (docs/cases.md); they may
 * come from an iterable or an async iterable.
 *
 * With `errors: "throw"` (the default) a case that cannot be read throws a
 * CaseError naming the case, its index and the field; `errors: "result"`
 * yields it as a result with `error` set. A metric that cannot score a case
 * (as its peer throws) is never an exception here: its metric result has
 * `error`.
 *
 * @param {Iterable<object>|AsyncIterable<object>} cases
 * @param {object|object[]} [config]
 * @param {{errors?: "throw"|"result", client?: Client, batch?: number}} [options]
 */
export async function* evaluateStream(cases, config, { errors = "throw", client, batch = BATCH } = {}) {
  if (errors !== "throw" && errors !== "result") throw new TypeError(`errors: want "throw" or "result", got ${JSON.stringify(errors)}`);
  if (!(batch >= 1)) throw new TypeError(`batch: want a positive number, got ${batch}`);
  if (cases === null || cases === undefined || (typeof cases[Symbol.iterator] !== "function" && typeof cases[Symbol.asyncIterator] !== "function") || typeof cases === "string") {
    throw new TypeError("cases: want a list (or an iterable) of case objects");
  }
  const c = client ?? defaultClient();
  const cfg = requestConfig(config);
  const cfgText = cfg === undefined ? undefined : encode(cfg, "config");
  // The room a case has in a request: the line less its envelope.
  const room = MAX_REQUEST - 256 - (cfgText === undefined ? 0 : Buffer.byteLength(cfgText));
  let chunk = [];
  let chunkBytes = 0;
  let offset = 0;

  const flush = async () => {
    let line = `{"op":"evaluate","offset":${offset}`;
    if (cfgText !== undefined) line += `,"config":${cfgText}`;
    line += `,"cases":[${chunk.join(",")}]}`;
    const resp = await c.requestText(line);
    if ("error" in resp) throw requestError(resp);
    const results = resp.results;
    if (errors === "throw") {
      results.forEach((r, i) => {
        if (r.error) throw new CaseError(r.error, { caseId: r.id, index: offset + i, field: fieldOf(r.error) });
      });
    }
    offset += chunk.length;
    chunk = [];
    chunkBytes = 0;
    return results;
  };

  for await (const kase of cases) {
    const index = offset + chunk.length;
    const text = encodeCase(kase, index);
    const size = Buffer.byteLength(text);
    if (size > room) {
      const caseId = typeof kase?.id === "string" ? kase.id : undefined;
      const err = new CaseError(`cases[${index}]${idNote(kase)}: ${mib(size)} of JSON, more than the 64 MiB a request to the toolgrade process may hold: split the case`, { caseId, index });
      if (errors === "throw") throw err;
      if (chunk.length > 0) yield* await flush();
      yield { id: caseId ?? `case-${index}`, success: false, metrics: [], error: err.message };
      offset++;
      continue;
    }
    if (chunk.length > 0 && chunkBytes + size > BATCH_BYTES) yield* await flush();
    chunk.push(text);
    chunkBytes += size;
    if (chunk.length >= batch) yield* await flush();
  }
  if (chunk.length > 0) yield* await flush();
}

/** " (id "x")" for a case with a string id, for messages. */
function idNote(kase) {
  return kase !== null && typeof kase === "object" && typeof kase.id === "string" ? ` (id ${JSON.stringify(kase.id)})` : "";
}

/** A size in MiB for messages ("65.0 MiB"). */
function mib(bytes) {
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

function encodeCase(kase, index) {
  try {
    return encode(kase === undefined ? null : kase, `cases[${index}]${idNote(kase)}`);
  } catch (err) {
    throw new CaseError(err.message, { caseId: kase?.id, index, field: undefined });
  }
}

/**
 * Grades cases: one result per case, in order. See evaluateStream.
 * @returns {Promise<object[]>}
 */
export async function evaluate(cases, config, options) {
  const out = [];
  for await (const r of evaluateStream(cases, config, options)) out.push(r);
  return out;
}

/**
 * Grades one case; throws a CaseError when it cannot be read.
 * @returns {Promise<object>}
 */
export async function evaluateOne(kase, config, { client } = {}) {
  const [r] = await evaluate([kase], config, { client });
  return r;
}

/**
 * The tool calls in a trace: a decoded trace (a list of messages, an
 * object...) or its text (JSON, JSON Lines, an SSE body, a transcript).
 * `format` forces a format (docs/traces.md); by default it is detected.
 * Throws a ToolgradeError when the trace cannot be read.
 * @returns {Promise<{format: string, calls: object[], skipped: string[]}>}
 */
export async function extract(trace, { format, client } = {}) {
  if (trace === undefined) throw new TypeError("extract: want a trace, got undefined");
  const text = encode(trace, "trace");
  const size = Buffer.byteLength(text);
  if (size > MAX_REQUEST - 256) throw new ToolgradeError(`trace: ${mib(size)} of JSON, more than the 64 MiB a request to the toolgrade process may hold`);
  let line = `{"op":"extract","trace":${text}`;
  if (format) line += `,"format":${JSON.stringify(String(format))}`;
  const resp = await (client ?? defaultClient()).requestText(line + "}");
  if ("error" in resp) throw new ToolgradeError(resp.error);
  const r = resp.result;
  return { format: r.format ?? "", calls: r.calls ?? [], skipped: resp.skipped ?? [] };
}

/**
 * The version of the toolgrade binary ("v1.2.3").
 * @returns {Promise<string>}
 */
export async function version({ client } = {}) {
  const resp = await (client ?? defaultClient()).request({ op: "version" });
  if ("error" in resp) throw new ToolgradeError(resp.error);
  return resp.result.version;
}
