package jsonvalue

import "github.com/toolgrade/toolgrade/internal/poison"

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
// about two generations' worth kept free for reuse.
//
// Non-goal: reusing the text of strings, or memory of documents given to
// [Parse] or [ParseString], which make no such promise.
type Recycler struct {
	p parser

	strs    chunkPool[string]
	objs    chunkPool[Object]
	arrs    chunkPool[[]any]
	members chunkPool[Member]
	elems   chunkPool[any]

	// mark is the highest mark of the documents of the generation being
	// read (none: noMark); next is the mark of the documents parsed next.
	mark, next int
	// waiting holds the marks of the generations read, not yet released,
	// oldest first; each pool holds their chunks in the same order.
	waiting []int
}

const noMark = -1 << 62

// NewRecycler returns a Recycler that holds no memory yet.
func NewRecycler() *Recycler {
	rc := &Recycler{mark: noMark}
	rc.p.slab.rec = rc
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
		rc.strs.settle(i, k, free)
		rc.objs.settle(i, k, free)
		rc.arrs.settle(i, k, free)
		rc.members.settle(i, k, free)
		rc.elems.settle(i, k, free)
		if !free {
			rc.waiting[k] = m
			k++
		}
	}
	if k == len(rc.waiting) {
		return
	}
	rc.waiting = rc.waiting[:k]
	rc.strs.trim(k)
	rc.objs.trim(k)
	rc.arrs.trim(k)
	rc.members.trim(k)
	rc.elems.trim(k)
}

// begin notes that the document about to be read belongs to the
// generation being read.
func (rc *Recycler) begin() { rc.mark = max(rc.mark, rc.next) }

// endGeneration puts the chunks of the generation read, which its values
// keep using, to wait for their release under its mark.
func (rc *Recycler) endGeneration() {
	if rc.mark == noMark {
		return // nothing was read
	}
	rc.waiting = append(rc.waiting, rc.mark)
	rc.mark = noMark
	rc.strs.wait()
	rc.objs.wait()
	rc.arrs.wait()
	rc.members.wait()
	rc.elems.wait()
}

// A chunkPool holds a recycler's chunks of one kind: those of the
// generation being read (held), those of generations read and not yet
// released (waiting, a list per generation), and those free for reuse.
type chunkPool[T any] struct {
	held    [][]T
	waiting [][][]T
	free    [][]T
	// freeLen is the total capacity of free, bounded by twice what the
	// last generation took (lastTaken): a generation finds what it needs
	// among the chunks released before it, and no chunk waits long in the
	// free list, its values (the last use's) keeping old documents'
	// memory alive.
	freeLen          int
	taken, lastTaken int
	// spare is a list of a released generation's, emptied, for the next
	// generation's held chunks.
	spare [][]T
}

// hold adds a chunk of the generation being read, which its values use.
func (cp *chunkPool[T]) hold(c []T) {
	if cap(c) > 0 {
		if cp.held == nil {
			cp.held, cp.spare = cp.spare, nil
		}
		cp.held = append(cp.held, c)
	}
}

func (cp *chunkPool[T]) wait() {
	cp.waiting = append(cp.waiting, cp.held)
	cp.held = nil
	cp.lastTaken, cp.taken = cp.taken, 0
}

// settle frees the chunks of waiting generation i if free, and otherwise
// moves them to place k (k <= i).
func (cp *chunkPool[T]) settle(i, k int, free bool) {
	if !free {
		cp.waiting[k] = cp.waiting[i]
		return
	}
	for _, c := range cp.waiting[i] {
		// A free chunk holds no pointer: the collector would follow each
		// one, every cycle, and keep what it points to (old documents'
		// memory) alive. Clearing costs what a new chunk's zeroing would.
		if poison.On {
			fill(c[:cap(c)])
		} else {
			clear(c[:cap(c)])
		}
		cp.free = append(cp.free, c[:0])
		cp.freeLen += cap(c)
	}
	clear(cp.waiting[i])
	cp.spare, cp.waiting[i] = cp.waiting[i][:0], nil
	if cp.freeLen <= 2*cp.lastTaken {
		return
	}
	// Drop the oldest: the free list is taken from its end.
	n := 0
	for cp.freeLen > 2*cp.lastTaken && n < len(cp.free) {
		cp.freeLen -= cap(cp.free[n])
		n++
	}
	cp.free = cp.free[:copy(cp.free, cp.free[n:])]
	clear(cp.free[len(cp.free) : len(cp.free)+n]) // no chunk is kept from past the length
}

func (cp *chunkPool[T]) trim(k int) {
	clear(cp.waiting[k:])
	cp.waiting = cp.waiting[:k]
}

// take returns an empty chunk of capacity at least n: the last freed
// that fits (its memory the likeliest to be in cache), else a new one.
func (cp *chunkPool[T]) take(n int) []T {
	for i := len(cp.free) - 1; i >= 0; i-- {
		if c := cp.free[i]; cap(c) >= n {
			last := len(cp.free) - 1
			copy(cp.free[i:], cp.free[i+1:])
			cp.free[last] = nil // no chunk is kept from past the length
			cp.free = cp.free[:last]
			cp.freeLen -= cap(c)
			cp.taken += cap(c)
			return c
		}
	}
	cp.taken += n
	return make([]T, 0, n)
}

// poolOf returns rc's pool of chunks of T.
func poolOf[T any](rc *Recycler) *chunkPool[T] {
	switch p := any(&rc.strs).(type) {
	case *chunkPool[T]:
		return p
	}
	switch p := any(&rc.objs).(type) {
	case *chunkPool[T]:
		return p
	}
	switch p := any(&rc.arrs).(type) {
	case *chunkPool[T]:
		return p
	}
	switch p := any(&rc.members).(type) {
	case *chunkPool[T]:
		return p
	}
	return any(&rc.elems).(*chunkPool[T])
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

// fill fills c with poison.
func fill[T any](c []T) {
	switch c := any(c).(type) {
	case []string:
		for i := range c {
			c[i] = poisonText
		}
	case []Object:
		for i := range c {
			c[i] = poisonObject
		}
	case [][]any:
		for i := range c {
			c[i] = poisonArray
		}
	case []Member:
		for i := range c {
			c[i] = poisonMember
		}
	case []any:
		for i := range c {
			c[i] = poisonText
		}
	}
}
