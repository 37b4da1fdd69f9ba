// Package serve is toolgrade's host protocol: JSON Lines requests in, one
// JSON response line per request out, spoken by `toolgrade serve` to the
// programs that drive toolgrade from other languages (the Python package,
// the npm package). It is a contract: hosts depend on every key and error
// shape below, so a change to it is a change to those packages too.
// docs/serve.md is the reference for host authors.
//
// The rules:
//
//   - One request per line; blank lines are skipped. Responses come in
//     the order of the requests, one line each, flushed at once.
//   - A request is an object with "op" and an optional "id" of any JSON
//     type, echoed as the response's first key.
//   - {"op": "evaluate", "config": CONFIG, "cases": [CASE, ...], "offset": N}
//     grades cases. CONFIG is {"metrics": [ENTRY, ...], "judge": SETTINGS},
//     a list of metric entries, or one entry (absent or null: the default
//     metric); SETTINGS are a config file's judge section, and with them
//     the metrics that take an LLM judge use it, within what the host
//     allows ([Server.JudgeKeyEnvs], [Server.JudgeBaseURLs]). The response is
//     {"results": [RESULT, ...]}: one result line (docs/results.md) per
//     case, in order. A case without an id gets "case-<offset+i>". A case
//     that cannot be read, or that a run of toolgrade eval would reject,
//     gives a result whose "error" names it and its field
//     ("cases[2] (id case-2): field expected_tools[0].name: ..."); the
//     other cases are graded.
//   - {"op": "extract", "trace": TRACE, "format": "F"} reads the tool
//     calls of a trace, decoded or as text (JSON, JSON Lines, an SSE body
//     or a transcript): {"result": {"format", "calls"}, "skipped": [...]}.
//   - {"op": "config", "path": "FILE"} reads a config file as toolgrade
//     eval --config does: {"result": {"metrics", "judge", "datasets",
//     ...}}, each section when the file has one; metrics and judge as an
//     evaluate request's config takes them, datasets the files they name
//     (absolute, globs expanded; left unread with "datasets": false), and
//     paths resolved from the file's directory, so that a host reads YAML
//     without a reader of its own.
//   - {"op": "version"} gives {"result": {"version": "..."}}.
//   - A request that cannot be served (not JSON, not an object, an unknown
//     op, a key its op does not take, a bad value) gets {"error": "...",
//     "field": "..."}, "field" when the error names one; the next line is
//     served as usual. A panic while serving is such an error, never the
//     end of the process.
//
// A request is data: it names no command, and a judge it names reads its
// key only from a variable the host allows and is sent only to an
// endpoint the host allows. Responses are scrubbed of the keys read (see
// package secret).
//
// Metrics built from a config are kept for the requests that repeat it
// (up to 64 configs). Non-goals: concurrency between requests (cases
// within a request are graded on [Server.Workers] goroutines), and any
// transport but a byte stream.
package serve
