// Package jsonvalue is toolgrade's JSON value model: a parser, a writer and
// the comparisons its graders rely on. It imports only the standard library
// (and internal/poison, the switch its tests poison released memory by).
//
// A value is nil, bool, string, [json.Number], []any or [Object]. Objects
// keep their members in document order and numbers keep their spelling,
// because peers' scores depend on both (which argument fails first, whether
// 1.0 was written as a float); [Equal] compares by meaning (1 equals 1.0,
// key order is irrelevant, true is not 1), and numbers by their exact
// decimal value, whatever their size. Two documents that differ never read
// as the same value: [Parse] refuses what would make them (a repeated key,
// text that is not UTF-8) and keeps lone surrogates as WTF-8. [From] converts ordinary Go
// values (maps, slices, numbers) into the model.
//
// [Parse] allocates little because a document's values share memory: its
// objects' and arrays' backing arrays are read into larger chunks, one
// pair for each depth, and the headers of the strings, numbers and
// containers it boxes into `any` are kept in chunks too (see slab.go). A
// value kept from a document keeps up to some tens of kilobytes of its
// neighbours alive, from this document and the ones parsed just before
// and after it; clone what is kept from a large document that is
// otherwise dropped.
//
// A [Recycler] parses a stream of documents into memory it takes back for
// later documents once its caller releases them (toolgrade eval's cases,
// once their results are written): nothing but strings may be kept from
// a released document.
//
// [LineReader] splits JSON Lines into strings that share large blocks, so
// that neither a line nor the values parsed from it are copied.
//
// A [Codec] writes a Go type as compact JSON and reads it back from the
// model, strictly, from one definition ([Struct] of [NewField]s, [List],
// [Map], ...): toolgrade's result lines and the details of its metrics
// are written and read through codecs.
//
// # The one home of unsafe
//
// This package is the only one of toolgrade that imports unsafe, in two
// places. LineReader makes strings of block bytes with unsafe.String, as
// its documentation allows for bytes never written again. And the parser
// boxes strings, numbers, objects and arrays into interfaces by hand,
// writing an interface's two words (its type, a pointer to a header kept
// in a slab chunk) instead of letting the compiler allocate a copy of each
// header: 81 allocations of a 1.5 KB case line become 2, and reading and
// parsing a file takes a quarter less CPU (bench/README.md). That relies on
// the runtime's layout of an empty interface, which Go has kept since its
// first release but does not promise; the package checks the layout when
// it starts and boxes the ordinary way where it does not hold, and
// TestForgedValues fails there, so that the change is noticed (slab.go
// says more). Besides, the parser's innermost scans, the string hash and
// Equal's comparison of keys read words without Go's index checks, and
// AppendString loads and stores a string's words into room it tested
// once (json.go's wordAt, load4At, sub and appendStringInRoom, each held
// to a checked version by a test).
//
// # Non-goals
//
// A general JSON library: the model holds what tool calls, cases and
// results need, the codecs write toolgrade's own forms (result lines and
// the details of metrics), and encoding/json remains the way to encode
// other Go types. Text that is not JSON (comments, NaN, trailing commas) is a
// syntax error, never read leniently.
package jsonvalue
