package jsonvalue

import (
	"encoding/json"
	"reflect"
	"unsafe"
)

// A slab hands out the memory of parsed documents in bulk.
//
// A document of a few kilobytes holds hundreds of values, and in the plain
// way each costs an allocation or two: the backing array of every object
// and array, and, because strings, numbers and slices are not
// pointer-shaped, a copy of the header of every one of them when it is
// put into an `any`. Backing arrays are instead read into larger chunks,
// one pair for each depth (see level), and a slab keeps the headers of
// boxed values in chunks too, making interfaces that point into them (see
// box), and the text of strings with escapes, which is not the input's
// own (see textRoom).
//
// Chunks are shared by consecutive documents, a generation at a time: a
// stream of small documents (the cases of a dataset, the arguments of tool
// calls) then costs a few allocations per generation instead of a few per
// document. A generation takes about genInput bytes of input, and a
// document that does not fit in what is left of it starts the next one, so
// that no value points into an older generation's chunks: if one could,
// every generation would keep the one before it alive, and memory would
// grow without end. The cost is that a value kept from a document keeps
// its generation's chunks alive (under 100 kilobytes).
type slab struct {
	strs []string // headers of boxed strings and json.Numbers
	objs []Object // headers of boxed objects
	arrs [][]any  // headers of boxed arrays
	text []byte   // the bytes of unescaped strings (see textRoom)

	// budget is the input the generation can still take after the
	// document being read, of the input it was sized for; doc is the
	// document's length.
	budget, input, doc int

	// rec, when set, takes the generation's chunks when it ends and
	// hands out the chunks of released ones (see Recycler); nil for the
	// pooled parsers of Parse.
	rec *Recycler
}

// genInput is the input a generation of chunks is sized for.
const genInput = 32 << 10

// maxChunk bounds a chunk's length, so that a value kept from a large
// document keeps little of the rest alive.
const maxChunk = 1024

// Bytes of input per value of each kind, measured on generated cases (the
// bench data: nested arguments, transcripts) and rounded down a little. A
// chunk that runs short costs one more allocation; one too long costs
// memory that is zeroed and collected but never used.
const (
	strBytes = 30
	objBytes = 60
	arrBytes = 200
)

// begin readies the slab for a document of n bytes, and reports whether
// the document starts a new generation.
func (s *slab) begin(n int) (fresh bool) {
	if n > s.budget {
		s.reset(max(genInput, n))
		fresh = true
	}
	s.budget -= n
	s.doc = n
	return fresh
}

// reset starts a generation sized for input bytes, the chunks of the
// last one left to its values (and held by the recycler, if any).
func (s *slab) reset(input int) {
	if rc := s.rec; rc != nil {
		hold(&rc.pools[kindStr], s.strs)
		hold(&rc.pools[kindObj], s.objs)
		hold(&rc.pools[kindArr], s.arrs)
	}
	*s = slab{budget: input, input: input, rec: s.rec}
}

// progress returns the input the generation has read and the input it
// has left, counting the document being read as half read.
func (s *slab) progress() (done, left int) {
	left = s.budget + s.doc/2
	return s.input - left, left
}

// chunkLen is the length of a new chunk of a kind of value that takes
// about perValue bytes of input, for at least need values, when rest bytes
// of the document are left.
func (s *slab) chunkLen(rest, perValue, need int) int {
	return max(need, min((rest+s.budget)/perValue+1, maxChunk))
}

// Bytes of input per byte of text that escapes were taken out of (the
// arguments of tool calls carried as JSON text, mostly), measured as the
// other rates are; and the longest text chunk.
const (
	textBytes    = 10
	maxTextChunk = 8 << 10
)

// textRoom returns the free end of the text chunk, for a string with
// escapes whose first n bytes have none, when rest bytes of the document
// are left after them. The string is unescaped into it and kept there by
// keepText: one allocation a generation for the unescaped strings
// instead of one a string, and no copy.
func (s *slab) textRoom(n, rest int) []byte {
	if free := cap(s.text) - len(s.text); free < 2*n+textSlack {
		s.text = make([]byte, 0, max(2*n+textSlack, min((rest+s.budget)/textBytes+1, maxTextChunk)))
	}
	return s.text[len(s.text):]
}

// textSlack is the least free room textRoom leaves, about two strings'
// worth of tool-call arguments; a string that outgrows it is kept where
// append moved it.
const textSlack = 128

