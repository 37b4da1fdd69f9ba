package match

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

// pairStreaming pairs as the matrix functions do where it does not fall
// back (exact order, greedy pairing), and otherwise gives a pairing that
// keeps the rules: one to one, positive scores, in order for in-order.
func TestPairStreamingProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, k := rapid.IntRange(1, 6).Draw(t, "n"), rapid.IntRange(1, 6).Draw(t, "k")
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.5, 1}), k, k).Draw(t, "row")
		}
		score := func(i, j int) float64 { return scores[i][j] }
		for _, tt := range []struct {
			order   Order
			pairing Pairing
			matrix  func([][]float64) []toolgrade.Match // nil: a fallback
		}{
			{OrderExact, PairingOptimal, Positional},
			{OrderAny, PairingGreedy, Greedy},
			{OrderAny, PairingOptimal, nil},
			{OrderInOrder, PairingOptimal, nil},
		} {
			got, greedy := pairStreaming(n, k, tt.order, tt.pairing, score)
			if greedy != (tt.matrix == nil) {
				t.Fatalf("%s/%s: greedy = %v", tt.order, tt.pairing, greedy)
			}
			if tt.matrix != nil {
				if diff := cmp.Diff(tt.matrix(scores), got); diff != "" {
					t.Fatalf("%s/%s differs from the matrix's pairing (-matrix +streaming):\n%s", tt.order, tt.pairing, diff)
				}
				continue
			}
			var called []int
			for _, p := range got {
				if p.Score <= 0 || p.Score != scores[p.Expected][p.Called] || slices.Contains(called, p.Called) {
					t.Fatalf("%s: a bad pair %+v in %v", tt.order, p, got)
				}
				called = append(called, p.Called)
			}
			if tt.order == OrderInOrder && !slices.IsSorted(called) {
				t.Fatalf("in-order pairs out of order: %v", got)
			}
		}
	})
}
