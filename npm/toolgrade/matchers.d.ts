// toolgrade's test matchers, for any runner with Jest's expect.

import type { Call, MetricEntry, Result } from "./index.js";

/** Expected calls: toolgrade calls, or bare names. */
export type ExpectedCalls = Array<Call | string>;

/** Options: a metric entry (order, args, threshold...), or a list of them. */
export type MatcherOptions = MetricEntry | MetricEntry[];

export interface MatcherResult {
  pass: boolean;
  message: () => string;
  /** On failure, the calls read from the run, for the runner's diff against `expected`. */
  actual?: unknown;
  expected?: unknown;
}

export declare function toCallTools(run: unknown, expected: ExpectedCalls, options?: MatcherOptions): Promise<MatcherResult>;
export declare const matchers: { toCallTools: typeof toCallTools };
/** The failure text of a result. */
export declare function describe(result: Result): string;
/** The case a matcher grades. */
export declare function matcherCase(run: unknown, expected: ExpectedCalls): Record<string, unknown>;
