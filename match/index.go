package match

import (
	"math/bits"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/namekey"
)

// A nameIndex tells, for a plain case of up to 8 expected and 64 called
// calls, which called calls share each expected call's tool name (as the
// options normalize it): each
// name is read once, not once for every pair of calls, and a row of the
// score matrix visits only the cells that can score. Most pairs differ
// in name; comparing the names of every pair was most of the scoring
// loop, and of closest's.
type nameIndex struct {
	cols [8]uint64 // cols[i]: the called calls named as expected call i
}

// indexable reports whether a case of n expected and k called calls
// fits a nameIndex.
func indexable(n, k int) bool { return n <= 8 && k <= 64 }

// index fills ix for exp and got, which fit it (see indexable), by the
// names as the options normalize them.
func (m *ToolCorrectness) index(ix *nameIndex, exp, got []toolgrade.Call) {
	if m.opts.NormalizeNames || !indexShort(ix, exp, got) {
		m.indexAny(ix, exp, got)
	}
}

// indexShort is index for calls whose names are all of 4 to 16 bytes, as
// usual: a name is its words and length (namekey.Words), and the loops
// call nothing (around a call, every value live in a loop is saved and
// restored). It reports false, having filled nothing, when a name is of
// another length. The words are read inline in each loop: one loop over
// both lists cost 120 instructions a case more.
func indexShort(ix *nameIndex, exp, got []toolgrade.Call) bool {
	var lo, hi [8]uint64 // the distinct names of the expected calls
	var ln [8]int
	var class [8]uint8 // expected call i's name
	var cols [8]uint64 // the called calls of each name
	nc := 0
	for i := range exp {
		name := exp[i].Name
		var l, h uint64
		switch n := len(name); {
		case n < 4 || n > 16:
			return false
		case n >= 8:
			l, h = namekey.Word(name), namekey.Word(name[n-8:])
		default:
			l = namekey.Word4(name) | namekey.Word4(name[n-4:])<<(8*(n-4))
		}
		c := 0
		for c < nc && (lo[c] != l || hi[c] != h || ln[c] != len(name)) {
			c++
		}
		if c == nc && c < len(lo) {
			lo[c], hi[c], ln[c] = l, h, len(name)
			nc++
		}
		class[i&7] = uint8(c)
	}
	for j := range got {
		name := got[j].Name
		var l, h uint64
		switch n := len(name); {
		case n < 4 || n > 16:
			return false
		case n >= 8:
			l, h = namekey.Word(name), namekey.Word(name[n-8:])
		default:
			l = namekey.Word4(name) | namekey.Word4(name[n-4:])<<(8*(n-4))
		}
		for c := 0; c < nc && c < len(lo); c++ {
			if lo[c] == l && hi[c] == h && ln[c] == len(name) {
				cols[c] |= 1 << j
				break
			}
		}
	}
	for i := range exp {
		ix.cols[i&7] = cols[class[i&7]&7]
	}
	return true
}

// indexAny is index for names of any length, normalized as the options
// say, comparing each pair of names.
func (m *ToolCorrectness) indexAny(ix *nameIndex, exp, got []toolgrade.Call) {
	for i := range exp {
		name := m.name(&exp[i])
		var cols uint64
		for j := range got {
			if m.name(&got[j]) == name {
				cols |= 1 << j
			}
		}
		ix.cols[i] = cols
	}
}

