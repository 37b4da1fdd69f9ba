// openevals' createTrajectoryMatchEvaluator, scored by toolgrade's
// openevals profile.

export type TrajectoryMatchMode = "strict" | "unordered" | "subset" | "superset";
export type ToolArgsMatchMode = "exact" | "ignore" | "subset" | "superset";
/** Per tool name: a mode, or the dotted key paths to compare. (Functions cannot cross into the binary.) */
export type ToolArgsMatchOverrides = Record<string, ToolArgsMatchMode | string[]>;

/** An OpenAI chat message, as openevals reads them. */
export type ChatCompletionMessage = Record<string, any> & { role: string; content?: any; tool_calls?: any[]; tool_call_id?: string };

/**
 * A trajectory: OpenAI chat messages, `{messages}`, one message, LangChain
 * message objects, or any trace toolgrade reads.
 */
export type TrajectoryInput = ChatCompletionMessage[] | { messages: unknown[] } | ChatCompletionMessage | unknown;

export interface EvaluatorResult {
  key: string;
  score: number | boolean;
  comment?: string;
  metadata?: Record<string, unknown>;
}

export declare function createTrajectoryMatchEvaluator(options?: {
  trajectoryMatchMode?: TrajectoryMatchMode;
  toolArgsMatchMode?: ToolArgsMatchMode;
  toolArgsMatchOverrides?: ToolArgsMatchOverrides;
}): (params: {
  outputs: TrajectoryInput;
  referenceOutputs: TrajectoryInput;
  inputs?: unknown;
  [key: string]: unknown;
}) => Promise<EvaluatorResult>;
