package sorting

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// An item sorts by key alone; tag tells apart the items a sort ties.
type item struct{ key, tag int }

func byKey(a, b item) int { return cmp.Compare(a.key, b.key) }

// TestSortsAsSlices holds Sort and Stable to slices.SortFunc and
// slices.SortStableFunc, ties included, on lengths that take every path
// of both (insertion sorts, pivots of three and of nine, merging).
func TestSortsAsSlices(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 400).Draw(t, "n")
		keys := rapid.IntRange(1, 2*n+1).Draw(t, "distinct keys")
		in := make([]item, n)
		for i := range in {
			in[i] = item{key: rapid.IntRange(0, keys-1).Draw(t, "key"), tag: i}
		}
		for _, s := range []struct {
			name       string
			ours, want func([]item, func(a, b item) int)
		}{
			{"Sort", Sort[[]item], slices.SortFunc[[]item]},
			{"Stable", Stable[[]item], slices.SortStableFunc[[]item]},
		} {
			got, want := slices.Clone(in), slices.Clone(in)
			s.ours(got, byKey)
			s.want(want, byKey)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: got %v, want %v", s.name, got, want)
			}
		}
	})
}
