// Package axion reproduces the score of axion's ToolCorrectness metric
// (ax-foundry/axion @ 7ab96dc): the axion profile, whose options are
// axion's own (check_parameters, strict_order,
// parameter_matching_strategy, fuzzy_threshold, scoring, threshold).
//
// The rules, briefly ([Metric] has them in full):
//
//   - Names match exactly; with check_parameters, arguments compare by the
//     strategy: exact (Python's ==), subset (every expected key present
//     with an equal value) or fuzzy (a mean similarity that reaches
//     fuzzy_threshold).
//   - strict_order scores 1 or 0, position by position. Otherwise each
//     expected call takes the first unused called call that matches
//     (greedy, as axion pairs), and the score is recall, precision or F1.
//   - The pass mark is axion's 0.5, for a threshold of 0 too, which axion
//     reads as unset.
//   - A call whose arguments are null is an error result, as axion rejects
//     the whole item.
//
// Non-goals: axion's other metrics and its reports; only
// ToolCorrectness's numbers are reproduced.
package axion
