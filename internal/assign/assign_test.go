package assign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func total(scores [][]float64, rows []int) float64 {
	t := 0.0
	for i, j := range rows {
		if j >= 0 {
			t += scores[i][j]
		}
	}
	return t
}

// bruteForce tries every injective mapping of rows to columns (or none).
func bruteForce(scores [][]float64) float64 {
	n := len(scores)
	if n == 0 {
		return 0
	}
	m := len(scores[0])
	used := make([]bool, m)
	var best float64
	var rec func(i int, acc float64)
	rec = func(i int, acc float64) {
		if i == n {
			best = max(best, acc)
			return
		}
		rec(i+1, acc) // row i unpaired
		for j := 0; j < m; j++ {
			if !used[j] {
				used[j] = true
				rec(i+1, acc+max(scores[i][j], 0))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

func TestMaximizeTable(t *testing.T) {
	tests := []struct {
		name   string
		scores [][]float64
		want   []int
	}{
		{"empty", nil, nil},
		{"no columns", [][]float64{{}, {}}, []int{-1, -1}},
		{"identity", [][]float64{{1, 0}, {0, 1}}, []int{0, 1}},
		{"greedy trap", [][]float64{{1, 1}, {1, 0}}, []int{1, 0}},
		{"zero pairs are not reported", [][]float64{{0, 0}, {0, 1}}, []int{-1, 1}},
		{"wide", [][]float64{{0.2, 0.9, 0.5}}, []int{1}},
		{"tall", [][]float64{{0.5}, {0.7}, {0.1}}, []int{-1, 0, -1}},
		{"partial scores", [][]float64{{0.5, 0.4}, {0.5, 0.1}}, []int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Maximize(tt.scores)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Maximize(%v) = %v, want %v", tt.scores, got, tt.want)
			}
		})
	}
}

// TestMaximizeEqualsBruteForce: the total of the assignment equals the best
// total found by trying every assignment, up to 7×7.
func TestMaximizeEqualsBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 7).Draw(t, "rows")
		m := rapid.IntRange(0, 7).Draw(t, "cols")
		// Few distinct values make ties, where mistakes hide.
		values := []float64{0, 0, 0.25, 0.5, 1, 1.0 / 3}
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = make([]float64, m)
			for j := range scores[i] {
				scores[i][j] = values[rapid.IntRange(0, len(values)-1).Draw(t, "v")]
			}
		}
		rows := Maximize(scores)
		if len(rows) != n {
			t.Fatalf("got %d rows, want %d", len(rows), n)
		}
		seen := map[int]bool{}
		for i, j := range rows {
			if j < 0 {
				continue
			}
			if seen[j] {
				t.Fatalf("column %d used twice: %v", j, rows)
			}
			seen[j] = true
			if scores[i][j] <= 0 {
				t.Fatalf("zero pair %d→%d reported", i, j)
			}
		}
		if got, want := total(scores, rows), bruteForce(scores); math.Abs(got-want) > 1e-9 {
			t.Fatalf("total %v, brute force %v; scores %v rows %v", got, want, scores, rows)
		}
	})
}

func TestGreedyBeyondCap(t *testing.T) {
	// One group wider than MaxExact on both sides is paired greedily; the
	// result must still be a valid assignment, at least half the optimum
	// (here: the diagonal, 1 per row).
	n := MaxExact + 1
	scores := make([][]float64, n)
	for i := range scores {
		scores[i] = make([]float64, n)
		scores[i][i] = 1
		scores[i][(i+1)%n] = 0.5 // links every row into one group
	}
	rows := Maximize(scores)
	seen := map[int]bool{}
	got := 0.0
	for i, j := range rows {
		if j >= 0 {
			if seen[j] {
				t.Fatalf("column %d used twice", j)
			}
			seen[j] = true
			got += scores[i][j]
		}
	}
	if got < float64(n)/2 {
		t.Errorf("greedy total %v, below half the optimum %d", got, n)
	}
}

func BenchmarkMaximize100(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	scores := make([][]float64, 100)
	for i := range scores {
		scores[i] = make([]float64, 100)
		for j := range scores[i] {
			if rng.IntN(4) == 0 {
				scores[i][j] = rng.Float64()
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		Maximize(scores)
	}
}

// TestGroupsAgreeWithHungarian: solving each connected group on its own
// gives the same total as the exact method on the whole matrix, on dense
// and sparse matrices with ties, NaN and negative scores.
func TestGroupsAgreeWithHungarian(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 9).Draw(t, "rows")
		m := rapid.IntRange(1, 9).Draw(t, "cols")
		density := rapid.SampledFrom([]float64{0.1, 0.3, 1}).Draw(t, "density")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		values := []float64{0, 0.25, 0.5, 1, math.NaN(), -1}
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = make([]float64, m)
			for j := range scores[i] {
				if rng.Float64() < density {
					scores[i][j] = values[rng.IntN(len(values))]
				}
			}
		}
		want := make([]int, n)
		for i := range want {
			want[i] = -1
		}
		hungarian(scores, want)
		for i, j := range want {
			if j >= 0 && !(scores[i][j] > 0) {
				want[i] = -1
			}
		}
		if got, w := total(scores, Maximize(scores)), total(scores, want); math.Abs(got-w) > 1e-9 {
			t.Fatalf("grouped total %v, whole-matrix total %v, for %v", got, w, scores)
		}
	})
}

