// A drop-in for evalite's toolCallAccuracy scorer (evalite
// 1.0.0-beta.16, `evalite/scorers/deterministic`), scored by toolgrade's
// evalite profile:
//
//   import { toolCallAccuracy } from "toolgrade/evalite";
//
// The calls are evalite's ({toolName, input}: the AI SDK's tool calls), or
// any trace toolgrade's readers know, whose calls are then read as
// {toolName: name, input: args}.

import { foreignCalls, noUnknownOptions, peerError, scoreOne } from "./lib/dropin.js";

const NAME = "Tool Call Accuracy";
const DESCRIPTION = "Checks if the tool calls are correct";

// The weights' names: evalite's, then the profile's.
const WEIGHTS = { exact: "exact", nameOnly: "name_only", extraPenalty: "extra_penalty", wrongPenalty: "wrong_penalty" };

/**
 * evalite's toolCallAccuracy: `{score, metadata, name, description}`; the
 * metadata holds evalite's counts (exactMatches, nameOnlyMatches, and
 * wrongOrMissing in exact mode, or extras and missing in flexible mode)
 * with the totals, and toolgrade's reason.
 */
export async function toolCallAccuracy(opts) {
  noUnknownOptions("toolCallAccuracy", opts, ["actualCalls", "expectedCalls", "mode", "weights"]);
  const { actualCalls, expectedCalls, mode, weights } = opts ?? {};
  const entry = { profile: "evalite" };
  if (mode !== undefined) entry.mode = mode;
  if (weights !== undefined && weights !== null) {
    noUnknownOptions("toolCallAccuracy weights", weights, Object.keys(WEIGHTS));
    entry.weights = Object.fromEntries(Object.entries(weights).filter(([, v]) => v !== undefined).map(([k, v]) => [WEIGHTS[k], v]));
  }
  const [actual, expected] = await Promise.all([calls(actualCalls), calls(expectedCalls)]);
  const m = await scoreOne({ tools_called: toCase(actual), expected_tools: toCase(expected) }, entry);
  if (m.error) throw peerError(m.error, /\bis null\b|\bnot a list\b|TypeError/.test(m.error) ? "TypeError" : "Error");
  return { name: NAME, description: DESCRIPTION, score: m.score, metadata: metadata(m, mode, actual, expected) };
}

function isNative(v) {
  return !Array.isArray(v) || v.every((c) => c === null || typeof c !== "object" || "toolName" in c);
}

async function calls(v) {
  if (isNative(v)) return v;
  const found = await foreignCalls(v);
  if (!found) return v;
  return found.map((c) => {
    const call = { toolName: c.name };
    if (c.args_raw !== undefined && c.args_raw !== null) call.input = c.args_raw;
    else if (c.args !== null) call.input = c.args;
    return call;
  });
}

// toCase turns evalite's calls into the case's: an undefined input is an
// absent args, which the profile reads as evalite's undefined.
function toCase(list) {
  if (!Array.isArray(list)) return list ?? null;
  return list.map((c) => (c !== null && typeof c === "object" ? { name: c.toolName, args: c.input } : c));
}

function metadata(m, mode, actual, expected) {
  const c = m.components;
  const out = { reason: m.reason };
  if (!c) return out;
  const totals = { reference: expected.length, output: actual.length };
  if ("wrong_or_missing" in c) {
    return { mode: "exact", exactMatches: c.exact_matches, nameOnlyMatches: c.name_only_matches, wrongOrMissing: c.wrong_or_missing, totals, ...out };
  }
  return { mode: mode ?? "flexible", exactMatches: c.exact_matches, nameOnlyMatches: c.name_only_matches, extras: c.extras, missing: c.missing, totals, ...out };
}
