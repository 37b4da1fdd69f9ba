// `import "toolgrade/vitest"` registers toCallTools with Vitest.

import type { ExpectedCalls, MatcherOptions } from "./matchers.js";

interface ToolgradeMatchers<R = unknown> {
  /** The run (any trace, toolgrade calls, or the AI SDK's calls) calls the expected tools. Await it. */
  toCallTools(expected: ExpectedCalls, options?: MatcherOptions): Promise<R>;
}

declare module "vitest" {
  interface Assertion<T = any> extends ToolgradeMatchers<void> {}
  interface AsymmetricMatchersContaining extends ToolgradeMatchers {}
}

export {};