// TestSmallGroupsBeyondCap: a matrix far beyond MaxExact made of small
// groups is still solved exactly, quickly.
func TestSmallGroupsBeyondCap(t *testing.T) {
	const n = 3 * MaxExact
	scores := make([][]float64, n)
	for i := range scores {
		scores[i] = make([]float64, n)
	}
	// Pairs of rows contend for pairs of columns, each a greedy trap: the
	// first row's best cell leaves the second row nothing.
	for k := 0; k < n; k += 2 {
		scores[k][k], scores[k][k+1] = 1, 0.9
		scores[k+1][k] = 0.8
	}
	rows := Maximize(scores)
	for k := 0; k < n; k += 2 {
		if rows[k] != k+1 || rows[k+1] != k {
			t.Fatalf("group %d paired %d, %d; want the optimal %d, %d", k/2, rows[k], rows[k+1], k+1, k)
		}
	}
}

// TestMaximizeNaN: a NaN score counts as zero; it once made the exact
// method loop for ever.
func TestMaximizeNaN(t *testing.T) {
	scores := [][]float64{{math.NaN(), 1, 0.5}, {1, 0.5, 0}, {0.5, 0, 1}}
	if got := fmt.Sprint(Maximize(scores)); got != "[1 0 2]" {
		t.Errorf("Maximize = %s, want [1 0 2]", got)
	}
}

// TestGroupsBitsAsGroups holds groupsBits, the groups of a matrix of up to
// 64 rows and columns found with sets of bits, to groups' union-find:
// generated sparse matrices give the same groups in the same order, each
// with the same rows and columns.
func TestGroupsBitsAsGroups(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, m := rapid.IntRange(1, 64).Draw(t, "n"), rapid.IntRange(1, 64).Draw(t, "m")
		density := rapid.IntRange(1, 12).Draw(t, "density")
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = make([]float64, m)
			for j := range scores[i] {
				if rapid.IntRange(0, n+m).Draw(t, "cell") < density {
					scores[i][j] = rapid.SampledFrom([]float64{1, 0.5, -1, math.NaN()}).Draw(t, "score")
				}
			}
		}
		lists := func(gs []group, order []int) [][2][]int {
			var out [][2][]int
			for _, g := range gs {
				out = append(out, [2][]int{g.rows(order), g.cols(order)})
			}
			return out
		}
		want := lists(groups(scores, make([]int, 5*(n+m)), nil))
		got := lists(groupsBits(positives(scores), make([]int, 0, n+m), nil))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("groupsBits %v, groups %v", got, want)
		}
	})
}

// positives returns each row's columns of positive score, as bits.
func positives(scores [][]float64) []uint64 {
	adj := make([]uint64, len(scores))
	for i, row := range scores {
		for j, s := range row {
			if s > 0 {
				adj[i] |= 1 << j
			}
		}
	}
	return adj
}

// TestMaximizeRowsAgrees holds MaximizeRows, told the positive cells, to
// MaximizeInto on generated matrices of up to 64 rows and columns, sparse
// (forced or in small groups) and dense, and to the brute force's total
// on small ones.
func TestMaximizeRowsAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, m := rapid.IntRange(0, 64).Draw(t, "n"), rapid.IntRange(1, 64).Draw(t, "m")
		if rapid.Bool().Draw(t, "small") {
			n, m = min(n, 5), min(m, 5)
		}
		density := rapid.IntRange(1, 2*(n+m)).Draw(t, "density")
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = make([]float64, m)
			for j := range scores[i] {
				if rapid.IntRange(0, n+m).Draw(t, "cell") < density {
					scores[i][j] = rapid.SampledFrom([]float64{1, 0.5, 0.25, -1, math.NaN()}).Draw(t, "score")
				}
			}
		}
		want := MaximizeInto(make([]int, n), scores)
		got := MaximizeRows(make([]int, n), scores, positives(scores))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("MaximizeRows %v, MaximizeInto %v", got, want)
		}
		if n <= 5 && m <= 5 {
			if bf := bruteForce(scores); math.Abs(total(scores, got)-bf) > 1e-9 {
				t.Fatalf("MaximizeRows total %v, brute force %v", total(scores, got), bf)
			}
		}
	})
}

// TestForcedBits: where forcedBits answers, its pairs are those the
// groups give (every optimal assignment takes the forced cells); where
// it declines, rows are untouched. Matrices mostly sparse, so that most
// are forced.
func TestForcedBits(t *testing.T) {
	forced := 0
	rapid.Check(t, func(t *rapid.T) {
		n, m := rapid.IntRange(1, 9).Draw(t, "n"), rapid.IntRange(1, 9).Draw(t, "m")
		values := []float64{0, 0, 0, 0, 0, 1, 0.5, 0.25}
		scores := make([][]float64, n)
		for i := range scores {
			scores[i] = rapid.SliceOfN(rapid.SampledFrom(values), m, m).Draw(t, "row")
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = -1
		}
		if !forcedBits(positives(scores), rows) {
			for _, j := range rows {
				if j != -1 {
					t.Fatalf("declined, but rows are %v", rows)
				}
			}
			return
		}
		forced++
		want := make([]int, n)
		for i := range want {
			want[i] = -1
		}
		want = solveBits(want, scores, positives(scores))
		if fmt.Sprint(rows) != fmt.Sprint(want) {
			t.Fatalf("forcedBits %v, the groups %v", rows, want)
		}
	})
	if forced < 10 {
		t.Errorf("only %d of the matrices were forced: the test compares too few", forced)
	}
}
