// Compiled with tsc --noEmit against the installed package: the type
// declarations describe the API as the tests use it. Each @ts-expect-error
// line must be an error.

import { CaseError, Client, evaluate, evaluateStream, extract, type MetricEntry, type Result, type Trace } from "toolgrade";
import { createTrajectoryMatchEvaluator, type EvaluatorResult } from "toolgrade/openevals";
import { toolCallAccuracy } from "toolgrade/evalite";
import { checks, createToolCallAccuracyScorerCode, createTrajectoryScorerCode } from "toolgrade/mastra";
import assertion, { toolCallF1, type GradingResult } from "toolgrade/promptfoo";
import { matchers } from "toolgrade/matchers";
import { expect, test } from "vitest";
import "toolgrade/vitest";

export async function api(): Promise<void> {
  const results: Result[] = await evaluate([{ tools_called: [{ name: "a", args: { x: 1 } }], expected_tools: [{ name: "a" }] }], { order: "in-order" });
  const score: number | null = results[0].metrics[0].score;
  const entries: MetricEntry[] = [{ profile: "deepeval", evaluation_params: ["input_parameters"] }, { args: "contains" }];
  await evaluate([], entries, { errors: "result", batch: 10, client: new Client({ workers: 2 }) });
  for await (const r of evaluateStream([{ trajectory: [] }], { metrics: entries, judge: { model: "m" } })) r.id.toUpperCase();
  const t: Trace = await extract("[]", { format: "openai_chat" });
  t.calls[0].args_raw?.length;
  // @ts-expect-error: the order is one of any, in-order, exact
  await evaluate([], { order: "sideways" });
  try {
    await evaluate([{ tools_called: null }]);
  } catch (err) {
    if (err instanceof CaseError) (err.index ?? 0) + (err.field ?? "").length;
  }
  void score;
}

export async function dropins(): Promise<void> {
  const evaluator = createTrajectoryMatchEvaluator({ trajectoryMatchMode: "superset", toolArgsMatchOverrides: { search: ["query"] } });
  const r: EvaluatorResult = await evaluator({ outputs: [], referenceOutputs: { messages: [] } });
  // @ts-expect-error: not a trajectory mode
  createTrajectoryMatchEvaluator({ trajectoryMatchMode: "sideways" });
  const e = await toolCallAccuracy({ actualCalls: [{ toolName: "a", input: {} }], expectedCalls: [], mode: "flexible", weights: { nameOnly: 0.25 } });
  const scorer = createToolCallAccuracyScorerCode({ expectedTool: "search" });
  const run = await scorer.run({ input: { inputMessages: [] }, output: [] });
  const n: number = run.score + e.score + (r.score ? 1 : 0);
  await checks.calledTool("search", { times: 2 }).run({ output: [] });
  await createTrajectoryScorerCode({ defaults: { maxSteps: 3, blacklistedTools: ["rm"] }, weights: { toolFailures: 0.5 } }).run({ output: { steps: [] } });
  const g: GradingResult = await toolCallF1({ tool_calls: [] }, { config: { value: ["a"] } });
  await assertion.toolgrade("[]", { config: { expected_tools: [] } });
  void n, g, matchers.toCallTools;
}

test("the matcher's types", async () => {
  await expect([]).toCallTools(["search", { name: "get_weather", args: { city: "Paris" } }], { args: "contains" });
  await expect([]).not.toCallTools([], [{ scoring: "recall" }]);
  // @ts-expect-error: the expected calls are a list
  await expect([]).toCallTools("search");
});
