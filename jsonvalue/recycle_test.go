package jsonvalue

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/toolgrade/toolgrade/internal/poison"
)

// recycledDoc is a document of about 200 bytes with values of every kind,
// numbered i.
func recycledDoc(i int) string {
	return fmt.Sprintf(`{"id":"case-%d","n":%d,"tags":["a","b\"%d",{"deep":[%d,true,null]}],"args":{"q":"x\ny","k":%d.5,"o":{}}}`, i, i, i, i, i)
}

// TestRecyclerKeepsValuesUntilReleased parses documents under marks, keeps
// every value, and releases marks one at a time: each value reads as its
// document until its mark is released, and most released ones change
// (TestRecyclerPoisonsReleased checks the poison itself).
func TestRecyclerKeepsValuesUntilReleased(t *testing.T) {
	t.Cleanup(poison.Set(true))
	rc := NewRecycler()
	const docs, perMark = 3000, 20
	values := make([]any, docs)
	for i := range docs {
		rc.Mark(i / perMark)
		v, err := rc.ParseString(recycledDoc(i))
		if err != nil {
			t.Fatal(err)
		}
		values[i] = v
		if i%perMark == 0 {
			bound := i/perMark - 5 // five marks in flight
			rc.Release(bound)
			// Every document of a mark not released reads as itself.
			for j := max(bound, 0) * perMark; j <= i; j++ {
				if got, want := string(Append(nil, values[j])), recycledDoc(j); got != want {
					t.Fatalf("document %d (mark %d) after Release(%d):\n got %s\nwant %s", j, j/perMark, bound, got, want)
				}
			}
		}
	}
	// Released documents were overwritten: most read as poison or as
	// later documents.
	changed := 0
	for j := range docs / 2 {
		if string(Append(nil, values[j])) != recycledDoc(j) {
			changed++
		}
	}
	if changed < docs/4 {
		t.Errorf("%d of %d released documents changed: memory was not reused", changed, docs/2)
	}
}

// TestRecyclerPoisonsReleased: with poison on, values of a released
// generation read as poison before any later document reuses their
// memory.
func TestRecyclerPoisonsReleased(t *testing.T) {
	t.Cleanup(poison.Set(true))
	rc := NewRecycler()
	const docs, perMark = 2000, 20
	values := make([]any, docs)
	for i := range docs {
		rc.Mark(i / perMark)
		v, err := rc.ParseString(recycledDoc(i))
		if err != nil {
			t.Fatal(err)
		}
		values[i] = v
	}
	rc.Release(docs / perMark / 2) // nothing parsed after: nothing reused yet
	poisoned := 0
	for j := range docs / 4 {
		if strings.Contains(string(Append(nil, values[j])), `\u0000POISON`) { // poisonText, escaped
			poisoned++
		}
	}
	if poisoned < docs/8 {
		t.Errorf("%d of the first %d documents, released, read as poison", poisoned, docs/4)
	}
}

