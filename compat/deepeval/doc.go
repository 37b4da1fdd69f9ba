// Package deepeval reproduces the scores of DeepEval's
// ToolCorrectnessMetric exactly, quirks included: the deepeval profile,
// whose options are the metric's own (should_consider_ordering,
// should_exact_match, evaluation_params, strict_mode, threshold), so that
// a DeepEval configuration is a metric entry as it stands. Variant picks
// the release: deepeval 4.1 (the default), 3.8, or the
// MultimodalToolCorrectnessMetric of 3.7.4.
//
// The rules, briefly ([Metric] has them in full):
//
//   - Calls are comparable by name (and, in v4, by type); evaluation_params
//     adds arguments, with partial credit per key, and outputs.
//   - Each expected call takes the best unused called call, calls equal by
//     value counting as used together; should_consider_ordering scores a
//     weighted longest common subsequence instead, should_exact_match 1 or
//     0. The score is over the number of expected calls: extra calls cost
//     nothing.
//   - threshold: null scores without a verdict (NoThreshold), and
//     strict_mode turns any score below 1 into 0, as in DeepEval.
//   - With a judge, a case that lists available tools scores the lower of
//     this score and the judge's tool-selection score, as DeepEval's LLM
//     step does.
//   - Where DeepEval raises, the result is an error naming the exception.
//
// Non-goals: DeepEval's verbose logs and its test runner; the judge's
// prompt wording, which is toolgrade's.
package deepeval
