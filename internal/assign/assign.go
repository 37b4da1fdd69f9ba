// Package assign solves the assignment problem: pair rows with columns so
// that the total score of the pairs is as large as possible.
package assign

import (
	"cmp"
	"math"
	"slices"
)

// MaxExact is the largest side Maximize solves exactly. The exact method
// takes time cubic in the side (100×100 takes well under a millisecond;
// 1000×1000 about a second), so beyond this Maximize pairs greedily by
// descending score, which gives at least half the optimal total.
const MaxExact = 1000

// Maximize returns the column paired with each row (-1 for none) so that the
// sum of scores[i][rows[i]] is maximal. scores must be rectangular; scores
// below zero are treated as zero. Pairs of score zero are never reported.
// The result is deterministic: among optimal assignments the same one is
// returned for the same matrix.
func Maximize(scores [][]float64) []int {
	n := len(scores)
	if n == 0 {
		return nil
	}
	m := len(scores[0])
	rows := make([]int, n)
	for i := range rows {
		rows[i] = -1
	}
	if m == 0 {
		return rows
	}
	if max(n, m) > MaxExact {
		greedy(scores, rows)
	} else {
		hungarian(scores, rows)
	}
	for i, j := range rows {
		if j >= 0 && !(scores[i][j] > 0) {
			rows[i] = -1
		}
	}
	return rows
}

// hungarian is the O(n³) shortest-augmenting-path method with potentials,
// on the square matrix padded with zero scores, minimizing (top - score).
func hungarian(scores [][]float64, rows []int) {
	n, m := len(scores), len(scores[0])
	size := max(n, m)
	top := 0.0
	for i := range scores {
		for _, s := range scores[i] {
			top = max(top, s)
		}
	}
	cost := func(i, j int) float64 { // 1-based
		if i > n || j > m {
			return top
		}
		s := scores[i-1][j-1]
		if s < 0 || math.IsNaN(s) {
			s = 0
		}
		return top - s
	}
	u := make([]float64, size+1)
	v := make([]float64, size+1)
	p := make([]int, size+1) // p[j]: row matched to column j
	way := make([]int, size+1)
	minv := make([]float64, size+1)
	used := make([]bool, size+1)
	for i := 1; i <= size; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= size; j++ {
				if used[j] {
					continue
				}
				cur := cost(i0, j) - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= size; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	for j := 1; j <= m; j++ {
		if i := p[j]; i >= 1 && i <= n {
			rows[i-1] = j - 1
		}
	}
}

// greedy pairs the highest-scoring free row and column first.
func greedy(scores [][]float64, rows []int) {
	type cell struct {
		i, j int
		s    float64
	}
	var cells []cell
	for i := range scores {
		for j, s := range scores[i] {
			if s > 0 {
				cells = append(cells, cell{i, j, s})
			}
		}
	}
	// Highest score first, then by position, for determinism.
	slices.SortFunc(cells, func(a, b cell) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		if c := cmp.Compare(a.i, b.i); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	usedCol := make(map[int]bool)
	for _, c := range cells {
		if rows[c.i] < 0 && !usedCol[c.j] {
			rows[c.i] = c.j
			usedCol[c.j] = true
		}
	}
}
