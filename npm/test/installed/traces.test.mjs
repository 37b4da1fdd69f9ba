// The drop-ins accept any trace toolgrade reads besides their peers' own
// shapes, and refuse options their peers would silently drop.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createTrajectoryMatchEvaluator } from "toolgrade/openevals";
import { toolCallAccuracy } from "toolgrade/evalite";
import { checks, createToolCallAccuracyScorerCode, createTrajectoryAccuracyScorerCode } from "toolgrade/mastra";
import { toolgrade, toolCallF1 } from "toolgrade/promptfoo";

const openai = (...calls) => [
  { role: "user", content: "Plan my day" },
  ...calls.map(([name, args], i) => ({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name, arguments: JSON.stringify(args) } }] })),
];
const anthropic = (...calls) => ({
  model: "claude",
  messages: [
    { role: "user", content: "Plan my day" },
    { role: "assistant", content: calls.map(([name, input], i) => ({ type: "tool_use", id: `t${i}`, name, input })) },
  ],
});
const search = ["search", { q: "paris" }];
const weather = ["get_weather", { city: "Paris" }];

describe("openevals", () => {
  test("an Anthropic trace against an OpenAI reference gives the verdict the calls deserve", async () => {
    for (const [mode, out, ref, want] of [
      ["unordered", anthropic(weather, search), openai(search, weather), true],
      ["superset", anthropic(weather, search), openai(search), true],
      ["subset", anthropic(weather, search), openai(search), false],
      ["strict", anthropic(search, weather), openai(search, weather), true],
      ["strict", anthropic(weather, search), openai(search, weather), false],
    ]) {
      const r = await createTrajectoryMatchEvaluator({ trajectoryMatchMode: mode })({ outputs: out, referenceOutputs: ref });
      assert.equal(r.score, want, `${mode}: ${r.comment}`);
    }
  });

  test("LangChain message objects are read as openevals converts them", async () => {
    class AIMessage {
      constructor(fields) { Object.assign(this, fields); }
      getType() { return "ai"; }
    }
    class HumanMessage extends AIMessage {
      getType() { return "human"; }
    }
    const lc = [new HumanMessage({ content: "Plan my day" }), new AIMessage({ content: "", tool_calls: [{ id: "c0", name: "search", args: { q: "paris" } }] })];
    const r = await createTrajectoryMatchEvaluator({ trajectoryMatchMode: "strict" })({ outputs: lc, referenceOutputs: openai(search) });
    assert.equal(r.score, true, r.comment);
  });

  test("options openevals ignores are refused; modes are checked when the evaluator is built", async () => {
    assert.throws(() => createTrajectoryMatchEvaluator({ trajectoryMatchMod: "unordered" }), /unknown option "trajectoryMatchMod"/);
    assert.throws(() => createTrajectoryMatchEvaluator({ trajectoryMatchMode: "ordered" }), (err) => err instanceof Error && /ordered/.test(err.message));
    assert.throws(() => createTrajectoryMatchEvaluator({ toolArgsMatchOverrides: { search: () => true } }), TypeError);
    const evaluator = createTrajectoryMatchEvaluator();
    await assert.rejects(evaluator({ outputs: [], referenceOutputs: [], toolArgsMatchMode: "ignore" }), TypeError);
    assert.equal((await evaluator({ outputs: [], referenceOutputs: [], inputs: { q: 1 } })).key, "trajectory_strict_match");
    await assert.rejects(evaluator({ outputs: openai(["search", {}]).map((m) => m.tool_calls ? { ...m, tool_calls: [{ ...m.tool_calls[0], function: { name: "search", arguments: "{bad" } }] } : m), referenceOutputs: openai(search) }), SyntaxError);
  });
});

