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
	rng := rand.New(rand.NewPCG(1, 2))
	hashes := make([]uint64, 50_000)
	for i := range hashes {
		if i%2 == 0 {
			hashes[i] = rng.Uint64()
		} else {
			hashes[i] = uint64(i) << 40 // hashes that differ in a few bits
		}
		if !tab.put(hashes[i], uint64(i)) {
			t.Fatalf("id %d taken for another", i)
		}
	}
	if tab.n != len(hashes) || 4*tab.n > 3*len(tab.slots) {
		t.Fatalf("%d ids in %d slots", tab.n, len(tab.slots))
	}
	for i, h := range hashes {
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
