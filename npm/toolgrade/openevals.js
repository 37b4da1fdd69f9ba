// A drop-in for openevals' trajectory match evaluator, scored by
// toolgrade's openevals profile (the verdicts of openevals 0.2.2):
//
//   import { createTrajectoryMatchEvaluator } from "toolgrade/openevals";
//
// Trajectories are what openevals reads (a list of OpenAI chat messages,
// {messages: [...]}, one message, or LangChain message objects), or any
// trace toolgrade's readers know (Anthropic, Gemini, OpenAI Responses,
// OpenTelemetry spans...). When either side is such a trace, both sides
// are reduced to their tool calls, one assistant message per call, so the
// modes compare the calls: strict then means the same calls in the same
// order.

import { argumentsText, foreignCalls, noUnknownOptions, peerError, scoreOne } from "./lib/dropin.js";

const TRAJECTORY_MODES = ["strict", "unordered", "subset", "superset"];
const ARGS_MODES = ["exact", "ignore", "subset", "superset"];

// What LangSmith's evaluate() passes an evaluator besides the outputs:
// taken and not used, as openevals does.
const CALL_KEYS = ["outputs", "referenceOutputs", "inputs", "run", "example", "attachments"];

/**
 * openevals' createTrajectoryMatchEvaluator: returns an async evaluator
 * `({outputs, referenceOutputs}) => {key, score, comment, metadata}` where
 * score is the boolean verdict and comment toolgrade's reason.
 */
export function createTrajectoryMatchEvaluator(options = {}) {
  noUnknownOptions("createTrajectoryMatchEvaluator", options, ["trajectoryMatchMode", "toolArgsMatchMode", "toolArgsMatchOverrides"]);
  const { trajectoryMatchMode = "strict", toolArgsMatchMode = "exact", toolArgsMatchOverrides } = options ?? {};
  if (!TRAJECTORY_MODES.includes(trajectoryMatchMode)) {
    throw new Error(`unknown trajectoryMatchMode ${JSON.stringify(trajectoryMatchMode)}: want ${TRAJECTORY_MODES.join(", ")}`);
  }
  if (!ARGS_MODES.includes(toolArgsMatchMode)) {
    throw new Error(`unknown toolArgsMatchMode ${JSON.stringify(toolArgsMatchMode)}: want ${ARGS_MODES.join(", ")}`);
  }
  const entry = { profile: "openevals", trajectory_match_mode: trajectoryMatchMode, tool_args_match_mode: toolArgsMatchMode };
  if (toolArgsMatchOverrides !== undefined && toolArgsMatchOverrides !== null) {
    for (const [tool, v] of Object.entries(toolArgsMatchOverrides)) {
      if (typeof v === "function") {
        throw new TypeError(`toolArgsMatchOverrides[${JSON.stringify(tool)}]: a function cannot be used with toolgrade; give a mode or a list of key paths`);
      }
    }
    entry.tool_args_match_overrides = toolArgsMatchOverrides;
  }
  const key = `trajectory_${trajectoryMatchMode}_match`;

  return async function evaluator(params) {
    noUnknownOptions("trajectory match evaluator", params, CALL_KEYS);
    const { outputs, referenceOutputs } = params ?? {};
    const [trajectory, reference] = await trajectories(outputs, referenceOutputs);
    const m = await scoreOne({ trajectory, expected_trajectory: reference }, entry);
    if (m.error) throw peerError(m.error, /not valid JSON/.test(m.error) ? "SyntaxError" : "Error");
    return { key, score: m.score === 1, comment: m.reason || undefined, metadata: undefined };
  };
}

/**
 * The two trajectories as openevals reads them. LangChain message objects
 * become OpenAI messages, as openevals converts them; a trace in another
 * format reduces both sides to their calls.
 */
async function trajectories(outputs, reference) {
  const a = fromLangChain(outputs);
  const b = fromLangChain(reference);
  const [fa, fb] = await Promise.all([foreign(a), foreign(b)]);
  if (!fa && !fb) return [a, b];
  return [fa ?? callMessages(chatCalls(a)), fb ?? callMessages(chatCalls(b))];
}

async function foreign(v) {
  if (chatCalls(v).length > 0) return null;
  const calls = await foreignCalls(v, (format) => format === "openai_chat");
  if (!calls) return null;
  return callMessages(calls.map((c) => ({ name: c.name, arguments: argumentsText(c), id: c.id })));
}

// messages lists the messages of a trajectory as openevals takes them.
function messages(v) {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === "object") {
    if (Array.isArray(v.messages)) return v.messages;
    if ("role" in v && "content" in v) return [v];
  }
  return [];
}

// chatCalls are the OpenAI tool calls of a chat trajectory, in order,
// with their arguments text as written.
function chatCalls(v) {
  const out = [];
  for (const m of messages(v)) {
    if (m === null || typeof m !== "object" || !Array.isArray(m.tool_calls)) continue;
    for (const c of m.tool_calls) {
      if (c === null || typeof c !== "object") continue;
      out.push({ name: c.function?.name, arguments: c.function?.arguments, id: c.id });
    }
  }
  return out;
}

function callMessages(calls) {
  return calls.map((c, i) => ({
    role: "assistant",
    content: "",
    tool_calls: [{ id: c.id ?? `call_${i}`, type: "function", function: { name: c.name, arguments: c.arguments } }],
  }));
}

const LANGCHAIN_ROLES = { human: "user", ai: "assistant", system: "system", developer: "developer", tool: "tool", function: "function" };

// fromLangChain turns LangChain message objects (instances with
// getType()) into OpenAI chat messages, as openevals does through
// @langchain/openai: tool calls become OpenAI calls with their arguments
// as JSON text, and only a message with calls carries tool_calls.
function fromLangChain(v) {
  const isLC = (m) => m !== null && typeof m === "object" && (typeof m.getType === "function" || typeof m._getType === "function");
  const convert = (m) => {
    if (!isLC(m)) return m;
    const type = typeof m.getType === "function" ? m.getType() : m._getType();
    const out = { role: LANGCHAIN_ROLES[type] ?? m.role ?? type, content: m.content };
    if (m.id) out.id = m.id;
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } }));
    }
    if (typeof m.tool_call_id === "string") out.tool_call_id = m.tool_call_id;
    return out;
  };
  if (Array.isArray(v)) return v.some(isLC) ? v.map(convert) : v;
  if (isLC(v)) return [convert(v)];
  if (v !== null && typeof v === "object" && Array.isArray(v.messages) && v.messages.some(isLC)) {
    return { ...v, messages: v.messages.map(convert) };
  }
  return v;
}