// TestRecyclerReusesMemory checks that a stream of documents released as
// it goes allocates far less than the same stream parsed by ParseString.
func TestRecyclerReusesMemory(t *testing.T) {
	docs := make([]string, 400)
	for i := range docs {
		docs[i] = recycledDoc(i)
	}
	rc := NewRecycler()
	mark := 0
	parse := func() {
		for _, d := range docs {
			rc.Mark(mark)
			rc.Release(mark - 2)
			mark++
			if _, err := rc.ParseString(d); err != nil {
				t.Fatal(err)
			}
		}
	}
	parse()
	recycled := testing.AllocsPerRun(20, parse)
	fresh := testing.AllocsPerRun(20, func() {
		for _, d := range docs {
			if _, err := ParseString(d); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Logf("allocations per 400 documents: %.0f recycled, %.0f fresh", recycled, fresh)
	if recycled > fresh/4 {
		t.Errorf("recycled: %.0f allocations per 400 documents, fresh %.0f", recycled, fresh)
	}
}

// TestRecyclerHoldsBoundedMemory parses a long stream with a fixed lag of
// marks in flight: what the recycler holds stays within its generations in
// flight and the free chunks' bound.
func TestRecyclerHoldsBoundedMemory(t *testing.T) {
	rc := NewRecycler()
	for i := range 20000 {
		rc.Mark(i / 10)
		rc.Release(i/10 - 3)
		if _, err := rc.ParseString(recycledDoc(i)); err != nil {
			t.Fatal(err)
		}
		if n := len(rc.waiting); n > 3 {
			t.Fatalf("document %d: %d generations waiting with 30 documents in flight", i, n)
		}
	}
	for k, cp := range rc.pools {
		if cp.freeLen > freeGenerations*cp.lastTaken {
			t.Errorf("kind %d: %d free against %d taken by the last generation", k, cp.freeLen, cp.lastTaken)
		}
	}
}

// TestRecyclerFreeChunksHoldNothing: a released chunk, of values or of
// blocks, holds no pointer, which would keep old documents' memory alive.
func TestRecyclerFreeChunksHoldNothing(t *testing.T) {
	rc := NewRecycler()
	for i := range 2000 {
		rc.Mark(i)
		rc.Release(i - 1)
		if _, err := rc.ParseString(recycledDoc(i)); err != nil {
			t.Fatal(err)
		}
		testBlocks.Take(rc, 3)[1] = testBlock{S: "x", N: 1, V: "y"}
	}
	blocks := rc.pools[testBlocks.kind].free
	if len(blocks) == 0 {
		t.Fatal("no free chunk of blocks")
	}
	for _, c := range blocks {
		for _, e := range unsafe.Slice((*testBlock)(c.p), c.cap) {
			if e != (testBlock{}) {
				t.Fatalf("a free chunk holds %+v", e)
			}
		}
	}
	for _, c := range rc.pools[kindMember].free {
		for _, m := range unsafe.Slice((*Member)(c.p), c.cap) {
			if m != (Member{}) {
				t.Fatalf("a free chunk holds %q", m.Key)
			}
		}
	}
	for _, c := range rc.pools[kindStr].free {
		if s := strings.Join(unsafe.Slice((*string)(c.p), c.cap), ""); s != "" {
			t.Fatalf("a free chunk holds %q", s)
		}
	}
}

// FuzzRecyclerAsParse holds a Recycler's parse to ParseString's on any
// text: the same value or the same error, whether its memory is fresh or
// reused.
func FuzzRecyclerAsParse(f *testing.F) {
	for _, s := range []string{recycledDoc(1), `[1,{"a":[]}]`, `"x\u00e9"`, `{"a":1,"a":2}`, `{"a":[1,2`, strings.Repeat(`[`, 100)} {
		f.Add(s, uint8(3))
	}
	rc := NewRecycler()
	mark := 0
	f.Fuzz(func(t *testing.T, s string, lag uint8) {
		rc.Mark(mark)
		rc.Release(mark - int(lag%8))
		mark++
		got, err := rc.ParseString(s)
		want, werr := ParseString(s)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("error %v, ParseString's %v", err, werr)
		}
		if err == nil && !Equal(got, want) {
			t.Fatalf("got %s, ParseString's %s", Append(nil, got), Append(nil, want))
		}
	})
}

// A block of the tests' kind: a string, a number and a value.
type testBlock struct {
	S string
	N int
	V any
}

var testBlocks = NewBlocks(&testBlock{S: poisonText, N: -1, V: poisonText})

// TestBlocksKeptUntilReleased takes blocks beside documents parsed under
// marks, a few at a time, and releases marks with a lag: every block
// comes zero, reads as written until its mark is released, and released
// blocks are taken again.
func TestBlocksKeptUntilReleased(t *testing.T) {
	t.Cleanup(poison.Set(true))
	rc := NewRecycler()
	const docs, perMark, lag = 4000, 16, 4
	blocks := make([][]testBlock, docs)
	seen := map[*testBlock]bool{}
	reused := 0
	for i := range docs {
		mark := i / perMark
		rc.Mark(mark)
		rc.Release(mark - lag)
		if _, err := rc.ParseString(recycledDoc(i)); err != nil {
			t.Fatal(err)
		}
		b := testBlocks.Take(rc, 1+i%5)
		if len(b) != 1+i%5 || cap(b) != len(b) {
			t.Fatalf("Take(%d): length %d, capacity %d", 1+i%5, len(b), cap(b))
		}
		for j := range b {
			if b[j] != (testBlock{}) {
				t.Fatalf("document %d: block %d is not zero: %+v", i, j, b[j])
			}
			b[j] = testBlock{S: fmt.Sprint(i), N: i, V: Object{{Key: "i", Value: i}}}
		}
		if seen[&b[0]] {
			reused++
		}
		seen[&b[0]] = true
		blocks[i] = b
		for k := max(mark-lag, 0) * perMark; k <= i; k++ {
			for _, e := range blocks[k] {
				if e.S != fmt.Sprint(k) || e.N != k || !Equal(e.V, Object{{Key: "i", Value: k}}) {
					t.Fatalf("document %d's block, at document %d (bound %d): %+v", k, i, mark-lag, e)
				}
			}
		}
	}
	if reused < docs/2 {
		t.Errorf("%d blocks of %d taken again: memory was not reused", reused, docs)
	}
}

// TestBlocksAfterLoneDocument: a block taken after a document that filled
// its generation alone belongs to that document's mark, even when the
// documents read after it, which share the block's generation, have lower
// marks (a worker grades batches in flight in any order).
func TestBlocksAfterLoneDocument(t *testing.T) {
	t.Cleanup(poison.Set(true))
	rc := NewRecycler()
	lone := `{"s":"` + strings.Repeat("x", genInput) + `"}`
	rc.Mark(5)
	if _, err := rc.ParseString(lone); err != nil {
		t.Fatal(err)
	}
	b := testBlocks.Take(rc, 1)
	b[0] = testBlock{S: "kept", N: 5}
	rc.Mark(1)
	for _, d := range []string{recycledDoc(1), lone} { // ends the generation
		if _, err := rc.ParseString(d); err != nil {
			t.Fatal(err)
		}
	}
	rc.Release(2)
	if b[0] != (testBlock{S: "kept", N: 5}) {
		t.Errorf("the block of mark 5 after Release(2): %+v", b[0])
	}
	rc.Release(6)
	if b[0] == (testBlock{S: "kept", N: 5}) {
		t.Errorf("the block of mark 5 after Release(6) was not released")
	}
}
