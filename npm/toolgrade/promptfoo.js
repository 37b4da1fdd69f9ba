// promptfoo assertions scored by toolgrade's promptfoo profile (the
// verdicts of promptfoo 0.123.1's tool-call assertions), and toolgrade's
// own metrics, as a `javascript` assertion module:
//
//   assert:
//     - type: javascript
//       value: file://node_modules/toolgrade/promptfoo.js
//       config: {type: tool-call-f1, value: [get_weather, search], threshold: 0.8}
//
// The assertion's `config` holds what the built-in assertion would take:
// `type` (tool-call-f1, is-valid-openai-tools-call, is-valid-function-call,
// is-valid-openai-function-call, trajectory:tool-used,
// trajectory:tool-sequence, trajectory:tool-args-match, each with its
// not- form), `value`, `threshold`, `weight`. A named export fixes the type
// (`file://node_modules/toolgrade/promptfoo.js:toolCallF1`). The tools are
// the provider's (`config.tools`, or `config.functions` for the function
// call check), the trace promptfoo's (context.trace).
//
// The `toolgrade` export grades with toolgrade's own metrics: the output is
// any trace toolgrade reads, `config.expected_tools` (or the test's
// `vars.expected_tools`) the expected calls, and the other config keys a
// metric entry (docs/config.md): `{metric: "tool_correctness", order:
// "in-order", args: "exact"}`.

import { evaluate } from "./index.js";
import { noUnknownOptions, peerError, scoreOne } from "./lib/dropin.js";

const TYPES = [
  "tool-call-f1",
  "is-valid-openai-tools-call",
  "is-valid-function-call",
  "is-valid-openai-function-call",
  "trajectory:tool-used",
  "trajectory:tool-sequence",
  "trajectory:tool-args-match",
];

async function run(output, context, fixedType) {
  const config = context?.config ?? {};
  noUnknownOptions("promptfoo assertion config", config, ["type", "value", "threshold", "weight"]);
  let type = config.type ?? fixedType ?? "tool-call-f1";
  if (typeof type !== "string" || !TYPES.includes(type.replace(/^not-/, ""))) {
    throw new TypeError(`config.type: unknown assertion type ${JSON.stringify(type)} (want ${TYPES.join(", ")}, or a not- form)`);
  }
  if (fixedType && type.replace(/^not-/, "") !== fixedType) {
    throw new TypeError(`config.type ${JSON.stringify(type)} given to the ${fixedType} assertion`);
  }
  const base = type.replace(/^not-/, "");
  const entry = { profile: "promptfoo", type };
  if (config.threshold !== undefined) entry.threshold = config.threshold;
  if (config.weight !== undefined) entry.weight = config.weight;

  const kase = { output: output === undefined ? null : output };
  if ("value" in config) kase.value = config.value;
  const providerConfig = context?.provider?.config;
  const tools = base.endsWith("function-call") ? providerConfig?.functions : providerConfig?.tools;
  if (base.startsWith("is-valid") && tools !== undefined) kase.available_tools = tools;
  if (base.startsWith("trajectory:") && context?.trace) kase.trace = context.trace;

  const m = await scoreOne(kase, entry);
  if (m.error) throw peerError(m.error, /TypeError|\bnull output\b/.test(m.error) ? "TypeError" : "Error");
  return { pass: m.success === true, score: m.score, reason: m.reason };
}

/**
 * The assertion named by `context.config.type` (tool-call-f1 when absent):
 * resolves to promptfoo's grading result `{pass, score, reason}`, or
 * rejects where promptfoo's built-in assertion throws.
 */
export default async function assert(output, context) {
  return run(output, context);
}

// named is the assertion of one type.
const named = (type) => (output, context) => run(output, context, type);

/** promptfoo's tool-call-f1: F1 of the sets of names against config.value. */
export const toolCallF1 = named("tool-call-f1");
/** promptfoo's is-valid-openai-tools-call, against the provider's config.tools. */
export const isValidOpenaiToolsCall = named("is-valid-openai-tools-call");
/** promptfoo's is-valid-function-call, against the provider's config.functions. */
export const isValidFunctionCall = named("is-valid-function-call");
/** promptfoo's is-valid-openai-function-call, is-valid-function-call's alias. */
export const isValidOpenaiFunctionCall = named("is-valid-openai-function-call");
/** promptfoo's trajectory:tool-used over the trace's tool spans. */
export const trajectoryToolUsed = named("trajectory:tool-used");
/** promptfoo's trajectory:tool-sequence over the trace's tool spans. */
export const trajectoryToolSequence = named("trajectory:tool-sequence");
/** promptfoo's trajectory:tool-args-match over the trace's tool spans. */
export const trajectoryToolArgsMatch = named("trajectory:tool-args-match");

/**
 * toolgrade's own metrics over any trace: passes when every metric passes;
 * the score is the first metric's, the reason each failing metric's.
 */
export async function toolgrade(output, context) {
  const { expected_tools: expected = context?.vars?.expected_tools, ...entry } = context?.config ?? {};
  const [r] = await evaluate([{ trajectory: output, expected_tools: expected }], [entry], { errors: "result" });
  const m = r.metrics[0];
  const problems = r.error ? [r.error] : r.metrics.filter((x) => x.error || x.success === false).map((x) => x.error ?? x.reason);
  const pass = !r.error && r.success;
  return { pass, score: m?.score ?? 0, reason: pass ? m?.reason || "all tool calls as expected" : problems.join("; ") };
}

// promptfoo imports a module's default export and looks a named function
// up on it (`file://...promptfoo.js:toolCallF1`), so the default carries
// every named assertion too.
Object.assign(assert, {
  toolCallF1,
  isValidOpenaiToolsCall,
  isValidFunctionCall,
  isValidOpenaiFunctionCall,
  trajectoryToolUsed,
  trajectoryToolSequence,
  trajectoryToolArgsMatch,
  toolgrade,
});
