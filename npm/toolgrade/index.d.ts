// Type declarations of the toolgrade package: the API over the toolgrade
// process. The shapes are the JSON contracts of docs/cases.md,
// docs/config.md and docs/results.md.

/** This package's version, which its binary's `toolgrade version` prints too. */
export declare const VERSION: string;

/** Cases sent to the process per request. */
export declare const BATCH: number;

/** A tool call (docs/cases.md). */
export interface Call {
  name: string;
  /** The arguments: JSON, or a JSON text, which is parsed. */
  args?: unknown;
  output?: unknown;
  id?: string | null;
  type?: string;
  status?: "ok" | "error";
  turn?: number;
  [field: string]: unknown;
}

/**
 * A case (docs/cases.md): the calls made (`tools_called`, or a raw trace in
 * `trajectory`) and the calls expected (`expected_tools`, or
 * `expected_trajectory`). Profiles read their peers' own fields too
 * (`output`, `value`, `trace`, `input_messages`).
 */
export interface Case {
  id?: string;
  input?: string | unknown[];
  actual_output?: unknown;
  expected_output?: unknown;
  tools_called?: Call[] | null;
  expected_tools?: Call[] | null;
  trajectory?: unknown;
  expected_trajectory?: unknown;
  available_tools?: unknown;
  turns?: unknown[];
  [field: string]: unknown;
}

/** toolgrade's native metric (docs/metric.md, docs/config.md). */
export interface NativeEntry {
  profile?: "default";
  metric?: string;
  name?: string;
  order?: "any" | "in-order" | "exact";
  args?: "ignore" | "exact" | "contains" | "within" | "fuzzy" | "partial";
  output?: "ignore" | "exact";
  pairing?: "optimal" | "greedy";
  scoring?: "f1" | "recall" | "precision";
  threshold?: number;
  strict?: boolean;
  normalize_names?: boolean;
  fuzzy_threshold?: number;
  [option: string]: unknown;
}

/** A compatibility profile's entry, with the peer's own option names (docs/profiles.md). */
export interface ProfileEntry {
  profile: "deepeval" | "agentevals" | "openevals" | "axion" | "adk" | "deepfabric" | "bfcl" | "ragas" | "evalite" | "mastra" | "promptfoo";
  [option: string]: unknown;
}

/** One metric entry, as a config file's `metrics` list holds it. */
export type MetricEntry = NativeEntry | ProfileEntry;

/** The LLM judge's settings, as a config file's judge section (docs/judge.md). */
export interface JudgeSettings {
  model?: string;
  base_url?: string;
  key_env?: string;
  [setting: string]: unknown;
}

/** A config: one metric entry, a list of them, or `{metrics, judge}`; undefined is the native default metric. */
export type Config = MetricEntry | MetricEntry[] | { metrics: MetricEntry[]; judge?: JudgeSettings | null } | null | undefined;

/** Where an expected and a called argument differ. */
export interface ArgDiff {
  path: string;
  expected?: unknown;
  got?: unknown;
  note?: string;
}

/** An expected call paired with a called one, by index. */
export interface Match {
  expected: number;
  called: number;
  score: number;
  diffs?: ArgDiff[];
  [field: string]: unknown;
}

/** One metric's verdict on a case (docs/results.md). */
export interface MetricResult {
  name: string;
  profile: string;
  /** null when the metric could not score the case (see `error`). */
  score: number | null;
  /** null when the metric gives only a score. */
  success: boolean | null;
  threshold?: number | null;
  precision?: number;
  recall?: number;
  f1?: number;
  components?: Record<string, unknown>;
  matches?: Match[];
  missing?: number[];
  unexpected?: number[];
  failed?: number[];
  retried?: number[];
  turns?: unknown[];
  flows?: unknown[];
  rules?: unknown[];
  diffs?: unknown[];
  reason?: string;
  error: string | null;
  [field: string]: unknown;
}

/** Every metric's verdict on one case. */
export interface Result {
  id: string;
  success: boolean;
  metrics: MetricResult[];
  /** Set when the case itself could not be read. */
  error?: string | null;
  warnings?: string[];
  [field: string]: unknown;
}

/** A call read from a trace (docs/traces.md). */
export interface ExtractedCall {
  name: string;
  args: unknown;
  /** Argument text that is not valid JSON (args is then null). */
  args_raw?: string;
  id: string | null;
  output: unknown;
  type?: string;
}

/** The calls of a trace, its detected format, and the items of it no reader understood. */
export interface Trace {
  format: string;
  calls: ExtractedCall[];
  skipped: string[];
}

export interface EvaluateOptions {
  /** "throw" (default): an unreadable case throws a CaseError; "result": it is a result with `error`. */
  errors?: "throw" | "result";
  client?: Client;
  /** Cases per request (default BATCH). */
  batch?: number;
}

/** Grades cases: one result per case, in order. */
export declare function evaluate(cases: Iterable<Case> | AsyncIterable<Case>, config?: Config, options?: EvaluateOptions): Promise<Result[]>;

/** Grades cases a batch at a time, yielding one result per case in order. */
export declare function evaluateStream(cases: Iterable<Case> | AsyncIterable<Case>, config?: Config, options?: EvaluateOptions): AsyncGenerator<Result, void, undefined>;

/** Grades one case; throws a CaseError when it cannot be read. */
export declare function evaluateOne(kase: Case, config?: Config, options?: { client?: Client }): Promise<Result>;

/** The tool calls in a trace (decoded, or its text); `format` forces a reader. */
export declare function extract(trace: unknown, options?: { format?: string; client?: Client }): Promise<Trace>;

/** The version of the toolgrade binary ("v1.2.3"). */
export declare function version(options?: { client?: Client }): Promise<string>;

/** The config as a serve request carries it. */
export declare function requestConfig(config: Config): { metrics: MetricEntry[]; judge?: JudgeSettings } | undefined;

/**
 * One `toolgrade serve` process. Requests may be sent concurrently; a
 * process that dies is started again on the next request; an idle one does
 * not keep Node running.
 */
export declare class Client {
  /**
   * @param options.binary the toolgrade binary (default: $TOOLGRADE_BINARY, else the platform package's)
   * @param options.workers cases graded at once (default: one per CPU)
   */
  constructor(options?: { binary?: string; workers?: number });
  /** How many times the process was started again after it died. */
  readonly restarts: number;
  /** The running process's id, if one runs. */
  readonly pid: number | undefined;
  /** Sends one request (docs/serve.md) and resolves to its response. */
  request(req: { op: string; [key: string]: unknown }): Promise<any>;
  /** Sends one request given as JSON text. */
  requestText(line: string): Promise<any>;
  /** Ends the process. */
  close(): Promise<void>;
}

/** The base class of every toolgrade error. */
export declare class ToolgradeError extends Error {}

/** A metric config was rejected; `field` names the option at fault. */
export declare class ConfigError extends ToolgradeError {
  field?: string;
}

/** A case could not be read: its id, index and field say where. */
export declare class CaseError extends ToolgradeError {
  caseId?: string;
  index?: number;
  field?: string;
}

/** A metric could not score a case, as the peer it reproduces throws. */
export declare class MetricError extends ToolgradeError {
  caseId?: string;
}

/** The toolgrade process could not be started, or died while serving a request. */
export declare class ProcessError extends ToolgradeError {}
