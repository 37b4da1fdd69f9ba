// Package reliability says how far a run's results can be trusted when an
// agent is not deterministic: it groups repeated trials of a case, gives
// pass rates and mean scores with their intervals, the unbiased pass@k and
// pass^k, flip rates and pass_k gates, and compares two runs without
// mistaking noise for a regression.
//
// The rules:
//
//   - Results with the same id are trials of one case, wherever they come
//     in the input ([Trials]). A trial's index is its case's Trial (the
//     "trial" field), or its place among the case's results. A trial
//     without a metric counts as failing it.
//   - A case passes over its trials when every trial passed, or, for a
//     metric with a gate ([PassK]), when pass^k over its trials is at least
//     the gate's minimum; a case with fewer than k trials fails the gate.
//   - Pass rates have Wilson score intervals ([Wilson]); mean scores have
//     Student's t intervals ([MeanCI]), clipped to [0, 1] when every score
//     lies in it. Suite figures take the cases as the sample: the mean over
//     cases of each case's figure, with the interval over the cases.
//   - pass@k and pass^k are the unbiased estimates from n trials
//     ([PassAtK], [PassHatK]): the share of the k-subsets of the trials in
//     which some, or all, passed. Every k of a case costs O(n) in all
//     ([PassAtKs], [PassHatKs]; plus at most 4096 multiplications, where
//     pass@k keeps the form results files have always carried), so a case
//     of 100,000 trials takes milliseconds.
//   - A [Comparison] pairs two runs' results by id, the n-th with the n-th.
//     With one trial per case a regression is a fall beyond a tolerance or a
//     pass turned to a fail; with trials, it is a fall significant at a
//     confidence level: a paired bootstrap over cases and their trials for
//     each metric, a one-sided Fisher exact test per case with Holm's
//     correction. The bootstrap is seeded, so the same runs give the same
//     answer.
//   - A case's figures depend on its own trials, in their order, and on
//     nothing else: other cases' results in between change none of their
//     bits.
//
// Non-goals: reliability does not run trials (the runner does), read
// result files (the caller decodes them) or write reports (package report
// writes every figure here as text, Markdown, JUnit, HTML and result
// lines). It models no dependence between trials, or drift over time
// within a run: trials are taken as exchangeable draws.
package reliability
