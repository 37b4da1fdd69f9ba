// The Jest setup file "toolgrade/jest" registers toCallTools.

import type { ExpectedCalls, MatcherOptions } from "./matchers.js";

declare global {
  namespace jest {
    interface Matchers<R> {
      /** The run (any trace, toolgrade calls, or the AI SDK's calls) calls the expected tools. Await it. */
      toCallTools(expected: ExpectedCalls, options?: MatcherOptions): Promise<R>;
    }
  }
}

export {};
