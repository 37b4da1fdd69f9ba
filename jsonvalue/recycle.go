package jsonvalue

import (
	"math"
	"reflect"
	"unsafe"

	"github.com/toolgrade/toolgrade/internal/poison"
)

// A Recycler parses documents into memory that it takes back, once its
// caller says their values are no longer used, for the documents it
// parses later: the backing arrays of objects and arrays and the headers
// of boxed values (see slab), which a stream of documents otherwise takes
// fresh from the heap, zeroed, and leaves to the collector.
//
// Every document is parsed under a mark (see [Recycler.Mark]), and its
// values stay valid until [Recycler.Release] is called with a bound above
// its mark. After that, any part of them that is not a string may read
// as a later document's values: the caller must keep no value, container
// or slice of one past that point. Strings are never taken back (their
// bytes are the document's own, or held apart), so a string copied out
// of a value stays valid. Documents share their memory a generation at a
// time, as [Parse]'s do, so memory is taken back a generation at a time:
// once every document of the generation has a mark below the bound.
//
// A Recycler is used by one goroutine at a time. The memory it holds is
// bounded: the generations whose documents are not yet released, and
// about freeGenerations generations' worth kept free for reuse.
//
// Non-goal: reusing the text of strings, or memory of documents given to
// [Parse] or [ParseString], which make no such promise.
type Recycler struct {
	p parser

	// pools holds the chunks of each kind (see the kinds below), those
	// of the parser first, then those of the kinds of block (see Blocks).
	pools [numKinds + maxBlockKinds]chunkPool

	// mark is the highest mark of the documents of the generation being
	// read (none: noMark); next is the mark of the documents parsed next.
	mark, next int
	// waiting holds the marks of the generations read, not yet released,
	// oldest first; each pool holds their chunks in the same order.
	waiting []int
}

// noMark is below every mark: the least int, on 32-bit systems too.
const noMark = math.MinInt

// NewRecycler returns a Recycler that holds no memory yet.
func NewRecycler() *Recycler {
	rc := &Recycler{mark: noMark}
	rc.p.slab.rec = rc
	for k := range rc.pools {
		rc.pools[k].kind = k
	}
	return rc
}

// Mark sets the mark of the documents parsed next.
func (rc *Recycler) Mark(m int) { rc.next = m }

// ParseString is [ParseString] into the recycler's memory, under the mark
// last set: the values are valid until Release is called with a bound
// above it.
func (rc *Recycler) ParseString(s string) (any, error) {
	rc.p.data = s
	v, err := rc.p.document()
	rc.p.data = ""
	return v, err
}

// Release takes back the memory of the generations whose documents all
// have marks below bound; the generation being read is kept.
func (rc *Recycler) Release(bound int) {
	k := 0
	for i, m := range rc.waiting {
		free := m < bound
		for j := range rc.pools {
			rc.pools[j].settle(i, k, free)
		}
		if !free {
			rc.waiting[k] = m
			k++
		}
	}
	if k == len(rc.waiting) {
		return
	}
	rc.waiting = rc.waiting[:k]
	for j := range rc.pools {
		cp := &rc.pools[j]
		clear(cp.waiting[k:])
		cp.waiting = cp.waiting[:k]
	}
}

// begin notes that the document about to be read belongs to the
// generation being read.
func (rc *Recycler) begin() { rc.mark = max(rc.mark, rc.next) }

// endGeneration puts the chunks of the generation read, which its values
// keep using, to wait for their release under its mark.
//
//go:noinline
func (rc *Recycler) endGeneration() {
	if rc.mark == noMark {
		return // nothing was read
	}
	rc.waiting = append(rc.waiting, rc.mark)
	rc.mark = noMark
	for j := range rc.pools {
		cp := &rc.pools[j]
		cp.hold(cp.cur) // blocks are carved from it (see Blocks)
		cp.cur = rawChunk{}
		cp.waiting = append(cp.waiting, cp.held)
		cp.held = nil
		cp.lastTaken, cp.taken = cp.taken, 0
	}
}

// The kinds of chunk: the headers of boxed strings and numbers, objects
// and arrays (see slab), and the members and elements of a level.
const (
	kindStr = iota
	kindObj
	kindArr
	kindMember
	kindElem
	numKinds
)

// pool returns rc's pool of chunks of kind k; nil for a nil rc (a parser
// of Parse's, which takes chunks fresh).
func (rc *Recycler) pool(k int) *chunkPool {
	if rc == nil {
		return nil
	}
	return &rc.pools[k]
}

// A chunk in a pool: its first element, and its length and capacity in
// elements. Pools hold chunks of every kind the same way, so that their
// code is not repeated for each (the binary's size).
type rawChunk struct {
	p        unsafe.Pointer
	len, cap int
}

