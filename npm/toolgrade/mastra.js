// Drop-ins for Mastra's code scorers and quick checks for tool use
// (@mastra/evals 1.10.2), scored by toolgrade's mastra profile:
//
//   import { createToolCallAccuracyScorerCode, checks } from "toolgrade/mastra";
//
// Each factory takes Mastra's options and returns a scorer whose
// `run({input, output, expectedTrajectory})` resolves to Mastra's result
// shape: the run's fields, `runId`, `score` and (here always) `reason`.
// Where Mastra's run throws, run() rejects with an error named
// ScorerRunError.
//
// `output` is what Mastra gives the scorer (stored messages for the agent
// scorers and checks, a Trajectory {steps} for the trajectory scorers) or
// any trace toolgrade's readers know, whose calls are then read as
// tool invocations (agent scorers) or tool_call steps (trajectory scorers).

import { randomUUID } from "node:crypto";
import { failed, foreignCalls, noUnknownOptions, peerError, scoreOne } from "./lib/dropin.js";

class Scorer {
  #entry;
  #kind;

  constructor(id, description, entry, kind) {
    this.id = id;
    this.name = id;
    this.description = description;
    this.#entry = entry;
    this.#kind = kind;
  }

  /** toolgrade's metric entry for this scorer (docs/profiles.md#profile-mastra). */
  toolgradeConfig() {
    return structuredClone(this.#entry);
  }

  /**
   * Scores one run, as Mastra's scorer.run does.
   * @param {{input?: any, output: any, expectedTrajectory?: any, runId?: string}} run
   */
  async run(run) {
    if (run === null || typeof run !== "object") throw new TypeError(`${this.id}: run: want an object {input, output}, got ${run === null ? "null" : typeof run}`);
    let kase;
    if (this.#kind === "trajectory") {
      kase = { trajectory: await trajectory(run.output), expected_trajectory: run.expectedTrajectory };
    } else {
      kase = { output: await messages(run.output) };
      if (this.#kind === "messages+input") kase.input_messages = run.input?.inputMessages;
    }
    const m = await scoreOne(kase, this.#entry);
    if (m.error) throw peerError(m.error, "ScorerRunError");
    return { ...run, runId: run.runId ?? randomUUID(), score: m.score, reason: m.reason };
  }
}

// messages is a run's output as stored messages: as given, or, for a
// trace in another format, one assistant message holding its calls.
async function messages(output) {
  if (Array.isArray(output) && output.some(hasInvocations)) return output;
  const calls = await foreignCalls(output);
  if (!calls) return output;
  const parts = calls.map((c, i) => {
    const inv = { toolCallId: c.id ?? `call_${i}`, toolName: c.name, args: c.args ?? {}, state: "result" };
    if (failed(c)) {
      inv.isError = true;
      inv.result = c.output.content;
    } else if (c.output !== null) {
      inv.result = c.output;
    }
    return { type: "tool-invocation", toolInvocation: inv };
  });
  return [{ id: "toolgrade-0", role: "assistant", content: { format: 2, parts } }];
}

function hasInvocations(m) {
  const content = m?.content;
  if (content === null || typeof content !== "object") return false;
  return (Array.isArray(content.toolInvocations) && content.toolInvocations.length > 0) ||
    (Array.isArray(content.parts) && content.parts.some((p) => p?.type === "tool-invocation"));
}

// trajectory is a run's output as a Trajectory: as given, or, for a trace
// in another format, its calls as tool_call steps.
async function trajectory(output) {
  if (output !== null && typeof output === "object" && !Array.isArray(output) && "steps" in output) return output;
  const calls = await foreignCalls(output, (format) => format === "mastra");
  if (!calls) return output;
  return {
    steps: calls.map((c) => {
      const step = { stepType: "tool_call", name: c.name };
      if (c.args !== null) step.toolArgs = c.args;
      if (failed(c)) {
        step.toolResult = c.output.content;
        step.success = false;
      } else if (c.output !== null) {
        step.toolResult = c.output;
        step.success = true;
      }
      return step;
    }),
  };
}

// snake renames an options object's keys by table (unknown keys are
// refused), leaving the values as they are.
function snake(where, options, table) {
  if (options === undefined || options === null) return undefined;
  noUnknownOptions(where, options, Object.keys(table));
  const out = {};
  for (const [k, v] of Object.entries(options)) if (v !== undefined) out[table[k]] = v;
  return out;
}

function compact(entry) {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
}

/**
 * Mastra's createToolCallAccuracyScorerCode({expectedTool, strictMode,
 * expectedToolOrder}): 1 when the expected tool was called (with
 * strictMode, as the only call), or the names first occur in
 * expectedToolOrder's order.
 */
export function createToolCallAccuracyScorerCode(options) {
  noUnknownOptions("createToolCallAccuracyScorerCode", options, ["expectedTool", "strictMode", "expectedToolOrder"]);
  const { expectedTool, strictMode, expectedToolOrder } = options ?? {};
  if (!expectedTool && !expectedToolOrder) throw new Error("createToolCallAccuracyScorerCode: give expectedTool or expectedToolOrder");
  return new Scorer("code-tool-call-accuracy-scorer", "Evaluates whether the expected tools were called",
    compact({ profile: "mastra", scorer: "code-tool-call-accuracy-scorer", expected_tool: expectedTool, strict_mode: strictMode, expected_tool_order: expectedToolOrder }),
    "messages+input");
}

/**
 * Mastra's createTrajectoryAccuracyScorerCode({expectedTrajectory,
 * comparisonOptions: {ordering, allowRepeatedSteps}}): how well the steps
 * follow the expected steps (the option's, else the run's
 * expectedTrajectory).
 */
export function createTrajectoryAccuracyScorerCode(options) {
  noUnknownOptions("createTrajectoryAccuracyScorerCode", options, ["expectedTrajectory", "comparisonOptions"]);
  const { expectedTrajectory, comparisonOptions } = options ?? {};
  return new Scorer("code-trajectory-accuracy-scorer", "Evaluates how well the trajectory follows the expected steps",
    compact({
      profile: "mastra",
      scorer: "code-trajectory-accuracy-scorer",
      expected_trajectory: expectedTrajectory,
      comparison_options: snake("comparisonOptions", comparisonOptions, { ordering: "ordering", allowRepeatedSteps: "allow_repeated_steps" }),
    }),
    "trajectory");
}

const EXPECTATION = {
  steps: "steps",
  ordering: "ordering",
  allowRepeatedSteps: "allow_repeated_steps",
  maxSteps: "max_steps",
  maxTotalTokens: "max_total_tokens",
  maxTotalDurationMs: "max_total_duration_ms",
  noRedundantCalls: "no_redundant_calls",
  blacklistedTools: "blacklisted_tools",
  blacklistedSequences: "blacklisted_sequences",
  maxRetriesPerTool: "max_retries_per_tool",
};

/**
 * Mastra's createTrajectoryScorerCode({defaults, weights}): accuracy,
 * efficiency, tool failures and blacklist, weighted (0.4, 0.3, 0.2, 0.1
 * by default) over the dimensions the expectation switches on.
 */
export function createTrajectoryScorerCode(options) {
  noUnknownOptions("createTrajectoryScorerCode", options, ["defaults", "weights"]);
  const { defaults, weights } = options ?? {};
  return new Scorer("code-trajectory-scorer", "Evaluates the trajectory's accuracy, efficiency, tool failures and blacklist",
    compact({
      profile: "mastra",
      scorer: "code-trajectory-scorer",
      defaults: snake("defaults", defaults, EXPECTATION),
      weights: snake("weights", weights, { accuracy: "accuracy", efficiency: "efficiency", toolFailures: "tool_failures", blacklist: "blacklist" }),
    }),
    "trajectory");
}

function check(scorer, description, fields = {}) {
  return new Scorer(scorer, description, compact({ profile: "mastra", scorer, ...fields }), "messages");
}

/** checks.calledTool: 1 when the tool was called at least `times` times (default 1). */
export function calledTool(toolName, options) {
  noUnknownOptions("calledTool", options, ["times"]);
  return check("check-called-tool", `Checks that ${toolName} was called`, { tool_name: toolName, times: options?.times });
}

/** checks.didNotCall: 1 when the tool was never called. */
export function didNotCall(toolName) {
  return check("check-did-not-call", `Checks that ${toolName} was not called`, { tool_name: toolName });
}

/** checks.toolOrder: 1 when the names occur in this order (other calls may come between). */
export function toolOrder(expectedOrder) {
  return check("check-tool-order", "Checks the order of the tool calls", { expected_order: expectedOrder });
}

/** checks.maxToolCalls: 1 when there are at most `max` calls. */
export function maxToolCalls(max) {
  return check("check-max-tool-calls", `Checks that at most ${max} tools were called`, { max });
}

/** checks.usedNoTools: 1 when no tool was called. */
export function usedNoTools() {
  return check("check-used-no-tools", "Checks that no tool was called");
}

/** checks.noToolErrors: 1 when no tool invocation failed. */
export function noToolErrors() {
  return check("check-no-tool-errors", "Checks that no tool call failed");
}

/**
 * Mastra's quick checks for tool use (`checks` of @mastra/evals). The text
 * checks (includes, equals, similarity...) grade no tool use and are not
 * here.
 */
export const checks = { calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors };
