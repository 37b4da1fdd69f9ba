package toolgrade

import (
	"math/rand/v2"
	"testing"
)

// TestIDTable: an id comes back with its own digest agreeing and another
// disagreeing, through the table's growth, random ids and ids whose
// hashes differ in a few bits alike.
func TestIDTable(t *testing.T) {
	var tab idTable
	tab.prefetch([]uint64{0, 1}) // an empty table: nothing to read
	rng := rand.New(rand.NewPCG(1, 2))
	hashes := make([]uint64, 50_000)
	for i := range hashes {
		if i%100 == 0 {
			tab.prefetch(hashes[max(0, i-16) : i+1]) // changes nothing
		}
		if i%2 == 0 {
			hashes[i] = rng.Uint64()
		} else {
			hashes[i] = uint64(i) << 40 // hashes that differ in a few bits
		}
		if !tab.put(hashes[i], uint64(i)) {
			t.Fatalf("id %d taken for another", i)
		}
	}
	if tab.n != len(hashes) || 4*tab.n > 3*len(tab.ids) {
		t.Fatalf("%d ids in %d slots", tab.n, len(tab.ids))
	}
	for i, h := range hashes {
		tab.prefetch(hashes[i:min(i+16, len(hashes))])
		if !tab.put(h, uint64(i)) {
			t.Fatalf("id %d: its own digest disagrees", i)
		}
		if tab.put(h, uint64(i)+1) {
			t.Fatalf("id %d: another digest agrees", i)
		}
	}
	if tab.n != len(hashes) {
		t.Fatalf("%d ids after repeats, want %d", tab.n, len(hashes))
	}
}

// TestIDTableKeepsWholeHashes: ids whose hashes differ in any bit are
// told apart, whatever their digests; a table that kept 39 bits of them
// took one id for the other (two of 200,000 distinct ids in one run in
// thirty).
func TestIDTableKeepsWholeHashes(t *testing.T) {
	var tab idTable
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		h := rng.Uint64()
		for bit := range 64 {
			if !tab.put(h^1<<bit, uint64(i*64+bit)) {
				t.Fatalf("hash %#x (bit %d flipped) taken for another id", h^1<<bit, bit)
			}
		}
	}
	for i, want := range []bool{true, true, false} { // new, the same case again, another case
		if got := tab.put(0, uint64(7+i/2)); got != want {
			t.Fatalf("an id whose hash is 0, put %d: %v, want %v", i+1, got, want)
		}
	}
}