// pairIndexed is pair for a case of n, k > 0 calls that fit ix, which it
// fills. Only the cells of calls of the same name are scored (the rest
// are 0). When every expected call's cells are scored by exactScore
// alone (see exactRow), a row is its set of positive cells, and a matrix
// is made only when no pairing is forced (see forcedRows): most cases
// pair so.
func (m *ToolCorrectness) pairIndexed(dst []toolgrade.Match, ix *nameIndex, exp, got []toolgrade.Call) []toolgrade.Match {
	m.index(ix, exp, got)
	var pos [8]uint64 // the positive cells of each row
	for i := range exp {
		e := &exp[i]
		if !m.exactRow(e) {
			return m.pairScored(dst, ix, nil, exp, got)
		}
		var p uint64
		for b := ix.cols[i]; b != 0; b &= b - 1 {
			j := bits.TrailingZeros64(b)
			if c := &got[j]; !c.Invalid && exactScore(e.Args, c.Args) == 1 {
				p |= 1 << j
			}
		}
		pos[i&7] = p
	}
	if m.bestAny && forcedRows(pos[:len(exp)]) {
		for i, p := range pos[:len(exp)] {
			if p != 0 {
				dst = append(dst, toolgrade.Match{Expected: i, Called: bits.TrailingZeros64(p), Score: 1})
			}
		}
		return dst
	}
	return m.pairScored(dst, ix, &pos, exp, got)
}

// pairScored is pairIndexed by a score matrix: whole rows made from
// their positive cells (pos), else each cell of the same name scored by
// cellScore.
func (m *ToolCorrectness) pairScored(dst []toolgrade.Match, ix *nameIndex, pos *[8]uint64, exp, got []toolgrade.Call) []toolgrade.Match {
	n, k := len(exp), len(got)
	var cellBuf [64]float64
	var cells []float64
	if n*k <= len(cellBuf) {
		cells = cellBuf[:n*k]
	} else {
		cells = make([]float64, n*k)
	}
	var rowBuf [8][]float64
	for i := range n {
		rowBuf[i] = cells[i*k : (i+1)*k]
	}
	scores := rowBuf[:n]
	exact := pos != nil
	if exact {
		for i, row := range scores {
			for b := pos[i]; b != 0; b &= b - 1 {
				row[bits.TrailingZeros64(b)] = 1
			}
		}
	} else {
		pos = new([8]uint64)
		for i, row := range scores {
			e := &exp[i]
			if e.Invalid {
				continue
			}
			for b := ix.cols[i]; b != 0; b &= b - 1 {
				j := bits.TrailingZeros64(b)
				s := m.cellScore(e, &got[j], m.name(e))
				row[j] = s
				if s > 0 {
					pos[i] |= 1 << j
				}
			}
		}
	}
	if !m.bestAny {
		return m.pairBy(dst, scores, false)
	}
	// The assignment is told the positive cells, which it would
	// otherwise find again; rows of exactScore (pos given) are whole.
	nudged := scores
	if !exact {
		nudged = preferStrongPairs(scores)
	}
	return optimalOf(dst, scores, nudged, pos[:n])
}

// forcedRows reports whether no two of the rows' sets of positive cells
// overlap and none holds more than one: a forced matrix (see
// assign.MaximizeRows), of which every optimal pairing takes those cells.
func forcedRows(pos []uint64) bool {
	var used uint64
	for _, p := range pos {
		if p&(p-1) != 0 || p&used != 0 {
			return false
		}
		used |= p
	}
	return true
}

// exactRow reports whether expected call e is scored against a called
// call of its name by exactScore alone: arguments compared exactly
// without rules, no output compared, no type or failure asked
// (cellScore's shortcut, with typeMatches and statusFits true for every
// called call of a plain case).
func (m *ToolCorrectness) exactRow(e *toolgrade.Call) bool {
	return m.exactArgs && e.Type == "" && e.Status != toolgrade.StatusError && len(e.Rules) == 0 &&
		(e.Output == nil || !m.outputs)
}

// closestIn is closest among cands, the unpaired called calls of e's
// name.
func (m *ToolCorrectness) closestIn(e *toolgrade.Call, got []toolgrade.Call, cands uint64) (int, bool) {
	switch bits.OnesCount64(cands) {
	case 0:
		return -1, false
	case 1:
		return bits.TrailingZeros64(cands), true
	}
	best, bestScore := -1, -1.0
	for ; cands != 0; cands &= cands - 1 {
		j := bits.TrailingZeros64(cands)
		if s := closeness(e, &got[j]); s > bestScore {
			best, bestScore = j, s
		}
	}
	return best, true
}
