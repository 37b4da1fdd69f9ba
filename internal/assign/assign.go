// Package assign solves the assignment problem: pair rows with columns so
// that the total score of the pairs is as large as possible.
//
// The rules: the result is optimal for groups up to [MaxExact] a side and
// deterministic (the same matrix, the same pairs); pairs of score zero
// are never made. Non-goals: minimum-cost or constrained variants, and
// optimality beyond MaxExact, where time would grow without bound.
package assign

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// MaxExact is the largest side of a group Maximize solves exactly (see
// below). The exact method takes time cubic in the side (on a 2-core AMD
// EPYC, 100×100 takes under 2 ms and 1000×1000 up to 3 s when many scores
// tie; see bench/README.md), so beyond this a group is paired greedily by
// descending score, which gives at least half its optimal total.
const MaxExact = 1000

// Maximize returns the column paired with each row (-1 for none) so that the
// sum of scores[i][rows[i]] is maximal. scores must be rectangular; scores
// below zero, and NaN, are treated as zero. Pairs of score zero are never
// reported. The result is deterministic: among optimal assignments the same
// one is returned for the same matrix.
//
// Rows and columns linked by no chain of positive scores cannot affect each
// other's pairing, so each connected group is solved on its own: a lone
// cell or a row (or column) with one partner group is a choice of the best
// cell, found in linear time, and only groups where several rows contend
// for several columns need the exact method. With tool calls, where
// positive scores link only calls of the same tool, groups are small
// whatever the size of the case.
func Maximize(scores [][]float64) []int {
	if len(scores) == 0 {
		return nil
	}
	return MaximizeInto(make([]int, len(scores)), scores)
}

// MaximizeInto is [Maximize] writing into rows, whose capacity must be at
// least len(scores), and returning rows[:len(scores)]: a caller that pairs
// many small matrices keeps rows on its stack.
func MaximizeInto(rows []int, scores [][]float64) []int {
	n := len(scores)
	rows = rows[:n]
	if n == 0 {
		return rows
	}
	for i := range rows {
		rows[i] = -1
	}
	m := len(scores[0])
	if m == 0 {
		return rows
	}
	if n <= 64 && m <= 64 {
		var adj [64]uint64 // adj[i]: the columns row i has a positive score with
		for i, row := range scores {
			var b uint64
			for j, s := range row {
				if s > 0 {
					b |= 1 << j
				}
			}
			adj[i] = b
		}
		if forcedBits(adj[:n], rows) {
			return rows
		}
		return solveBits(rows, scores, adj[:n])
	}
	// A forced matrix (see forcedBits) makes groups of a cell each, which
	// best pairs: the same pairs.
	var groupBuf [16]group
	gs, order := groups(scores, make([]int, 5*(n+m)), groupBuf[:0])
	solveGroups(scores, rows, gs, order)
	return keepPositive(rows, scores)
}

// MaximizeRows is [MaximizeInto] for a matrix of at most 64 rows and 64
// columns of which the caller knows the positive cells: adj[i] holds the
// columns row i has a positive score with (bit j for column j). A caller
// that scored the matrix knows them, and they need no second pass over it.
// TestMaximizeRowsAgrees holds it to MaximizeInto.
func MaximizeRows(rows []int, scores [][]float64, adj []uint64) []int {
	n := len(scores)
	rows = rows[:n]
	for i := range rows {
		rows[i] = -1
	}
	if n == 0 || len(scores[0]) == 0 {
		return rows
	}
	if forcedBits(adj, rows) {
		return rows
	}
	return solveBits(rows, scores, adj)
}

// forcedBits handles the common matrix in which no row and no column has
// more than one positive score, as when each expected call is answered
// by at most one call, by the rows' sets of positive cells: every optimal
// assignment pairs exactly those cells (leaving one out lowers the
// total), so they are the answer. It reports false, with rows untouched,
// for any other matrix.
func forcedBits(adj []uint64, rows []int) bool {
	var used uint64
	for _, b := range adj {
		if b&(b-1) != 0 || b&used != 0 {
			return false
		}
		used |= b
	}
	for i, b := range adj {
		if b != 0 {
			rows[i] = bits.TrailingZeros64(b)
		}
	}
	return true
}

