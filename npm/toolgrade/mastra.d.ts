// Mastra's code scorers and quick checks for tool use, scored by
// toolgrade's mastra profile.

import type { MetricEntry } from "./index.js";

/** What Mastra's scorer.run takes. */
export interface ScorerRun<TOutput = unknown> {
  runId?: string;
  input?: { inputMessages?: unknown[]; [key: string]: unknown } | unknown;
  /** Mastra's output (stored messages, or a Trajectory), or any trace toolgrade reads. */
  output: TOutput;
  expectedTrajectory?: TrajectoryExpectation;
  [key: string]: unknown;
}

/** What Mastra's scorer.run resolves to: the run, its id, the score and toolgrade's reason. */
export type ScorerRunResult<TOutput = unknown> = ScorerRun<TOutput> & {
  runId: string;
  score: number;
  reason: string;
};

export interface MastraScorer<TID extends string = string> {
  readonly id: TID;
  readonly name: string;
  readonly description: string;
  run<TOutput>(run: ScorerRun<TOutput>): Promise<ScorerRunResult<TOutput>>;
  /** toolgrade's metric entry for this scorer. */
  toolgradeConfig(): MetricEntry;
}

/** A step of a Mastra trajectory (its own camelCase fields). */
export interface TrajectoryStep {
  stepType?: string;
  name?: string;
  toolArgs?: unknown;
  toolResult?: unknown;
  success?: boolean;
  children?: unknown;
  [field: string]: unknown;
}

export interface Trajectory {
  steps: TrajectoryStep[];
  totalDurationMs?: number;
}

export interface TrajectoryExpectation {
  steps?: TrajectoryStep[];
  ordering?: "strict" | "relaxed" | "unordered";
  allowRepeatedSteps?: boolean;
  maxSteps?: number;
  maxTotalTokens?: number;
  maxTotalDurationMs?: number;
  noRedundantCalls?: boolean;
  blacklistedTools?: string[];
  blacklistedSequences?: string[][];
  maxRetriesPerTool?: number;
}

export interface TrajectoryComparisonOptions {
  ordering?: "strict" | "relaxed" | "unordered";
  allowRepeatedSteps?: boolean;
}

export interface TrajectoryScoreWeights {
  accuracy?: number;
  efficiency?: number;
  toolFailures?: number;
  blacklist?: number;
}

export declare function createToolCallAccuracyScorerCode(options: {
  expectedTool?: string;
  strictMode?: boolean;
  expectedToolOrder?: string[];
}): MastraScorer<"code-tool-call-accuracy-scorer">;

export declare function createTrajectoryAccuracyScorerCode(options?: {
  expectedTrajectory?: Trajectory | TrajectoryStep[];
  comparisonOptions?: TrajectoryComparisonOptions;
}): MastraScorer<"code-trajectory-accuracy-scorer">;

export declare function createTrajectoryScorerCode(options?: {
  defaults?: TrajectoryExpectation;
  weights?: TrajectoryScoreWeights;
}): MastraScorer<"code-trajectory-scorer">;

export declare function calledTool(toolName: string, options?: { times?: number }): MastraScorer<"check-called-tool">;
export declare function didNotCall(toolName: string): MastraScorer<"check-did-not-call">;
export declare function toolOrder(expectedOrder: string[]): MastraScorer<"check-tool-order">;
export declare function maxToolCalls(max: number): MastraScorer<"check-max-tool-calls">;
export declare function usedNoTools(): MastraScorer<"check-used-no-tools">;
export declare function noToolErrors(): MastraScorer<"check-no-tool-errors">;

export declare const checks: {
  calledTool: typeof calledTool;
  didNotCall: typeof didNotCall;
  toolOrder: typeof toolOrder;
  maxToolCalls: typeof maxToolCalls;
  usedNoTools: typeof usedNoTools;
  noToolErrors: typeof noToolErrors;
};