// A chunkPool holds a recycler's chunks of one kind: those of the
// generation being read (held), those of generations read and not yet
// released (waiting, a list per generation), and those free for reuse.
type chunkPool struct {
	held    []rawChunk
	waiting [][]rawChunk
	free    []rawChunk
	// freeLen is the total capacity of free, bounded by freeGenerations
	// times what the last generation took (lastTaken): a generation finds
	// what it needs among the chunks released before it, and no chunk
	// waits long in the free list.
	freeLen          int
	taken, lastTaken int
	// spare is a list of a released generation's, emptied, for the next
	// generation's held chunks.
	spare []rawChunk
	// cur is the chunk blocks are carved from (a kind of block's alone).
	cur  rawChunk
	kind int
}

// hold adds a chunk of the generation being read, which its values use.
func hold[T any](cp *chunkPool, c []T) {
	cp.hold(rawChunk{unsafe.Pointer(unsafe.SliceData(c)), len(c), cap(c)})
}

//go:noinline
func (cp *chunkPool) hold(c rawChunk) {
	if c.cap == 0 {
		return
	}
	if cp.held == nil {
		cp.held, cp.spare = cp.spare, nil
	}
	cp.held = append(cp.held, c)
}

// newChunk returns an empty chunk of capacity at least n, for old, which
// is full: a new one, or, with a recycler's pool, one it freed, the pool
// holding old for the generation being read.
func newChunk[T any](cp *chunkPool, old []T, n int) []T {
	if cp != nil {
		if c := cp.swap(rawChunk{unsafe.Pointer(unsafe.SliceData(old)), len(old), cap(old)}, n); c.p != nil {
			return unsafe.Slice((*T)(c.p), c.cap)[:0]
		}
	}
	return make([]T, 0, n)
}

// swap holds old and takes a chunk for n elements (see take).
func (cp *chunkPool) swap(old rawChunk, n int) rawChunk {
	cp.hold(old)
	c, _ := cp.take(n)
	return c
}

// settle frees the chunks of waiting generation i if free, and otherwise
// moves them to place k (k <= i).
func (cp *chunkPool) settle(i, k int, free bool) {
	if !free {
		cp.waiting[k] = cp.waiting[i]
		return
	}
	for _, c := range cp.waiting[i] {
		// A free chunk holds no pointer: the collector would follow each
		// one, every cycle, and keep what it points to (old documents'
		// memory) alive. Clearing costs what a new chunk's zeroing would.
		// Its elements are whole words, and clearing them as pointers
		// has the runtime's write barrier see each pointer word that the
		// chunk's type has (it reads them from the heap, not the type).
		if poison.On {
			fillPoison(cp.kind, c)
		} else {
			clearWords(c.p, c.cap, kindSizes[cp.kind])
		}
		cp.free = append(cp.free, c)
		cp.freeLen += c.cap
	}
	clear(cp.waiting[i])
	cp.spare, cp.waiting[i] = cp.waiting[i][:0], nil
	if cp.freeLen <= freeGenerations*cp.lastTaken {
		return
	}
	// Drop the oldest: the free list is taken from its end.
	n := 0
	for cp.freeLen > freeGenerations*cp.lastTaken && n < len(cp.free) {
		cp.freeLen -= cp.free[n].cap
		n++
	}
	cp.free = cp.free[:copy(cp.free, cp.free[n:])]
	clear(cp.free[len(cp.free) : len(cp.free)+n]) // no chunk is kept from past the length
}

// freeGenerations is how many generations' worth of chunks a pool keeps
// free. A worker's batches are released several at once, as the run
// emits them, and the generations read before the next release must
// find their chunks among those: with two generations' worth, 31% of the
// chunk memory a run of 200,000 1.5 KB cases took was fresh (and as much
// freed was dropped), with four 10%, and its collections fell from 34 to
// 27; eight and sixteen saved no more collections or CPU.
const freeGenerations = 4

// take returns a free chunk of capacity at least n, the last freed that
// fits (its memory the likeliest to be in cache), and whether there is
// one.
func (cp *chunkPool) take(n int) (rawChunk, bool) {
	for i := len(cp.free) - 1; i >= 0; i-- {
		if c := cp.free[i]; c.cap >= n {
			last := len(cp.free) - 1
			copy(cp.free[i:], cp.free[i+1:])
			cp.free[last] = rawChunk{} // no chunk is kept from past the length
			cp.free = cp.free[:last]
			cp.freeLen -= c.cap
			cp.taken += c.cap
			return c, true
		}
	}
	cp.taken += n
	return rawChunk{}, false
}

// The values a released chunk is filled with under poison.On: a string,
// and containers that hold it, so that a value kept past its release
// shows in what is written from it.
const poisonText = "\x00POISON"

var (
	poisonMember = Member{Key: poisonText, Value: poisonText}
	poisonObject = Object{poisonMember}
	poisonArray  = []any{poisonText}
)

// kindSizes is the size of an element of each kind; those of blocks are
// set by NewBlocks.
var kindSizes = [numKinds + maxBlockKinds]uintptr{
	kindStr:    unsafe.Sizeof(""),
	kindObj:    unsafe.Sizeof(Object{}),
	kindArr:    unsafe.Sizeof([]any{}),
	kindMember: unsafe.Sizeof(Member{}),
	kindElem:   unsafe.Sizeof(any(nil)),
}

