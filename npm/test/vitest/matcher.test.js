// A Vitest project using toolgrade's matcher. The second test fails on
// purpose: matchers.test.mjs runs this project and checks that it fails
// with the reason's text while the others pass.

import { expect, test } from "vitest";
import "toolgrade/vitest";

// An agent's run, as the OpenAI chat API leaves it.
const run = [
  { role: "user", content: "What is the weather in Paris?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris","units":"C"}' } }],
  },
  { role: "tool", tool_call_id: "call_1", content: "18°C, sunny" },
];

test("a right call passes", async () => {
  await expect(run).toCallTools([{ name: "get_weather", args: { city: "Paris", units: "C" } }]);
});

test("a wrong call fails", async () => {
  await expect(run).toCallTools([{ name: "get_weather", args: { city: "Lyon", units: "C" } }]);
});

test("options are toolgrade's metric options", async () => {
  await expect(run).toCallTools([{ name: "get_weather", args: { city: "Paris" } }], { args: "contains" });
});

test(".not passes when the calls differ", async () => {
  await expect(run).not.toCallTools(["send_email"]);
});

test("the AI SDK's tool calls", async () => {
  const result = { steps: [{ toolCalls: [{ type: "tool-call", toolCallId: "t1", toolName: "search", input: { q: "paris" } }] }] };
  await expect(result).toCallTools([{ name: "search", args: { q: "paris" } }]);
});
