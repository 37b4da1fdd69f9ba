// Package bfcl reproduces the Berkeley Function Calling Leaderboard
// (BFCL): its AST checker as a metric ([Metric], [Check]), and its files:
// data folders, result files and score table.
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
//   - An entry's category is its id up to the last underscore
//     ([Category]). The AST categories are graded by the checker,
//     irrelevance and live_relevance by whether the result holds a call;
//     multi-turn, agentic and format-sensitivity entries are skipped, as
//     are BFCL v3's executable, rest, sql and chatable ones. BFCL v3's
//     files (BFCL_v3_simple.json, java, javascript, ...) read as v4's.
//   - A function-calling model gets the functions with "." in their names
//     replaced by "_", and its calls are read so ([Calling],
//     [CheckFunctionCalling]); [Data.Grade] decides per result file, from a
//     "-FC" model name in its path or from its calls' names.
//   - The score table ([Scores.WriteTable]) gives each category's
//     accuracy and BFCL's summary rows: unweighted means for the
//     non-live summaries, means weighted by entries for the live ones,
//     N/A when a category they need has no results.
//   - To put a model through BFCL's questions, a question entry
//     ([IsQuestion]) sends its single turn and function docs ([Prompt],
//     a runner.Options.Prompt), and each answer becomes a result-file
//     line ([Answer], [ResultWriter]).
//
// Bad input never panics: errors name the file, line and field.
package bfcl
