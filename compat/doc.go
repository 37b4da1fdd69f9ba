// Package compat holds the profiles that reproduce other tools'
// tool-calling scores exactly, so that a team switching to toolgrade keeps
// its baselines. Each peer has a package of its own below this one, which
// implements [toolgrade.Metric] with the peer's option names and every
// quirk of its code:
//
//   - compat/deepeval: DeepEval's ToolCorrectnessMetric
//   - compat/axion: Axion's ToolCorrectness
//   - compat/agentevals: LangChain agentevals' trajectory match evaluator
//   - compat/adk: Google ADK's tool_trajectory_avg_score
//   - compat/deepfabric: DeepFabric's tool-calling evaluation
//   - compat/bfcl: the Berkeley Function Calling Leaderboard's AST checker;
//     compat/bfcl/leaderboard its data folders, result files and score
//     table
//   - compat/ragas: Ragas' ToolCallAccuracy and ToolCallF1
//   - compat/openevals: openevals' trajectory match, agentevals' successor
//   - compat/evalite: evalite's toolCallAccuracy
//
// A peer's quirks live in its package, never in package match or the
// root. Python semantics that several peers share (== across ints, floats
// and bools, str.strip and str.lower) live in compat/internal/python, and
// JavaScript semantics (undefined, ===, Object.keys order, JSON.stringify)
// in compat/internal/js; the trajectory match agentevals and openevals
// share is compat/internal/trajectorymatch. What several peers' datasets
// share lives here: the table of the keys under which their calls give
// arguments ("input_parameters", "arguments", ...), with which
// [DecodeCalls] reads the calls of case files.
// Package config builds any of them from a metric entry ("profile:
// deepeval" and the peer's own option names).
//
// The rules every profile keeps: a peer's numbers are reproduced exactly,
// as its real code computes them (not as its docs say), pinned to a
// release and proved by conformance lines produced by running that code;
// where the peer raises, the result is an error naming the exception,
// never a made-up score; options and case fields keep the peer's
// spellings.
//
// Non-goals: a peer's LLM prompts and logs, its runners and report
// formats, and fixing its quirks, which baselines depend on.
package compat
