package match

import (
	"fmt"
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/assign"
)

// The pairing functions take a score matrix, scores[i][j] being the credit
// of expected call i paired with called call j, and return the pairs they
// choose, ordered by expected index. A pair of score zero is never chosen.

// Optimal pairs calls one to one so that the total score is maximal. Among
// pairings with the same total, the one with the strongest pairs (the
// largest sum of squared scores) wins: one full match rather than two
// half matches. Neither the total nor which calls are left unpaired then
// depends on the order of either list.
func Optimal(scores [][]float64) []toolgrade.Match {
	pairs := optimal(nil, scores)
	if len(pairs) == 0 {
		return nil
	}
	return pairs
}

// optimal is [Optimal] appending to dst.
func optimal(dst []toolgrade.Match, scores [][]float64) []toolgrade.Match {
	return optimalOf(dst, scores, preferStrongPairs(scores), nil)
}

// optimalWhole is optimal for scores known to be 0 or 1, which need no
// nudge (see preferStrongPairs).
func optimalWhole(dst []toolgrade.Match, scores [][]float64) []toolgrade.Match {
	return optimalOf(dst, scores, scores, nil)
}

// optimalOf appends the pairs of the assignment that maximizes nudged,
// scored by scores. adj, when not nil, holds each row's positive cells
// as bits (see assign.MaximizeRows).
func optimalOf(dst []toolgrade.Match, scores, nudged [][]float64, adj []uint64) []toolgrade.Match {
	var rowBuf [8]int
	rows := rowBuf[:0]
	if len(scores) > len(rowBuf) {
		rows = make([]int, 0, len(scores))
	}
	if adj != nil {
		rows = assign.MaximizeRows(rows, nudged, adj)
	} else {
		rows = assign.MaximizeInto(rows, nudged)
	}
	if dst == nil {
		n := 0
		for _, j := range rows {
			if j >= 0 {
				n++
			}
		}
		if n == 0 {
			return nil
		}
		dst = make([]toolgrade.Match, 0, n)
	}
	for i, j := range rows {
		if j >= 0 {
			dst = append(dst, toolgrade.Match{Expected: i, Called: j, Score: scores[i][j]})
		}
	}
	return dst
}

// tieNudge weighs the sum of squared scores against the total: small
// enough that no pairing with a smaller total can win (1000 pairs move a
// total by at most 1e-9), large enough for float64 to see.
const tieNudge = 1e-12

// preferStrongPairs returns scores nudged by tieNudge·s² so that maximizing
// the total also breaks its ties towards strong pairs. Scores of only 0 and
// 1 need no nudge: equal totals then mean the same number of pairs.
func preferStrongPairs(scores [][]float64) [][]float64 {
	fractional := false
	for _, row := range scores {
		for _, s := range row {
			if s > 0 && s < 1 {
				fractional = true
			}
		}
	}
	if !fractional {
		return scores
	}
	nudged := make([][]float64, len(scores))
	for i, row := range scores {
		nudged[i] = make([]float64, len(row))
		for j, s := range row {
			if s > 0 {
				nudged[i][j] = s + tieNudge*s*s
			}
		}
	}
	return nudged
}

// Greedy takes each expected call in order and pairs it with the first
// unused called call of positive score. It depends on list order and can
// miss the best pairing; it exists to reproduce tools that work this way.
func Greedy(scores [][]float64) []toolgrade.Match { return greedy(nil, scores) }

// greedy is [Greedy] appending to dst.
func greedy(dst []toolgrade.Match, scores [][]float64) []toolgrade.Match {
	var usedBuf [16]bool
	var used []bool
	for i, row := range scores {
		if used == nil {
			used = usedBuf[:0]
			if len(row) > len(usedBuf) {
				used = make([]bool, 0, len(row))
			}
			used = used[:len(row)]
		}
		for j, s := range row {
			if !used[j] && s > 0 {
				used[j] = true
				dst = append(dst, toolgrade.Match{Expected: i, Called: j, Score: s})
				break
			}
		}
	}
	return dst
}

// InOrder pairs calls keeping their order on both sides, maximizing the
// total score: a weighted longest common subsequence.
func InOrder(scores [][]float64) []toolgrade.Match {
	if len(scores) == 0 {
		return nil
	}
	if pairs := inOrder(nil, scores); pairs != nil {
		return pairs
	}
	return []toolgrade.Match{}
}

// inOrder is [InOrder] appending to dst.
func inOrder(dst []toolgrade.Match, scores [][]float64) []toolgrade.Match {
	n := len(scores)
	if n == 0 {
		return dst
	}
	m := len(scores[0])
	// best[i][j]: the best total over the first i expected and j called.
	// A usual case's table lives on the stack.
	var rowBuf [9][]float64
	var cellBuf [81]float64
	var best [][]float64
	if n+1 <= len(rowBuf) && (n+1)*(m+1) <= len(cellBuf) {
		for i := range n + 1 {
			rowBuf[i] = cellBuf[i*(m+1) : (i+1)*(m+1)]
		}
		best = rowBuf[:n+1]
	} else {
		best = make([][]float64, n+1)
		cells := make([]float64, (n+1)*(m+1))
		for i := range best {
			best[i] = cells[i*(m+1) : (i+1)*(m+1)]
		}
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			v := max(best[i-1][j], best[i][j-1])
			if s := scores[i-1][j-1]; s > 0 {
				v = max(v, best[i-1][j-1]+s)
			}
			best[i][j] = v
		}
	}
	// The pairs are found last to first: appended, then reversed.
	start := len(dst)
	for i, j := n, m; i > 0 && j > 0; {
		switch s := scores[i-1][j-1]; {
		case best[i][j] == best[i-1][j]:
			i--
		case best[i][j] == best[i][j-1]:
			j--
		case s > 0 && best[i][j] == best[i-1][j-1]+s:
			dst = append(dst, toolgrade.Match{Expected: i - 1, Called: j - 1, Score: s})
			i, j = i-1, j-1
		default: // unreachable: every cell comes from one of the three
			i--
		}
	}
	slices.Reverse(dst[start:])
	return dst
}

