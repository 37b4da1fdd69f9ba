// Package agentevals reproduces the verdicts of LangChain agentevals'
// trajectory match evaluator (the JavaScript package, agentevals 0.0.7):
// the agentevals profile, whose options are the evaluator's own
// (trajectory_match_mode, tool_args_match_mode,
// tool_args_match_overrides).
//
// The rules, briefly ([Metric] has them in full):
//
//   - The case's trajectory is the evaluator's outputs and its
//     expected_trajectory the reference, both OpenAI chat messages.
//   - strict compares the trajectories message by message; unordered,
//     superset and subset compare the calls of all messages, flattened.
//   - Calls pair first-fit, without backtracking, as agentevals pairs
//     them: a name must be equal and the arguments must match by the
//     argument mode, compared with JavaScript's rules.
//   - The score is 1 or 0 and the threshold 1: success is the
//     evaluator's verdict.
//
// Non-goals: matcher functions as overrides (they are not data),
// LangChain message objects, and the Python package's differences.
package agentevals
