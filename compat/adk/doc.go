// Package adk reproduces Google ADK's tool_trajectory_avg_score
// (TrajectoryEvaluator, google/adk-python @ d0aef8a4, ADK 1.22.1): the adk
// profile, whose options are ADK's ToolTrajectoryCriterion (match_type,
// threshold), so that an ADK criterion is a metric entry as it stands.
//
// The rules, briefly ([Metric] has them in full):
//
//   - A case is one or more invocations (its invocations field, else one
//     made of its own calls), each scoring 1 or 0 by the match type:
//     EXACT position by position, IN_ORDER the expected calls as a
//     subsequence, ANY_ORDER each expected call taking a distinct called
//     one.
//   - Two calls match when their names are equal and their arguments are
//     equal by Python's == (1 == 1.0 == true).
//   - The score is the mean over invocations; the case passes when it
//     reaches the threshold, 1 as in ADK's default configuration.
//   - A case without invocations is an error result: ADK reports it
//     NOT_EVALUATED, with no score.
//
// Non-goals: ADK's other criteria (response_match_score and the judged
// ones), and running the agent: a case carries the calls a run made.
package adk
