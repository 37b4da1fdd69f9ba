// Package toolgrade grades how well an LLM agent calls tools.
//
// A [Case] holds what an agent called and what it should have called; a
// [Metric] scores one case; [Evaluate] runs metrics over a stream of cases on
// a bounded pool of workers and hands back one [Result] per case, in input
// order.
//
// Argument values use a small JSON value model (see [ParseJSON]): nil, bool,
// string, [json.Number], []any and [Object]. Objects keep their members in
// document order and numbers keep their spelling, because several peers'
// scores depend on both (which argument fails first, whether 1.0 is a float).
//
// This package is the domain: it imports only the standard library. Matching
// lives in package match, peer profiles in compat, trace readers in trace,
// tool definitions and JSON Schema checks in schema, the LLM judge in judge,
// and file formats in dataset.
package toolgrade