describe("evalite", () => {
  test("an OpenAI trace scores as its calls would", async () => {
    const native = await toolCallAccuracy({ actualCalls: [{ toolName: "get_weather", input: { city: "Paris" } }, { toolName: "search", input: { q: "lyon" } }], expectedCalls: [{ toolName: "get_weather", input: { city: "Paris" } }, { toolName: "search", input: { q: "paris" } }] });
    const traced = await toolCallAccuracy({ actualCalls: openai(weather, ["search", { q: "lyon" }]), expectedCalls: [{ toolName: "get_weather", input: { city: "Paris" } }, { toolName: "search", input: { q: "paris" } }] });
    assert.equal(native.score, 0.75 - 0);
    assert.equal(traced.score, native.score);
    assert.deepEqual([traced.metadata.exactMatches, traced.metadata.nameOnlyMatches], [1, 1]);
  });

  test("unknown options and weights are refused; a null list is evalite's TypeError", async () => {
    await assert.rejects(toolCallAccuracy({ actualCalls: [], expectedCalls: [], mdoe: "flexible" }), /unknown option "mdoe"/);
    await assert.rejects(toolCallAccuracy({ actualCalls: [], expectedCalls: [], weights: { name_only: 1 } }), /unknown option "name_only"/);
    await assert.rejects(toolCallAccuracy({ actualCalls: null, expectedCalls: [{ toolName: "a" }] }), TypeError);
  });
});

describe("mastra", () => {
  test("the agent scorers and checks read an OpenAI or Anthropic trace's calls", async () => {
    const input = { inputMessages: [{ role: "user", content: "Plan my day" }] };
    const byTool = createToolCallAccuracyScorerCode({ expectedToolOrder: ["search", "get_weather"] });
    assert.equal((await byTool.run({ input, output: openai(search, weather) })).score, 1);
    assert.equal((await byTool.run({ input, output: anthropic(weather, search) })).score, 0);
    assert.equal((await checks.calledTool("search").run({ output: anthropic(search) })).score, 1);
    assert.equal((await checks.usedNoTools().run({ output: anthropic(search) })).score, 0);
    assert.equal((await checks.maxToolCalls(1).run({ output: openai(search, weather) })).score, 0);
  });

  test("the trajectory scorers read a trace's calls as tool_call steps", async () => {
    const scorer = createTrajectoryAccuracyScorerCode({ expectedTrajectory: [{ stepType: "tool_call", name: "search" }, { stepType: "tool_call", name: "get_weather" }], comparisonOptions: { ordering: "strict" } });
    assert.equal((await scorer.run({ output: openai(search, weather) })).score, 1);
    assert.equal((await scorer.run({ output: { steps: [{ stepType: "tool_call", name: "search" }] } })).score, 0.5);
  });

  test("errors are Mastra's: the factory's Error, the run's ScorerRunError; unknown options are refused", async () => {
    assert.throws(() => createToolCallAccuracyScorerCode({}), /expectedTool or expectedToolOrder/);
    assert.throws(() => createToolCallAccuracyScorerCode({ expectedTools: ["a"] }), /unknown option "expectedTools"/);
    await assert.rejects(createToolCallAccuracyScorerCode({ expectedTool: "a" }).run({ input: { inputMessages: [] }, output: [] }), (err) => err.name === "ScorerRunError");
    const r = await checks.calledTool("search").run({ runId: "r1", output: openai(search), groundTruth: 1 });
    assert.deepEqual([r.runId, r.groundTruth, typeof r.reason], ["r1", 1, "string"]);
  });
});

describe("promptfoo", () => {
  test("the toolgrade assertion grades any trace with toolgrade's metrics", async () => {
    const ok = await toolgrade(anthropic(weather), { config: { expected_tools: [{ name: "get_weather", args: { city: "Paris" } }] } });
    assert.deepEqual([ok.pass, ok.score], [true, 1]);
    const bad = await toolgrade(JSON.stringify(anthropic(["get_weather", { city: "Lyon" }])), { config: { order: "exact" }, vars: { expected_tools: [{ name: "get_weather", args: { city: "Paris" } }] } });
    assert.equal(bad.pass, false);
    assert.match(bad.reason, /city expected "Paris", got "Lyon"/);
  });

  test("a named assertion takes its own type only; unknown config keys are refused", async () => {
    const r = await toolCallF1({ tool_calls: [{ function: { name: "search", arguments: "{}" } }] }, { config: { value: "search, get_weather", threshold: 0.5 } });
    assert.deepEqual([r.pass, r.score], [true, 2 / 3]);
    await assert.rejects(toolCallF1("", { config: { type: "trajectory:tool-used", value: "x" } }), TypeError);
    await assert.rejects(toolCallF1("", { config: { value: "x", treshold: 1 } }), /unknown option "treshold"/);
  });
});