// Positional pairs expected call i with called call i, where that pair
// scores above zero.
func Positional(scores [][]float64) []toolgrade.Match { return positional(nil, scores) }

// positional is [Positional] appending to dst.
func positional(dst []toolgrade.Match, scores [][]float64) []toolgrade.Match {
	for i, row := range scores {
		if i < len(row) && row[i] > 0 {
			dst = append(dst, toolgrade.Match{Expected: i, Called: i, Score: row[i]})
		}
	}
	return dst
}

// positionalHeld pairs as [Positional] does, but the called calls held
// reports (failed calls the failed_calls option would leave out) take a
// place in the order only where they pair: a held call left out moves
// the calls after it up a place. Of the ways to leave held calls out,
// the one with the best total wins, then the one that keeps the fewest;
// then, going along the called calls, keeping a held call is preferred
// to leaving it out. So a held call left out changes nothing: without
// it, the same pairs are the best. Past [MaxPairCells] cells it keeps a
// held call wherever it pairs, which can miss the best pairing: greedy
// is set when it kept one.
func positionalHeld(n, k int, score func(i, j int) float64, held func(j int) bool) (pairs []toolgrade.Match, greedy bool) {
	if (n+1)*k > MaxPairCells {
		p := 0
		for j := range k {
			s := 0.0
			if p < n {
				s = score(p, j)
			}
			switch {
			case s > 0:
				pairs = append(pairs, toolgrade.Match{Expected: p, Called: j, Score: s})
				greedy = greedy || held(j)
			case held(j):
				continue
			}
			p++
		}
		return pairs, greedy
	}
	// best[p] is the best pairing of the called calls from j on, p places
	// being taken before them; places from n on pair with nothing, so
	// they are one state. keep[j][p] says whether held call j keeps its
	// place then.
	type value struct {
		total float64
		kept  int // held calls kept
	}
	better := func(a, b value) bool { return a.total > b.total || a.total == b.total && a.kept < b.kept }
	best, next := make([]value, n+1), make([]value, n+1)
	keep := make([][]bool, k)
	cells := make([]bool, k*(n+1))
	for j := k - 1; j >= 0; j-- {
		keep[j] = cells[j*(n+1) : (j+1)*(n+1)]
		best, next = next, best
		for p := range n + 1 {
			s := 0.0
			if p < n {
				s = score(p, j)
			}
			after := next[min(p+1, n)]
			switch {
			case !held(j):
				best[p] = value{after.total + max(s, 0), after.kept}
			case s > 0:
				kept := value{after.total + s, after.kept + 1}
				keep[j][p] = !better(next[p], kept)
				best[p] = next[p]
				if keep[j][p] {
					best[p] = kept
				}
			default:
				best[p] = next[p]
			}
		}
	}
	p := 0
	for j := range k {
		if held(j) && !keep[j][p] {
			continue
		}
		if p < n {
			if s := score(p, j); s > 0 {
				pairs = append(pairs, toolgrade.Match{Expected: p, Called: j, Score: s})
			}
		}
		p = min(p+1, n)
	}
	return pairs, false
}

// MaxPairCells bounds the score matrix pairing builds, expected calls
// times called calls: 2²⁰ cells, 8 MiB, about 1,000 calls a side. Past
// it, calls are paired by [pairStreaming], which needs no matrix.
const MaxPairCells = 1 << 20

// pairStreaming pairs n expected with k called calls as order and pairing
// say, scoring each pair as it is met instead of in a matrix: memory
// grows with the calls, not with their product. Exact order and greedy
// pairing come out as with a matrix; optimal and in-order pairing fall
// back to greedy (in order, each expected call takes the first unused
// called call after the last one taken), which can miss the best pairing:
// greedy reports when that was so.
func pairStreaming(n, k int, order Order, pairing Pairing, score func(i, j int) float64) (pairs []toolgrade.Match, greedy bool) {
	if order == OrderExact {
		for i := range min(n, k) {
			if s := score(i, i); s > 0 {
				pairs = append(pairs, toolgrade.Match{Expected: i, Called: i, Score: s})
			}
		}
		return pairs, false
	}
	used := make([]bool, k)
	from := 0 // in order, the first called call after the last one taken
	for i := range n {
		for j := from; j < k; j++ {
			if used[j] {
				continue
			}
			if s := score(i, j); s > 0 {
				used[j] = true
				pairs = append(pairs, toolgrade.Match{Expected: i, Called: j, Score: s})
				if order == OrderInOrder {
					from = j + 1
				}
				break
			}
		}
	}
	return pairs, order == OrderInOrder || pairing != PairingGreedy
}

// greedyNote says in a reason that pairing fell back to greedy.
func greedyNote(n, k int) string {
	return fmt.Sprintf("paired greedily: %d expected × %d called calls are more than the %d pairs scored at once for the best pairing", n, k, MaxPairCells)
}
