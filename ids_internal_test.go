package toolgrade

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade/internal/series"
	"pgregory.net/rapid"
)

// TestIDTable: an id comes back with its own digest agreeing and another
// disagreeing, through the table's growth, random ids and ids whose
// hashes differ in a few bits alike.
func TestIDTable(t *testing.T) {
	var tab idTable
	tab.prefetch([]idPlace{{}, {h: 1}}) // an empty table: nothing to read
	rng := rand.New(rand.NewPCG(1, 2))
	hashes := make([]uint64, 50_000)
	for i := range hashes {
		if i%100 == 0 {
			tab.prefetch(placesOf(hashes[max(0, i-16) : i+1])) // changes nothing
		}
		if i%2 == 0 {
			hashes[i] = rng.Uint64()
		} else {
			hashes[i] = uint64(i) << 40 // hashes that differ in a few bits
		}
		if !tab.putHash(hashes[i], uint64(i)) {
			t.Fatalf("id %d taken for another", i)
		}
	}
	if tab.n != len(hashes) || 4*tab.n > 3*len(tab.ids) {
		t.Fatalf("%d ids in %d slots", tab.n, len(tab.ids))
	}
	for i, h := range hashes {
		tab.prefetch(placesOf(hashes[i:min(i+16, len(hashes))]))
		if !tab.putHash(h, uint64(i)) {
			t.Fatalf("id %d: its own digest disagrees", i)
		}
		if tab.putHash(h, uint64(i)+1) {
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
			if !tab.putHash(h^1<<bit, uint64(i*64+bit)) {
				t.Fatalf("hash %#x (bit %d flipped) taken for another id", h^1<<bit, bit)
			}
		}
	}
	for i, want := range []bool{true, true, false} { // new, the same case again, another case
		if got := tab.putHash(0, uint64(7+i/2)); got != want {
			t.Fatalf("an id whose hash is 0, put %d: %v, want %v", i+1, got, want)
		}
	}
}

// placesOf returns the places of ids in the table with these hashes.
func placesOf(hashes []uint64) []idPlace {
	out := make([]idPlace, len(hashes))
	for i, h := range hashes {
		out[i].h = h
	}
	return out
}

// maxIDSeries is the most prefixes the id table keeps in series.
const maxIDSeries = series.Max

// TestIDTableSeriesAgree holds the ids kept in series to the table alone,
// fed as a run feeds them (in batches, placed first): every put answers
// the same. Ids come in order and out of it, far apart, again with their
// digest or another, under more prefixes than the series keep.
func TestIDTableSeriesAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefixes := []string{"case-", "", "f.jsonl:line-", "line-2#"}
		for i := range []int{0, 3, 2 * maxIDSeries}[rapid.IntRange(0, 2).Draw(t, "more prefixes")] {
			prefixes = append(prefixes, "q"+strconv.Itoa(i)+"_")
		}
		next := make([]uint64, len(prefixes))
		type put struct {
			id     string
			digest uint64
		}
		var puts []put
		for range rapid.IntRange(1, 3000).Draw(t, "ids") {
			k := rapid.IntRange(0, len(prefixes)-1).Draw(t, "prefix")
			var num uint64
			switch rapid.IntRange(0, 9).Draw(t, "how") {
			case 0:
				num = rapid.Uint64().Draw(t, "anywhere")
			case 1:
				num = next[k] + rapid.Uint64Range(0, 400).Draw(t, "ahead")
			case 2, 3:
				if len(puts) > 0 {
					p := puts[rapid.IntRange(0, len(puts)-1).Draw(t, "again")]
					if rapid.IntRange(0, 3).Draw(t, "other case") == 0 {
						p.digest++
					}
					puts = append(puts, p)
					continue
				}
			case 4:
				puts = append(puts, put{prefixes[k] + "z", uint64(len(puts))})
				continue
			default:
				num = next[k]
			}
			next[k] = max(next[k], num+1)
			puts = append(puts, put{prefixes[k] + strconv.FormatUint(num, 10), uint64(len(puts)) << 3})
		}
		var fast, flat idTable
		flat.flat = true
		for len(puts) > 0 {
			batch := puts[:min(len(puts), rapid.IntRange(1, 16).Draw(t, "batch"))]
			puts = puts[len(batch):]
			var places, flatPlaces [16]idPlace
			for i, p := range batch {
				places[i], flatPlaces[i] = fast.place(p.id), flat.place(p.id)
			}
			fast.prefetch(places[:len(batch)])
			for i, p := range batch {
				if a, b := fast.put(p.id, places[i], p.digest), flat.put(p.id, flatPlaces[i], p.digest); a != b {
					t.Fatalf("%q with digest %d: %v, the table alone %v", p.id, p.digest, a, b)
				}
			}
		}
	})
}
