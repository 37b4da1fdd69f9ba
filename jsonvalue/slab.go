package jsonvalue

import (
	"encoding/json"
	"unsafe"
)

// A slab hands out the memory of parsed documents in bulk.
//
// A document of a few kilobytes holds hundreds of values, and in the plain
// way each costs an allocation or two: the backing array of every object
// and array, and, because strings, numbers and slices are not pointers, a
// copy of the header of every one of them when it is put into an `any`.
// Allocation and the garbage collection it brings were most of the time
// of reading a case. A slab instead carves backing arrays out of larger
// chunks (capacity capped, so that appending to one copies it instead of
// overwriting its neighbour) and boxes values by keeping their headers in
// chunks too and making interfaces that point into them.
//
// Boxing this way relies on the layout of an empty interface (a type word
// and a pointer to the value, for every type that is not pointer-shaped),
// which Go has had since its first release and which reflect and the
// runtime rely on too; and on a rule the runtime already imposes: a boxed
// value is never written again. Headers are written once, before they are
// boxed, and a chunk is never reused: a slot is handed out once.
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
	strs    []string // headers of boxed strings and json.Numbers
	objs    []Object // headers of boxed objects
	arrs    [][]any  // headers of boxed arrays
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
	strBytes    = 30
	objBytes    = 60
	arrBytes    = 200
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

// eface is the layout of an empty interface.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// The type words of the boxed types.
var (
	stringType = typeOf("")
	numberType = typeOf(json.Number(""))
	objectType = typeOf(Object(nil))
	arrayType  = typeOf([]any(nil))
)

// box makes an interface of type typ whose value is *p.
func box(typ, p unsafe.Pointer) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, p
	return v
}

// string boxes s as a string, or as a json.Number when typ is numberType.
func (s *slab) string(str string, typ unsafe.Pointer, rest int) any {
	return box(typ, keep(s, &s.strs, str, rest, strBytes))
}

// object returns an object holding a copy of members, boxed.
func (s *slab) object(members []Member, rest int) any {
	obj := Object(carve(s, &s.members, members, rest, memberBytes))
	return box(objectType, keep(s, &s.objs, obj, rest, objBytes))
}

// array returns an array holding a copy of elems, boxed.
func (s *slab) array(elems []any, rest int) any {
	return box(arrayType, keep(s, &s.arrs, carve(s, &s.elems, elems, rest, elemBytes), rest, arrBytes))
}

// keep writes v into the next slot of *chunk, starting a new chunk when it
// is full, and returns the slot's address.
func keep[T any](s *slab, chunk *[]T, v T, rest, perValue int) unsafe.Pointer {
	if len(*chunk) == cap(*chunk) {
		*chunk = make([]T, 0, s.chunkLen(rest, perValue, 1))
	}
	*chunk = append(*chunk, v)
	return unsafe.Pointer(&(*chunk)[len(*chunk)-1])
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
