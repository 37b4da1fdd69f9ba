// Package bfcl reproduces the AST checker of the Berkeley Function
// Calling Leaderboard (BFCL v4): as a metric, the bfcl profile ([Metric]),
// and as a function on one entry ([Check]). BFCL's files (data folders,
// result files, score tables) and putting a model through its questions
// are the harness's, package bfcl/leaderboard, which grades with this
// checker.
//
// The rules, briefly:
//
//   - An entry is the model's calls, in order, the entry's function docs
//     and its ground truth (possible answer): for each expected call,
//     {function: {param: [acceptable values]}}, where "" among the values
//     marks a parameter that may be left out.
//   - The verdict is BFCL's: valid, or invalid with BFCL's error_type
//     ("simple_function_checker:missing_required"); where BFCL's checker
//     would raise (a doc type it has no mapping for, a ground truth that
//     is not a list), an error instead.
//   - The category decides the check: one containing "parallel" matches
//     the calls to the ground truth's in any order, one containing
//     "multiple" checks one call against the ground truth's function among
//     several, else one call against the first function. An entry's category is its id up to the last
//     underscore ([Category]); its language comes from the category
//     ([Language]).
//   - Values are compared with Python's semantics (BFCL's checker is
//     Python): strings normalized as BFCL does, integers accepted for
//     floats, Java and JavaScript literals converted as BFCL converts
//     them.
//   - A function-calling model was sent the functions with every "." in
//     their names replaced by "_", so its calls are read so
//     ([CheckFunctionCalling], [FunctionName]); a prompting model must
//     call the names as documented ([Check]).
//
// Non-goals: BFCL's multi-turn, agentic and executable categories, which
// need BFCL's own functions and services; decoding model text (toolgrade
// reads the decoded calls). Bad input never panics: errors name the field.
package bfcl