// solveBits pairs a matrix of at most 64 rows and columns, whose rows'
// positive cells adj holds, by its groups (see groupsBits).
func solveBits(rows []int, scores [][]float64, adj []uint64) []int {
	// The bookkeeping of a usual case (a few calls a side) on the stack,
	// and no more of it than it needs: it is cleared on every call.
	var groupBuf [16]group
	var orderBuf [16]int
	order := orderBuf[:0]
	if n := len(scores) + len(scores[0]); n > len(orderBuf) {
		order = make([]int, 0, n)
	}
	gs, order := groupsBits(adj, order, groupBuf[:0])
	solveGroups(scores, rows, gs, order)
	return keepPositive(rows, scores)
}

// keepPositive unpairs the rows paired with a cell that is not positive.
func keepPositive(rows []int, scores [][]float64) []int {
	for i, j := range rows {
		if j >= 0 && !(scores[i][j] > 0) {
			rows[i] = -1
		}
	}
	return rows
}

// solveGroups pairs the rows of each group gs lists (see groups) with its
// columns, writing rows.
func solveGroups(scores [][]float64, rows []int, gs []group, order []int) {
	n, m := len(scores), len(scores[0])
	for _, g := range gs {
		gr, gc := g.rows(order), g.cols(order)
		switch {
		case len(gr) == 1 || len(gc) == 1:
			best(scores, gr, gc, rows)
		default:
			// A group that spans the whole matrix is solved in place.
			sub, subRows := scores, rows
			if len(gr) < n || len(gc) < m {
				sub = make([][]float64, len(gr))
				cells := make([]float64, len(gr)*len(gc))
				for a, i := range gr {
					sub[a] = cells[a*len(gc) : (a+1)*len(gc)]
					for b, j := range gc {
						sub[a][b] = scores[i][j]
					}
				}
				subRows = make([]int, len(gr))
				for a := range subRows {
					subRows[a] = -1
				}
			}
			if max(len(gr), len(gc)) > MaxExact {
				greedy(sub, subRows)
			} else {
				hungarian(sub, subRows)
			}
			for a, b := range subRows {
				if b >= 0 {
					rows[gr[a]] = gc[b]
				}
			}
		}
	}
}

// A group is a set of rows and columns connected by positive scores: its
// rows, then its columns, in increasing order, are order[at:] of the
// order groups returns. It holds no slices so that the bookkeeping can
// stay on the caller's stack.
type group struct{ at, nrows, ncols int }

func (g group) rows(order []int) []int { return order[g.at : g.at+g.nrows] }
func (g group) cols(order []int) []int { return order[g.at+g.nrows : g.at+g.nrows+g.ncols] }

// groups splits the matrix into its connected groups, ordered by their
// first row, and returns them with the order their rows and columns are
// listed in. work (5·(rows+columns) long) holds the bookkeeping and the
// order, and the groups are appended to out[:0].
func groups(scores [][]float64, work []int, out []group) ([]group, []int) {
	n, m := len(scores), len(scores[0])
	k := n + m
	parent, index, order, rowAt, colAt := work[:k], work[k:2*k], work[2*k:3*k], work[3*k:4*k], work[4*k:5*k]
	// Union-find over rows 0..n-1 and columns n..n+m-1.
	for k := range parent {
		parent[k] = k
	}
	find := func(k int) int {
		for parent[k] != k {
			parent[k] = parent[parent[k]]
			k = parent[k]
		}
		return k
	}
	for i, row := range scores {
		for j, s := range row {
			if s > 0 {
				if a, b := find(i), find(n+j); a != b {
					parent[b] = a
				}
			}
		}
	}
	// Number the groups by their first row (rows come first, so a column
	// whose root no row numbered has no positive score) and count their
	// rows and columns; then lay them out one after another, in order.
	clear(index)
	out = out[:0]
	for k := range parent {
		root := find(k)
		if index[root] == 0 {
			if k >= n {
				continue
			}
			out = append(out, group{})
			index[root] = len(out)
		}
		if g := &out[index[root]-1]; k < n {
			g.nrows++
		} else {
			g.ncols++
		}
	}
	next := 0
	for g := range out {
		out[g].at = next
		rowAt[g], colAt[g] = next, next+out[g].nrows
		next += out[g].nrows + out[g].ncols
	}
	for k := range parent {
		if g := index[find(k)] - 1; g >= 0 {
			if k < n {
				order[rowAt[g]] = k
				rowAt[g]++
			} else {
				order[colAt[g]] = k - n
				colAt[g]++
			}
		}
	}
	// Rows with no positive score form groups without columns: drop them.
	kept := out[:0]
	for _, g := range out {
		if g.ncols > 0 {
			kept = append(kept, g)
		}
	}
	return kept, order
}

