// evalite's toolCallAccuracy, scored by toolgrade's evalite profile.

export interface ToolCall {
  toolName: string;
  input?: unknown;
}

export type ToolCallAccuracyMode = "exact" | "flexible";

export interface ToolCallAccuracyWeights {
  exact: number;
  nameOnly: number;
  extraPenalty: number;
  wrongPenalty: number;
}

export interface ToolCallAccuracyOpts {
  /** evalite's calls, or any trace toolgrade reads. */
  actualCalls: ToolCall[] | unknown;
  expectedCalls: ToolCall[] | unknown;
  mode?: ToolCallAccuracyMode;
  weights?: Partial<ToolCallAccuracyWeights>;
}

export declare function toolCallAccuracy(opts: ToolCallAccuracyOpts): Promise<{
  score: number;
  metadata?: unknown;
  name: string;
  description: string;
}>;
