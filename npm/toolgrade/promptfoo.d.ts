// promptfoo assertions (a `javascript` assertion module) scored by
// toolgrade's promptfoo profile, and toolgrade's own metrics.

/** promptfoo's grading result. */
export interface GradingResult {
  pass: boolean;
  score: number;
  reason: string;
}

/** The part of promptfoo's assertion context these assertions read. */
export interface AssertionContext {
  /** The assertion's `config`: type, value, threshold, weight (or, for `toolgrade`, a metric entry and expected_tools). */
  config?: Record<string, unknown>;
  provider?: { config?: { tools?: unknown; functions?: unknown; [key: string]: unknown }; [key: string]: unknown } | unknown;
  trace?: unknown;
  vars?: Record<string, unknown>;
  [key: string]: unknown;
}

export type Assertion = (output: unknown, context?: AssertionContext) => Promise<GradingResult>;

export declare const toolCallF1: Assertion;
export declare const isValidOpenaiToolsCall: Assertion;
export declare const isValidFunctionCall: Assertion;
export declare const isValidOpenaiFunctionCall: Assertion;
export declare const trajectoryToolUsed: Assertion;
export declare const trajectoryToolSequence: Assertion;
export declare const trajectoryToolArgsMatch: Assertion;
/** toolgrade's own metrics over any trace. */
export declare const toolgrade: Assertion;

/** The assertion `context.config.type` names (tool-call-f1 by default), carrying the named ones too. */
declare const assert: Assertion & {
  toolCallF1: Assertion;
  isValidOpenaiToolsCall: Assertion;
  isValidFunctionCall: Assertion;
  isValidOpenaiFunctionCall: Assertion;
  trajectoryToolUsed: Assertion;
  trajectoryToolSequence: Assertion;
  trajectoryToolArgsMatch: Assertion;
  toolgrade: Assertion;
};
export default assert;
