// Every new peer's conformance lines (compat/<peer>/testdata/<peer>.jsonl:
// the peers' real outputs) through the drop-ins, called as the peers'
// own functions are, give the peers' scores, verdicts and errors.
// TOOLGRADE_CONFORMANCE_DIR=DIR reads DIR/<peer>.jsonl instead (a whole
// corpus, or its hidden half).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createTrajectoryMatchEvaluator } from "toolgrade/openevals";
import { toolCallAccuracy } from "toolgrade/evalite";
import * as mastra from "toolgrade/mastra";
import promptfoo from "toolgrade/promptfoo";

const repo = process.env.TOOLGRADE_REPO ?? "";
const dir = process.env.TOOLGRADE_CONFORMANCE_DIR;

function lines(peer) {
  const file = dir ? join(dir, `${peer}.jsonl`) : join(repo, "compat", peer, "testdata", `${peer}.jsonl`);
  if (!existsSync(file)) return null;
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/**
 * Runs measure(line) on every line: it returns {score, success} or throws
 * as the peer does. A line whose expect has an error must throw an error
 * of that class (the name before the colon).
 */
async function check(t, peer, measure) {
  const all = lines(peer);
  if (!all) return t.skip(`no conformance data for ${peer} (set TOOLGRADE_REPO)`);
  const failures = [];
  let scored = 0;
  for (const line of all) {
    const want = line.expect;
    let got;
    try {
      got = await measure(line);
    } catch (err) {
      if (!want.error) failures.push(`${line.id}: threw ${err.name}: ${err.message}`);
      else if (!isClass(err, want.error.split(":")[0])) failures.push(`${line.id}: threw ${err.name} (${err.message}), want ${want.error}`);
      continue;
    }
    if (want.error) {
      failures.push(`${line.id}: scored ${got.score}, want ${want.error}`);
      continue;
    }
    if (Math.abs(got.score - want.score) > 1e-9) failures.push(`${line.id}: score ${got.score}, want ${want.score}`);
    else if (want.success !== null && want.success !== undefined && got.success !== want.success) failures.push(`${line.id}: success ${got.success}, want ${want.success}`);
    else if (got.check) got.check(want, failures, line.id);
    scored++;
  }
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${all.length} lines differ`);
  assert.ok(scored > 0);
}

// isClass: the error is of the peer's class: an instance of the built-in,
// or a toolgrade error named as the peer's.
function isClass(err, name) {
  if (name === "Error") return err instanceof Error && !(err instanceof TypeError) && !(err instanceof SyntaxError);
  const builtin = globalThis[name];
  return (typeof builtin === "function" && err instanceof builtin) || err.name === name;
}

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const camelKeys = (o) => (o && typeof o === "object" && !Array.isArray(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [camel(k), v])) : o);

test("openevals: createTrajectoryMatchEvaluator", async (t) => {
  await check(t, "openevals", async ({ config: c, case: k }) => {
    const opts = { trajectoryMatchMode: c.trajectory_match_mode, toolArgsMatchMode: c.tool_args_match_mode };
    if ("tool_args_match_overrides" in c) opts.toolArgsMatchOverrides = c.tool_args_match_overrides;
    const evaluator = createTrajectoryMatchEvaluator(opts);
    const r = await evaluator({ outputs: k.trajectory, referenceOutputs: k.expected_trajectory });
    assert.equal(r.key, `trajectory_${c.trajectory_match_mode}_match`);
    assert.equal(typeof r.score, "boolean");
    return { score: r.score ? 1 : 0, success: r.score };
  });
});

test("evalite: toolCallAccuracy", async (t) => {
  const calls = (list) => (Array.isArray(list) ? list.map((c) => ("args" in c ? { toolName: c.name, input: c.args } : { toolName: c.name })) : list);
  await check(t, "evalite", async ({ config: c, case: k }) => {
    const opts = { actualCalls: calls(k.tools_called), expectedCalls: calls(k.expected_tools) };
    if ("mode" in c) opts.mode = c.mode;
    if ("weights" in c) opts.weights = camelKeys(c.weights);
    const r = await toolCallAccuracy(opts);
    assert.equal(r.name, "Tool Call Accuracy");
    return {
      score: r.score,
      check(want, failures, id) {
        for (const key of ["exactMatches", "nameOnlyMatches", "wrongOrMissing", "extras", "missing"]) {
          if (want.metadata && key in want.metadata && r.metadata[key] !== want.metadata[key]) failures.push(`${id}: metadata.${key} ${r.metadata[key]}, want ${want.metadata[key]}`);
        }
      },
    };
  });
});

const mastraFactories = {
  "code-tool-call-accuracy-scorer": (c) => mastra.createToolCallAccuracyScorerCode(pick(c, ["expected_tool", "strict_mode", "expected_tool_order"])),
  "code-trajectory-accuracy-scorer": (c) => mastra.createTrajectoryAccuracyScorerCode({
    ...pick(c, ["expected_trajectory"]),
    ...(c.comparison_options !== undefined && { comparisonOptions: camelKeys(c.comparison_options) }),
  }),
  "code-trajectory-scorer": (c) => mastra.createTrajectoryScorerCode({
    ...(c.defaults !== undefined && { defaults: camelKeys(c.defaults) }),
    ...(c.weights !== undefined && { weights: camelKeys(c.weights) }),
  }),
  "check-called-tool": (c) => mastra.checks.calledTool(c.tool_name, "times" in c ? { times: c.times } : undefined),
  "check-did-not-call": (c) => mastra.checks.didNotCall(c.tool_name),
  "check-tool-order": (c) => mastra.checks.toolOrder(c.expected_order),
  "check-max-tool-calls": (c) => mastra.checks.maxToolCalls(c.max),
  "check-used-no-tools": () => mastra.checks.usedNoTools(),
  "check-no-tool-errors": () => mastra.checks.noToolErrors(),
};

function pick(c, keys) {
  return Object.fromEntries(keys.filter((k) => k in c).map((k) => [camel(k), c[k]]));
}

test("mastra: the code scorers and checks", async (t) => {
  await check(t, "mastra", async ({ config: c, case: k }) => {
    const scorer = mastraFactories[c.scorer](c);
    const trajectory = c.scorer.startsWith("code-trajectory");
    const run = trajectory
      ? { input: { inputMessages: [] }, output: k.trajectory, ...("expected_trajectory" in k && { expectedTrajectory: k.expected_trajectory }) }
      : { input: { inputMessages: k.input_messages }, output: k.output };
    const r = await scorer.run(run);
    assert.equal(r.output, run.output);
    assert.equal(typeof r.runId, "string");
    return { score: r.score };
  });
});

test("promptfoo: the tool-call assertions", async (t) => {
  await check(t, "promptfoo", async ({ config: c, case: k }) => {
    const config = { type: c.type };
    for (const key of ["threshold", "weight"]) if (key in c) config[key] = c[key];
    if ("value" in k) config.value = k.value;
    const tools = k.available_tools === undefined ? {} : c.type.endsWith("function-call") ? { functions: k.available_tools } : { tools: k.available_tools };
    const context = { vars: {}, test: { vars: {} }, provider: { config: tools }, config };
    if (k.trace) context.trace = k.trace;
    const r = await promptfoo(k.output, context);
    return { score: r.score, success: r.pass };
  });
});
