// Package jsonvalue is toolgrade's JSON value model: a parser, a writer and
// the comparisons its graders rely on. It imports only the standard library.
//
// A value is nil, bool, string, [json.Number], []any or [Object]. Objects
// keep their members in document order and numbers keep their spelling,
// because peers' scores depend on both (which argument fails first, whether
// 1.0 was written as a float); [Equal] compares by meaning (1 equals 1.0,
// key order is irrelevant, true is not 1). [From] converts ordinary Go
// values (maps, slices, numbers) into the model.
//
// [Parse] is fast because a document's values share memory: see slab.go.
// A value kept from a document keeps up to some tens of kilobytes of its
// neighbours alive, from this document and the ones parsed just before and
// after it; clone what is kept from a large document that is otherwise
// dropped.
//
// [LineReader] splits JSON Lines into strings that share large blocks, so
// that neither a line nor the values parsed from it are copied.
//
// # The one home of unsafe
//
// This package is the only one of toolgrade that imports unsafe, in two
// places. LineReader makes strings of block bytes with unsafe.String, as
// its documentation allows for bytes never written again.
//
// The slab boxes strings, numbers, objects and arrays into interfaces by
// hand, writing an interface's two words (type, pointer to the value)
// instead of letting the compiler allocate a copy of each header. That
// cut a case's allocations from 152 to 44 across the whole pipeline
// (bench/README.md). It relies on two things Go has kept since its first
// release, and which reflect and the runtime rely on too: an empty
// interface is a type word followed by a data pointer, and a value that is
// not pointer-shaped is stored behind that pointer and never written
// again. A Go release that changed either (another interface layout, boxed
// values that must come from a special allocator, or a garbage collector
// that no longer honours interior pointers into ordinary slices) would
// break it. TestSlabValuesSurviveCollection would catch it: it puts
// slab-boxed values through type switches, reflect, == and garbage
// collections, while TestSlabGenerationsEnd checks that the memory is
// freed once its documents are dropped.
package jsonvalue