// clearWords clears n elements of size bytes at p, a whole number of
// words each.
func clearWords(p unsafe.Pointer, n int, size uintptr) {
	clear(unsafe.Slice((*unsafe.Pointer)(p), uintptr(n)*size/unsafe.Sizeof(p)))
}

// fillPoison fills chunk c, of the kind given, with poison.
func fillPoison(kind int, c rawChunk) {
	switch kind {
	default:
		// The chunk as a []T: its first element set, then copied over
		// the rest, doubling.
		header := rawChunk{c.p, c.cap, c.cap}
		chunk := reflect.NewAt(blockChunks[kind-numKinds], unsafe.Pointer(&header)).Elem()
		chunk.Index(0).Set(blockPoison[kind-numKinds])
		for n := 1; n < c.cap; n *= 2 {
			reflect.Copy(chunk.Slice(n, c.cap), chunk.Slice(0, n))
		}
	case kindStr:
		fill(c, poisonText)
	case kindObj:
		fill(c, poisonObject)
	case kindArr:
		fill(c, poisonArray)
	case kindMember:
		fill(c, poisonMember)
	case kindElem:
		fill(c, any(poisonText))
	}
}

// fill sets every element of chunk c, of elements of type T, to v.
func fill[T any](c rawChunk, v T) {
	for i := range unsafe.Slice((*T)(c.p), c.cap) {
		unsafe.Slice((*T)(c.p), c.cap)[i] = v
	}
}

// Blocks hands out values of type T from a [Recycler]'s memory, under the
// same contract as the values it parses: a block taken while the values
// of a document are read, or after it, is valid until [Recycler.Release]
// is called with a bound above the document's mark, and after that may
// be any later document's block. Its caller uses it for what it builds
// from the document (the case package dataset decodes from it), which
// would otherwise be taken fresh from the heap for each document and left
// to the collector. Blocks of a kind are carved from chunks of about
// 4 KB, which circulate as the parser's chunks do, a generation at a
// time, and are cleared when released (filled with the kind's poison
// value under internal/poison).
//
// Blocks are made by [NewBlocks] when a package starts (a package-level
// variable), never while documents are read. Non-goal: a pool of memory
// for any use; blocks are what a document decodes into.
type Blocks[T any] struct{ kind int }

// What a recycler knows of each kind of block, by kind - numKinds (see
// NewBlocks): the slice type of its chunks and its poison value. Their
// code is shared by every kind, through reflect where it needs the type
// (a chunk made, poison written: rarely), not instantiated for each (the
// binary's size).
var (
	blockChunks [maxBlockKinds]reflect.Type
	blockPoison [maxBlockKinds]reflect.Value
	blockKinds  int
)

// maxBlockKinds bounds the kinds of block: dataset makes three.
const maxBlockKinds = 4

// blockChunk is the size a chunk of blocks is carved to.
const blockChunk = 4 << 10

// NewBlocks returns a kind of block of T, whose memory is filled with
// *poison when released under internal/poison. T's size must be a whole
// number of words (a struct with a pointer or an int is).
func NewBlocks[T any](poison *T) Blocks[T] { return Blocks[T]{newBlockKind(poison)} }

func newBlockKind(poison any) int {
	v := reflect.ValueOf(poison).Elem()
	size := v.Type().Size()
	if size == 0 || size%unsafe.Sizeof(uintptr(0)) != 0 || blockKinds == maxBlockKinds {
		panic("jsonvalue: NewBlocks of a type that is not a whole number of words, or of too many")
	}
	k := blockKinds
	blockKinds++
	blockChunks[k], blockPoison[k], kindSizes[numKinds+k] = reflect.SliceOf(v.Type()), v, size
	return numKinds + k
}

// Take returns n zero elements of T, of length and capacity n, in rc's
// memory (fresh when rc is nil): valid until rc releases the mark last
// set (see [Recycler.Mark]). n is at least 1.
func (b Blocks[T]) Take(rc *Recycler, n int) []T {
	if rc == nil {
		return make([]T, n)
	}
	return unsafe.Slice((*T)(rc.block(b.kind, n)), n)
}

// block returns the address of n elements of a kind of block, carved from
// a chunk of rc's.
func (rc *Recycler) block(kind, n int) unsafe.Pointer {
	// A block belongs to the document being read, or the last one read,
	// and joins the generation being read: after a document that filled
	// its generation alone, that is the next one, which has no mark yet
	// and would otherwise take only the marks of documents read later,
	// perhaps lower (a worker grades the batches in flight in any order).
	rc.begin()
	cp, size := &rc.pools[kind], kindSizes[kind]
	c := &cp.cur
	if c.cap-c.len < n {
		cp.hold(*c)
		m := max(n, blockChunk/int(size))
		free, ok := cp.take(m)
		if !ok {
			free = rawChunk{reflect.MakeSlice(blockChunks[kind-numKinds], m, m).UnsafePointer(), 0, m}
		}
		*c = free
		c.len = 0
	}
	p := unsafe.Add(c.p, uintptr(c.len)*size)
	c.len += n
	if poison.On {
		clearWords(p, n, size) // released, it was poisoned, not cleared
	}
	return p
}
