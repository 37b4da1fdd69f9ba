// Package leaderboard is the harness of the Berkeley Function Calling
// Leaderboard (BFCL) around its AST checker (package bfcl): BFCL's data
// folders, its result files, its score table, and putting a model through
// its question files. toolgrade bfcl grades result files with
// [Data.GradeFiles]; toolgrade run runs question files with a [Harness],
// its runner.Harness.
//
// The rules, briefly:
//
//   - A data folder ([OpenData]) holds question files named
//     BFCL_v<N>_<category>.json and their ground truth under
//     possible_answer/ with the same names, both JSON Lines; the newest
//     version of a category wins. A category is read when first graded.
//   - A result file ([ReadResults]) has one line per entry: {"id": ...,
//     "result": [{"<function>": {<arguments>}}, ...]}, where arguments may
//     be JSON text. A result that is a string is model text, invalid with
//     BFCL's decoder error. Only the first line of an id counts.
//   - An entry's category is its id up to the last underscore. The AST
//     categories are graded by the checker, irrelevance and live_relevance
//     by whether the result holds a call; multi-turn, agentic and
//     format-sensitivity entries are skipped, as are BFCL v3's executable,
//     rest, sql and chatable ones. BFCL v3's files (BFCL_v3_simple.json,
//     java, javascript, ...) read as v4's.
//   - A function-calling model gets the functions with "." in their names
//     replaced by "_", and its calls are read so ([Calling]);
//     [Data.Grade] decides per result file, from a "-FC" model name in its
//     path or from its calls' names.
//   - The score table ([Scores.WriteTable]) gives each category's
//     accuracy and BFCL's summary rows: unweighted means for the
//     non-live summaries, means weighted by entries for the live ones,
//     N/A when a category they need has no results.
//   - A question entry ({"id", "question", "function"}) sends its single
//     turn and function docs ([Harness.Prompt]), and each answer becomes
//     a line of the result file of its question file ([Answer]).
//
// Non-goals: BFCL's multi-turn and agentic entries, which need BFCL's own
// executable functions; decoding model text, which BFCL does with a
// handler per model. Bad input never panics: errors name the file, line
// and field.
package leaderboard
