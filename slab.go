package toolgrade

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
	if len(s.strs) == cap(s.strs) {
		s.strs = make([]string, 0, s.chunkLen(rest, strBytes, 1))
	}
	s.strs = append(s.strs, str)
	return box(typ, unsafe.Pointer(&s.strs[len(s.strs)-1]))
}

// object returns an object holding a copy of members, boxed.
func (s *slab) object(members []Member, rest int) any {
	n := len(members)
	if n > len(s.members) {
		s.members = make([]Member, s.chunkLen(rest, memberBytes, n))
	}
	obj := Object(s.members[:n:n])
	s.members = s.members[n:]
	copy(obj, members)
	if len(s.objs) == cap(s.objs) {
		s.objs = make([]Object, 0, s.chunkLen(rest, objBytes, 1))
	}
	s.objs = append(s.objs, obj)
	return box(objectType, unsafe.Pointer(&s.objs[len(s.objs)-1]))
}

// array returns an array holding a copy of elems, boxed.
func (s *slab) array(elems []any, rest int) any {
	n := len(elems)
	if n > len(s.elems) {
		s.elems = make([]any, s.chunkLen(rest, elemBytes, n))
	}
	arr := s.elems[:n:n]
	s.elems = s.elems[n:]
	copy(arr, elems)
	if len(s.arrs) == cap(s.arrs) {
		s.arrs = make([][]any, 0, s.chunkLen(rest, arrBytes, 1))
	}
	s.arrs = append(s.arrs, arr)
	return box(arrayType, unsafe.Pointer(&s.arrs[len(s.arrs)-1]))
}
