// Test matchers for Vitest and Jest (registered by `import
// "toolgrade/vitest"` or the Jest setup file `toolgrade/jest`):
//
//   await expect(run).toCallTools([{ name: "get_weather", args: { city: "Paris" } }], { order: "in-order" });
//
// `run` is any trace toolgrade reads (OpenAI, Anthropic, Gemini, LangChain
// messages, OpenTelemetry spans...), a list of toolgrade calls ({name,
// args}), or the Vercel AI SDK's calls: a result with `steps` or
// `toolCalls`, or a list of {toolName, input}. The expected calls are
// toolgrade calls or bare names; the options a metric entry (docs/config.md:
// order, args, output, threshold, scoring, strict... or a profile's), or a
// list of them. The matcher is async: await it.

import { evaluate, extract } from "./index.js";

/** Reads the AI SDK's tool calls ({toolName, input}) as toolgrade calls, or returns null. */
function aiSdkCalls(run) {
  const isCall = (c) => c !== null && typeof c === "object" && typeof c.toolName === "string";
  const read = (c) => {
    const call = { name: c.toolName };
    const args = c.input !== undefined ? c.input : c.args;
    if (args !== undefined) call.args = args;
    if (typeof c.toolCallId === "string") call.id = c.toolCallId;
    return call;
  };
  if (Array.isArray(run)) return run.length > 0 && run.every(isCall) ? run.map(read) : null;
  if (run === null || typeof run !== "object") return null;
  if (Array.isArray(run.steps) && run.steps.every((s) => s !== null && typeof s === "object" && Array.isArray(s.toolCalls))) {
    const calls = run.steps.flatMap((s) => s.toolCalls);
    return calls.every(isCall) ? calls.map(read) : null;
  }
  if (Array.isArray(run.toolCalls) && run.toolCalls.every(isCall)) return run.toolCalls.map(read);
  return null;
}

function expectedCalls(expected) {
  if (!Array.isArray(expected)) throw new TypeError(`toCallTools: want a list of expected calls ({name, args} or names), got ${expected === null ? "null" : typeof expected}`);
  return expected.map((c) => (typeof c === "string" ? { name: c } : c));
}

/** The case a matcher grades. */
export function matcherCase(run, expected) {
  const calls = aiSdkCalls(run);
  const kase = calls ? { tools_called: calls } : { trajectory: run };
  kase.expected_tools = expectedCalls(expected);
  return kase;
}

/** The failure text of a result: each failing metric's score and reason. */
export function describe(result) {
  const lines = [];
  if (result.error) lines.push(`the case could not be read: ${result.error}`);
  for (const m of result.metrics) {
    const head = `${m.name} (profile ${m.profile})`;
    if (m.error) {
      lines.push(`${head}: error: ${m.error}`);
      continue;
    }
    const verdict = m.success === false ? `score ${fmt(m.score)} < threshold ${fmt(m.threshold)}` : `score ${fmt(m.score)}`;
    lines.push(`${head}: ${verdict}`);
    if (m.reason) lines.push(`  ${m.reason}`);
  }
  return lines.join("\n");
}

function fmt(x) {
  return typeof x === "number" ? String(Math.round(x * 1e4) / 1e4) : String(x);
}

/**
 * expect(run).toCallTools(expected, options): passes when every metric
 * passes on the run's calls against the expected ones.
 */
export async function toCallTools(run, expected, options) {
  const config = options === undefined ? undefined : Array.isArray(options) ? options : [options];
  const kase = matcherCase(run, expected);
  const [result] = await evaluate([kase], config, { errors: "result" });
  const pass = !result.error && result.success && result.metrics.every((m) => !m.error);
  const text = describe(result);
  const out = {
    pass,
    message: () => (pass ? `expected the run not to call the tools as expected, but it did:\n${text}` : `expected the run to call the tools as expected:\n${text}`),
  };
  // The runner shows a diff of actual and expected: the calls read from
  // the run against the expected calls, not the raw trace.
  const calls = pass ? null : await calledTools(kase);
  if (calls) Object.assign(out, { actual: calls, expected: kase.expected_tools });
  return out;
}

async function calledTools(kase) {
  if (kase.tools_called) return kase.tools_called;
  try {
    const { calls } = await extract(kase.trajectory);
    return calls.map((c) => (c.args_raw !== undefined && c.args_raw !== null ? { name: c.name, args: c.args_raw } : c.args === null ? { name: c.name } : { name: c.name, args: c.args }));
  } catch {
    return null;
  }
}

/** The matchers, for `expect.extend(matchers)` in any runner with Jest's expect. */
export const matchers = { toCallTools };
