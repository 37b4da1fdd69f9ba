package match

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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

// The pairing functions that append to a buffer give what the exported
// ones give (a nil or empty result aside), after whatever the buffer
// held; optimalWhole gives what optimal does on scores of 0 and 1; and
// unpaired, carving its lists from one buffer, gives toolgrade.Unpaired's.
func TestPairIntoAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, k := rapid.IntRange(0, 10).Draw(t, "n"), rapid.IntRange(1, 10).Draw(t, "k")
		values := []float64{0, 1}
		whole := rapid.Bool().Draw(t, "whole")
		if !whole {
			values = []float64{0, 0.25, 0.5, 1}
		}
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = rapid.SliceOfN(rapid.SampledFrom(values), k, k).Draw(t, "row")
		}
		held := rapid.IntRange(0, 3).Draw(t, "held")
		var buf [4]toolgrade.Match
		prefix := buf[:held]
		for i := range prefix {
			prefix[i] = toolgrade.Match{Expected: -i, Called: -i}
		}
		for _, tt := range []struct {
			name string
			into func([]toolgrade.Match, [][]float64) []toolgrade.Match
			want func([][]float64) []toolgrade.Match
		}{
			{"optimal", optimal, Optimal},
			{"greedy", greedy, Greedy},
			{"inOrder", inOrder, InOrder},
			{"positional", positional, Positional},
		} {
			got := tt.into(slices.Clone(prefix), scores)
			want := append(slices.Clone(prefix), tt.want(scores)...)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("%s (-exported +into):\n%s", tt.name, diff)
			}
			if tt.name == "optimal" && whole {
				if diff := cmp.Diff(got, optimalWhole(slices.Clone(prefix), scores), cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("optimalWhole (-optimal +whole):\n%s", diff)
				}
			}
			pairs := got[held:]
			wantMissing, wantUnexpected := toolgrade.Unpaired(pairs, n, k)
			mem := newResultMem(resultNeeds{matches: max(n, len(pairs)), ints: n + k - 2*len(pairs)})
			missing, unexpected := unpaired(mem.ints, pairs, n, k)
			if diff := cmp.Diff([2][]int{wantMissing, wantUnexpected}, [2][]int{missing, unexpected}); diff != "" {
				t.Fatalf("%s: unpaired (-Unpaired +unpaired):\n%s", tt.name, diff)
			}
			if cap(missing) != len(missing) || cap(unexpected) != len(unexpected) {
				t.Fatalf("%s: unpaired lists with room past their end: %d/%d, %d/%d", tt.name, len(missing), cap(missing), len(unexpected), cap(unexpected))
			}
		}
	})
}

// positionalHeld gives the best of the ways to leave held calls out (each
// kept held call paired where it stands): the best total, then the fewest
// held calls kept, found by trying every way; pairs in place, as
// positional pairs what it keeps; and without a held call it left out,
// the same pairs.
func TestPositionalHeld(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, k := rapid.IntRange(1, 5).Draw(t, "n"), rapid.IntRange(1, 7).Draw(t, "k")
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0, 0.5, 1}), k, k).Draw(t, "row")
		}
		held := rapid.SliceOfN(rapid.Bool(), k, k).Draw(t, "held")
		got, greedy := positionalHeld(n, k, func(i, j int) float64 { return scores[i][j] }, func(j int) bool { return held[j] })
		if greedy {
			t.Fatal("greedy on a small matrix")
		}
		// kept lists the called calls a way keeps; ok is false when it
		// keeps a held call that does not pair where it stands.
		figures := func(keep uint) (kept []int, total float64, heldKept int, ok bool) {
			for j := range k {
				if held[j] && keep&(1<<j) == 0 {
					continue
				}
				p := len(kept)
				kept = append(kept, j)
				s := 0.0
				if p < n {
					s = scores[p][j]
				}
				if held[j] {
					if s == 0 {
						return nil, 0, 0, false
					}
					heldKept++
				}
				total += s
			}
			return kept, total, heldKept, true
		}
		bestTotal, bestHeld := -1.0, 0
		for keep := range uint(1) << k {
			if _, total, h, ok := figures(keep); ok && (total > bestTotal || total == bestTotal && h < bestHeld) {
				bestTotal, bestHeld = total, h
			}
		}
		var keep uint
		total, heldKept := 0.0, 0
		for _, p := range got {
			total += p.Score
			if held[p.Called] {
				keep |= 1 << p.Called
				heldKept++
			}
		}
		if total != bestTotal || heldKept != bestHeld {
			t.Fatalf("pairs %v: total %v keeping %d held calls, want %v keeping %d", got, total, heldKept, bestTotal, bestHeld)
		}
		kept, _, _, ok := figures(keep)
		if !ok {
			t.Fatalf("pairs %v keep a held call that does not pair", got)
		}
		var want []toolgrade.Match
		for p, j := range kept {
			if p < n && scores[p][j] > 0 {
				want = append(want, toolgrade.Match{Expected: p, Called: j, Score: scores[p][j]})
			}
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("not the positional pairs of what it keeps (-want +got):\n%s", diff)
		}
		for out := range k {
			if !held[out] || keep&(1<<out) != 0 {
				continue
			}
			without := func(j int) int { // an index without out to one with it
				if j >= out {
					j++
				}
				return j
			}
			again, _ := positionalHeld(n, k-1, func(i, j int) float64 { return scores[i][without(j)] }, func(j int) bool { return held[without(j)] })
			for l := range again {
				again[l].Called = without(again[l].Called)
			}
			if diff := cmp.Diff(got, again, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("without held call #%d (-with +without):\n%s", out, diff)
			}
		}
	})
}

// Past MaxPairCells, positionalHeld keeps a held call wherever it pairs
// and says it paired greedily when it kept one.
func TestPositionalHeldStreaming(t *testing.T) {
	k := MaxPairCells/2 + 1
	score := func(i, j int) float64 { // expected: a failure, then a; called: failures, then a
		if i == 0 && j < k-1 || i == 1 && j == k-1 {
			return 1
		}
		return 0
	}
	got, greedy := positionalHeld(2, k, score, func(j int) bool { return j < k-1 })
	want := []toolgrade.Match{{Expected: 0, Called: 0, Score: 1}, {Expected: 1, Called: k - 1, Score: 1}}
	if diff := cmp.Diff(want, got); diff != "" || !greedy {
		t.Errorf("greedy = %v, pairs (-want +got):\n%s", greedy, diff)
	}
	got, greedy = positionalHeld(1, 2*MaxPairCells, func(i, j int) float64 { return 0 }, func(j int) bool { return j%2 == 0 })
	if len(got) != 0 || greedy {
		t.Errorf("nothing to pair: %v, greedy %v", got, greedy)
	}
}
