package jsonvalue

// A slab hands out the backing arrays of parsed documents in bulk.
//
// A document of a few kilobytes holds hundreds of values, and in the plain
// way the backing array of every object and array costs an allocation. A
// slab instead carves backing arrays out of larger chunks, capacity
// capped, so that appending to one copies it instead of overwriting its
// neighbour. Values themselves are boxed by ordinary conversions: keeping
// their headers in chunks too and pointing interfaces into them would need
// interface values forged from the runtime's layout, and measured no
// faster end to end (bench/README.md).
//
// Chunks are shared by consecutive documents, a generation at a time: a
// stream of small documents (the cases of a dataset, the arguments of tool
// calls) then costs a few allocations per generation instead of a few per
// document. A generation takes about genInput bytes of input, and a
// document that does not fit in what is left of it starts the next one, so
// that no value points into an older generation's chunks: if one could,
// every generation would keep the one before it alive, and memory would
// grow without end. The cost is that a value kept from a document keeps
// its generation's chunks alive (tens of kilobytes at most).
type slab struct {
	members []Member // backing arrays of objects
	elems   []any    // backing arrays of arrays

	// budget is the input the generation can still take after the
	// document being read.
	budget int
}

// genInput is the input a generation of chunks is sized for.
const genInput = 16 << 10

// maxChunk bounds a chunk's length, so that a value kept from a large
// document keeps little of the rest alive.
const maxChunk = 1024

// Bytes of input per value of each kind, measured on generated cases (the
// bench data: nested arguments, transcripts) and rounded down a little. A
// chunk that runs short costs one more allocation; one too long costs
// memory that is zeroed and collected but never used (a fifth of it with
// the rougher guesses before).
const (
	memberBytes = 23
	elemBytes   = 80
)

// begin readies the slab for a document of n bytes.
func (s *slab) begin(n int) {
	if n > s.budget {
		*s = slab{budget: max(genInput, n)}
	}
	s.budget -= n
}

// chunkLen is the length of a new chunk of a kind of value that takes
// about perValue bytes of input, for at least need values, when rest bytes
// of the document are left.
func (s *slab) chunkLen(rest, perValue, need int) int {
	return max(need, min((rest+s.budget)/perValue+1, maxChunk))
}

// object returns an object holding a copy of members.
func (s *slab) object(members []Member, rest int) any {
	return Object(carve(s, &s.members, members, rest, memberBytes))
}

// array returns an array holding a copy of elems.
func (s *slab) array(elems []any, rest int) any {
	return carve(s, &s.elems, elems, rest, elemBytes)
}

// carve copies src into the next len(src) slots of *chunk, starting a new
// chunk when too few are left, and returns the copy with its capacity
// capped, so that appending to it cannot overwrite a neighbour.
func carve[T any](s *slab, chunk *[]T, src []T, rest, perValue int) []T {
	n := len(src)
	if n > len(*chunk) {
		*chunk = make([]T, s.chunkLen(rest, perValue, n))
	}
	out := (*chunk)[:n:n]
	*chunk = (*chunk)[n:]
	copy(out, src)
	return out
}