// keepText returns the text unescaped into buf, the slice textRoom
// returned with bytes appended. If they fit, they are kept in the chunk,
// whose bytes below its length are never written again; otherwise
// append moved them to an array of their own, which the string takes
// over unless most of it would be unused.
func (s *slab) keepText(buf []byte) string {
	if len(buf) == 0 {
		return ""
	}
	if n := len(s.text); n < cap(s.text) && unsafe.SliceData(buf) == &s.text[:n+1][n] {
		s.text = s.text[:n+len(buf)]
	} else if cap(buf)-len(buf) > len(buf)/4 {
		return string(buf)
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// string returns str boxed as a string.
func (s *slab) string(str string, rest int) any {
	if p, ok := s.stringSlot(str); ok {
		return box(stringType, p)
	}
	if !forging || str == "" {
		return str // "" is boxed without an allocation
	}
	return box(stringType, keep(s, &s.strs, s.rec.pool(kindStr), str, rest, strBytes))
}

// number returns num boxed as a json.Number.
func (s *slab) number(num string, rest int) any {
	if p, ok := s.stringSlot(num); ok {
		return box(numberType, p)
	}
	if !forging {
		return json.Number(num)
	}
	return box(numberType, keep(s, &s.strs, s.rec.pool(kindStr), num, rest, strBytes))
}

// object returns obj boxed.
func (s *slab) object(obj Object, rest int) any {
	if p, ok := s.objectSlot(obj); ok {
		return box(objectType, p)
	}
	if !forging {
		return obj
	}
	return box(objectType, keep(s, &s.objs, s.rec.pool(kindObj), obj, rest, objBytes))
}

// array returns arr boxed.
func (s *slab) array(arr []any, rest int) any {
	if p, ok := s.arraySlot(arr); ok {
		return box(arrayType, p)
	}
	if !forging {
		return arr
	}
	return box(arrayType, keep(s, &s.arrs, s.rec.pool(kindArr), arr, rest, arrBytes))
}

// stringSlot writes str (a string or a json.Number) into the next slot
// of the chunk of strings and returns the slot's address, if the chunk
// has room: string and number for the common case, small enough to be
// inlined. objectSlot and arraySlot are the same for objects and arrays.
// The parser's loop calls them first (string, number, object and array,
// which fall back on keep, are too large to be inlined, and a call costs
// the loop its registers) and keeps the value as its two words, the
// type's and the slot's, until it stores them (see parser.value). They
// need not test forging: without it, nothing is kept in the chunks,
// whose capacity stays 0. An empty string takes a slot like any other.
func (s *slab) stringSlot(str string) (unsafe.Pointer, bool) {
	strs := s.strs
	if n := len(strs); n < cap(strs) {
		s.strs = s.strs[:n+1] // stores the length alone
		strs = strs[:n+1]
		strs[n] = str
		return unsafe.Pointer(&strs[n]), true
	}
	return nil, false
}

func (s *slab) objectSlot(obj Object) (unsafe.Pointer, bool) {
	objs := s.objs
	if n := len(objs); n < cap(objs) {
		s.objs = s.objs[:n+1] // stores the length alone
		objs = objs[:n+1]
		objs[n] = obj
		return unsafe.Pointer(&objs[n]), true
	}
	return nil, false
}

func (s *slab) arraySlot(arr []any) (unsafe.Pointer, bool) {
	arrs := s.arrs
	if n := len(arrs); n < cap(arrs) {
		s.arrs = s.arrs[:n+1] // stores the length alone
		arrs = arrs[:n+1]
		arrs[n] = arr
		return unsafe.Pointer(&arrs[n]), true
	}
	return nil, false
}

// Empty containers, boxed once: their headers point at no element, so
// one box serves every document, and appending to one copies it.
var (
	emptyObject any = Object{}
	emptyArray  any = []any{}
)

// keep writes v into the next slot of *chunk, starting a new chunk when it
// is full, and returns the slot's address. A slot is written once, before
// it is boxed, and never again.
func keep[T any](s *slab, chunk *[]T, pool *chunkPool, v T, rest, perValue int) unsafe.Pointer {
	if len(*chunk) == cap(*chunk) {
		*chunk = newChunk(pool, *chunk, s.chunkLen(rest, perValue, 1))
	}
	*chunk = append(*chunk, v)
	return unsafe.Pointer(&(*chunk)[len(*chunk)-1])
}

// A level holds the chunks the objects and arrays at one depth are read
// into. The containers at one depth are read one after another (each one
// ends before the next begins), so a container's entries lie together at
// the end of its chunk when it ends, and are its backing array as they
// are, capacity capped so that appending to it copies it instead of
// overwriting its neighbour: no entry is copied, and no stack is needed.
// A container that outgrows its chunk moves what it read to a new one.
//
// The chunks belong to the slab's generation: the values read into them
// keep them alive, and newGeneration drops them, so that no value points
// into an older generation's chunks. What a failed document left in a
// chunk stays unused. A member's key is written into the slot after the
// chunk's length when the key is read, and its value beside it when the
// value is: the slot is the member's only then.
type level struct {
	members []Member // in use up to its length
	elems   []any

	// index holds the keys of the object being read, made when it has
	// indexFrom members and a key's bit is set (see level.repeats); nil
	// otherwise.
	index map[string]struct{}

	// The state of the container being read into this level (see
	// parser.value): where its entries start, whether it is an object,
	// its bits of seen keys (see keyBit), and the key of the member
	// being read when the chunk has no room for its slot.
	base   int
	object bool
	seen   uint64
	key    string

	// The entries this depth took in the generation, in chunks before the
	// current one, and the length of the next generation's first chunks.
	usedMembers, usedElems int
	memberHint, elemHint   int

	slab *slab // whose generation the chunks belong to

	// The levels of the depths above and below (the parser's top above
	// the first), and the depth of the values read into this one: the
	// containers open while they are.
	parent, child *level
	depth         int
}

// Bounds of a level's chunk: the length it starts with, and the longest
// chunk, so that a value kept keeps little else alive and no chunk is a
// large allocation (32 KB or more, which the runtime clears and hands out
// a page at a time).
const (
	minLevelChunk = 8
	maxMembers    = 1000 // 32 bytes each
	maxElems      = 2000 // 16 bytes each
)

// drop ends the level's generation: its chunks are left to the values in
// them, and the next ones are sized for what this generation took.
func (lv *level) drop() {
	lv.memberHint = min(lv.usedMembers+len(lv.members), maxMembers)
	lv.elemHint = min(lv.usedElems+len(lv.elems), maxElems)
	if rc := lv.slab.rec; rc != nil {
		hold(&rc.pools[kindMember], lv.members)
		hold(&rc.pools[kindElem], lv.elems)
	}
	lv.members, lv.elems = nil, nil
	lv.key = "" // a key of the generation's input
	lv.usedMembers, lv.usedElems = 0, 0
}

// moveMembers starts a new chunk of members, for a full one, with the
// members from base on (the object being read), and returns their new
// base, 0.
func (lv *level) moveMembers(base int) int {
	done, left := lv.slab.progress()
	read := lv.members[base:]
	lv.usedMembers += base
	n := levelChunk(len(read), cap(lv.members), lv.memberHint, maxMembers, lv.usedMembers+len(read), done, left)
	lv.members = append(newChunk(lv.slab.rec.pool(kindMember), lv.members, n), read...)
	return 0
}

// moveMembersFor is moveMembers for a full chunk, when the object being
// read has read a member: it moves the members and appends the member.
// It is not inlined: parser.value's loop would keep the member's key and
// value across the calls it makes (see parser.resume).
//
//go:noinline
func (lv *level) moveMembersFor(v any) {
	lv.base = lv.moveMembers(lv.base)
	lv.members = append(lv.members, Member{lv.key, v})
	lv.key = ""
}

// moveElemsFor is moveMembersFor for an element.
//
//go:noinline
func (lv *level) moveElemsFor(v any) {
	lv.base = lv.moveElems(lv.base)
	lv.elems = append(lv.elems, v)
}

// moveElems is moveMembers for elements.
func (lv *level) moveElems(base int) int {
	done, left := lv.slab.progress()
	read := lv.elems[base:]
	lv.usedElems += base
	n := levelChunk(len(read), cap(lv.elems), lv.elemHint, maxElems, lv.usedElems+len(read), done, left)
	lv.elems = append(newChunk(lv.slab.rec.pool(kindElem), lv.elems, n), read...)
	return 0
}

// levelChunk is the length of a level's next chunk, for a container that
// has read n entries, after a chunk of length old (0 at the start of a
// generation), when the level has taken used entries in the generation,
// which has read done bytes of input and has left bytes left. The
// generation's first chunk is sized for what the last generation took
// (hint); one more, for a generation that takes more, for what the rest
// of the generation takes at the rate it took them so far, so that little
// of it is left unused when the generation ends; while no generation has
// been measured, chunks double. Whatever that says, a chunk has room for
// twice what the container has read, so that a container wider than any
// chunk moves a number of times that grows with the log of its width, not
// with its width.
func levelChunk(n, old, hint, limit, used, done, left int) int {
	size := hint
	if old > 0 || hint == 0 {
		size = 2 * old
		if hint > 0 {
			size = min(used, limit) * left / max(done, 1)
		}
	}
	return max(2*n+1, min(max(size, minLevelChunk), limit))
}

// Boxing by hand.
//
// Putting a string, a json.Number or a slice into an `any` the ordinary way
// allocates a copy of its header (runtime.convTstring, convTslice): one
// allocation for most values of a document, a fifth of the parser's time
// and garbage for the collector. box instead makes the interface from its
// two words, the type and a pointer to a header kept in a slab chunk.
//
// That relies on the layout of an empty interface, which the language
// does not promise: a type word followed by a pointer to the value, for
// every type that is not pointer-shaped. Go has had that layout since its
// first release, and reflect and the runtime rely on it; and on a rule the
// runtime already keeps, that a boxed value is never written again (keep
// writes a slot once, before boxing it). The garbage collector follows
// an interface's pointer into the middle of a chunk as into any other
// object. forging checks the layout when the package starts, on values
// boxed by the compiler, before anything is forged: on a runtime where it
// does not hold, values are boxed the ordinary way (slower, the same
// values). TestForgedValues tests the forged values through type
// switches, ==, reflect, fmt, encoding/json, garbage collections and
// checkptr (under -race), and asserts that forging is on, so that a Go
// release that changed the layout fails the tests instead of slowing down
// unnoticed.
//
// parser.value also keeps each value it reads as its two words (words, or
// the type's and a slot's address) and writes them into its container's
// slot as they are, forging or not: moving an interface's words needs only
// that an interface is two words, the second a pointer or nil, as it has
// been since Go 1.4 (typeOf relies on that too). An interface variable
// made by box lives in memory: it cost the loop a store and a load at
// every value.

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

// words returns the two words of v, which box makes back into v.
func words(v any) (typ, p unsafe.Pointer) {
	e := (*eface)(unsafe.Pointer(&v))
	return e.typ, e.data
}

// box makes an interface of type typ whose value is *p.
func box(typ, p unsafe.Pointer) (v any) {
	*(*eface)(unsafe.Pointer(&v)) = eface{typ, p}
	return v
}

// forging reports whether box is used: whether interfaces are laid out as
// box assumes, for each type it boxes.
var forging = layoutHolds()

func layoutHolds() bool {
	// First read values the compiler boxed: each type word must be the
	// type's, and each data word must point at the value.
	str, num := "probe", json.Number("12.5")
	obj, arr := Object{{Key: "k", Value: true}}, []any{nil, "x"}
	var boxed [4]any = [4]any{str, num, obj, arr}
	types := [4]unsafe.Pointer{stringType, numberType, objectType, arrayType}
	for i, v := range boxed {
		if e := (*eface)(unsafe.Pointer(&v)); e.typ != types[i] || e.data == nil {
			return false
		}
	}
	if *(*string)((*eface)(unsafe.Pointer(&boxed[0])).data) != str ||
		*(*json.Number)((*eface)(unsafe.Pointer(&boxed[1])).data) != num ||
		unsafe.SliceData(*(*Object)((*eface)(unsafe.Pointer(&boxed[2])).data)) != unsafe.SliceData(obj) ||
		unsafe.SliceData(*(*[]any)((*eface)(unsafe.Pointer(&boxed[3])).data)) != unsafe.SliceData(arr) {
		return false
	}
	// Then the reverse: values boxed by hand must read back as the
	// compiler's do.
	s, n := box(stringType, unsafe.Pointer(&str)), box(numberType, unsafe.Pointer(&num))
	o, a := box(objectType, unsafe.Pointer(&obj)), box(arrayType, unsafe.Pointer(&arr))
	gotObj, okObj := o.(Object)
	gotArr, okArr := a.([]any)
	return s == boxed[0] && n == boxed[1] &&
		reflect.TypeOf(s) == reflect.TypeFor[string]() && reflect.TypeOf(n) == reflect.TypeFor[json.Number]() &&
		okObj && len(gotObj) == 1 && &gotObj[0] == &obj[0] &&
		okArr && len(gotArr) == 2 && &gotArr[0] == &arr[0]
}
