// Package toolgrade grades how well an LLM agent calls tools.
//
// A [Case] holds what an agent was asked, what it called and what it should
// have called. A [Metric] scores one case; [Evaluate] runs metrics over a
// stream of cases on a bounded pool of workers and hands back one [Result]
// per case, in input order, and a [Summary] adds results up. Every score is
// explained: a [MetricResult] pairs expected with called calls ([Match]),
// lists the missing and the unexpected ones, and says in [ArgDiff]s which
// argument differed.
//
// A MetricResult keeps what every metric has; what one metric finds
// beyond that (turn scores, process rules, a judge's usage) is a [Detail]
// that the metric's own package defines, writes and reads, registered
// with [RegisterDetail] as image formats register themselves. Results
// are written as one JSON line each, a contract other tools read:
// [Result.AppendJSON] writes it, [ParseResult] reads it back strictly,
// and a detail no registered reader knows is kept as it was read
// ([RawDetail]). Non-goals: the contract does not carry the graded case,
// nor Go-only details (see [Unwritten]).
//
// Argument values are JSON values in the model of package jsonvalue (nil,
// bool, string, json.Number, []any and jsonvalue.Object), which keeps
// members in document order and numbers as spelled, because several peers'
// scores depend on both.
//
// This package is the domain only: it imports the standard library and
// jsonvalue. Pairing and argument comparison live in match, the peers'
// profiles in compat/<peer>, trace readers in trace, tool definitions and
// JSON Schema checks in schema, the LLM judge in judge, the
// OpenAI-compatible client in openai, case files in dataset, config files
// in config and reports in report. Non-goals here: any file format, any
// peer's quirks and any outside service; the root knows toolgrade's own
// spellings only.
package toolgrade
