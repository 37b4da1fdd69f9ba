// Package deepfabric reproduces the scores of DeepFabric's evaluation
// pipeline (always-further/deepfabric @ 8fdd2a3, v4.12.0: its
// tool_calling evaluator and compute_metrics): the deepfabric profile,
// whose options are DeepFabric's (multi_turn, metric_weights) plus
// toolgrade's execution.
//
// The rules, briefly ([Metric] has them in full):
//
//   - A sample scores four parts: tool selection, parameter accuracy,
//     execution success and response quality. Single-turn, the default,
//     reads only the first expected and the first called call; multi_turn
//     reads them all.
//   - Parameter accuracy checks the called call against its tool's schema
//     in available_tools (required parameters present, types right) and
//     never compares values; without a schema it compares values.
//   - The score is the parts' weighted sum, by DeepFabric's weights (0.40,
//     0.35, 0.25 and 0) or metric_weights. A case with a samples list is a
//     dataset: each part is its mean over the samples.
//   - DeepFabric gives no verdict, so results have no threshold.
//   - execution: mcp runs the calls on a live MCP server instead of
//     DeepFabric's type check; it is toolgrade's own.
//
// Non-goals: the rest of DeepFabric (generating datasets, training,
// running the model under evaluation): a case carries the calls made.
package deepfabric