// groupsBits is groups for a matrix of at most 64 rows and 64 columns,
// with sets of bits for the union-find: each row's columns (adj[i] holds
// row i's columns of positive score), and a group grown from its first
// row by the rows that share a column with it until none does. The same
// groups in the same order, each with the same rows and columns (only
// where order lists them differs), appending the order to order[:0],
// whose capacity must be rows+columns, and the groups to out[:0].
func groupsBits(adj []uint64, order []int, out []group) ([]group, []int) {
	n := len(adj)
	out, order = out[:0], order[:0]
	var placed uint64 // the rows of the groups found, and rows with no column
	for i := range n {
		if placed&(1<<i) != 0 {
			continue
		}
		if adj[i] == 0 {
			continue // a row with no positive score: no group
		}
		// A row before i sharing a column would have placed row i.
		rows, cols := uint64(1)<<i, adj[i]
		for grown := true; grown; {
			grown = false
			for r := i + 1; r < n; r++ {
				if rows&(1<<r) == 0 && adj[r]&cols != 0 {
					rows, cols, grown = rows|1<<r, cols|adj[r], true
				}
			}
		}
		placed |= rows
		at := len(order)
		for b := rows; b != 0; b &= b - 1 {
			order = append(order, bits.TrailingZeros64(b))
		}
		for b := cols; b != 0; b &= b - 1 {
			order = append(order, bits.TrailingZeros64(b))
		}
		out = append(out, group{at: at, nrows: bits.OnesCount64(rows), ncols: bits.OnesCount64(cols)})
	}
	return out, order
}

// best pairs a group of one row (or one column) with its best partner: the
// highest score, the first on ties.
func best(scores [][]float64, gr, gc []int, rows []int) {
	bi, bj, bs := -1, -1, 0.0
	for _, i := range gr {
		for _, j := range gc {
			if s := scores[i][j]; s > bs {
				bi, bj, bs = i, j, s
			}
		}
	}
	if bi >= 0 {
		rows[bi] = bj
	}
}

// hungarian is the O(n³) shortest-augmenting-path method with potentials,
// on the square matrix padded with zero scores, minimizing (top - score).
func hungarian(scores [][]float64, rows []int) {
	n, m := len(scores), len(scores[0])
	size := max(n, m)
	top := 0.0
	for i := range scores {
		for _, s := range scores[i] {
			if s > top { // not max: a NaN score counts as zero, not as the top
				top = s
			}
		}
	}
	// One allocation for the float arrays and one for the int arrays: this
	// runs for every case, mostly on small matrices.
	floats := make([]float64, 3*(size+1)+size*size)
	u, v, minv := floats[:size+1], floats[size+1:2*(size+1)], floats[2*(size+1):3*(size+1)]
	// costs[(i-1)*size+(j-1)] is the cost of 1-based cell (i, j) of the
	// padded matrix.
	costs := floats[3*(size+1):]
	for i := 1; i <= size; i++ {
		for j := 1; j <= size; j++ {
			costs[(i-1)*size+j-1] = cost(scores, n, m, top, i, j)
		}
	}
	ints := make([]int, 2*(size+1))
	p := ints[:size+1]   // p[j]: row matched to column j
	way := ints[size+1:] // way[j]: the previous column on the path to j
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
			row := costs[(i0-1)*size : i0*size]
			for j := 1; j <= size; j++ {
				if used[j] {
					continue
				}
				cur := row[j-1] - u[i0] - v[j]
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

// cost is the cost of 1-based cell (i, j) of the padded matrix.
func cost(scores [][]float64, n, m int, top float64, i, j int) float64 {
	if i > n || j > m {
		return top
	}
	s := scores[i-1][j-1]
	if s < 0 || math.IsNaN(s) {
		s = 0
	}
	return top - s
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
