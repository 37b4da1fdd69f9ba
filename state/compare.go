package state

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// maxPairScores bounds the element pairs an unordered list scores to pair
// its unequal elements; beyond it they are left unpaired (missing and
// unexpected).
const maxPairScores = 100_000

// A walker compares an expected state with a final one, counting values
// and collecting differences. See [Metric] for the rules it follows.
type walker struct {
	entries []entry
	collect bool // record diffs (false while only counting)
	steps   []step
	scratch []bool

	units, matched int
	diffs          []toolgrade.ArgDiff
}

func (w *walker) push(st step) { w.steps = append(w.steps, st) }
func (w *walker) pop()         { w.steps = w.steps[:len(w.steps)-1] }

func (w *walker) diff(e, c any, note string) {
	if w.collect {
		w.diffs = append(w.diffs, toolgrade.ArgDiff{Path: formatSteps(w.steps), Expected: e, Got: c, Note: note})
	}
}

// rule returns the last entry with a rule that selects the current
// location, or nil.
func (w *walker) rule() *entry {
	for i := len(w.entries) - 1; i >= 0; i-- {
		e := &w.entries[i]
		if e.rule == nil {
			continue
		}
		var ok bool
		if ok, w.scratch = e.path.matches(w.steps, w.scratch); ok {
			return e
		}
	}
	return nil
}

// unordered reports whether the last entry that says how lists compare
// and selects the current location says unordered.
func (w *walker) unordered() bool {
	for i := len(w.entries) - 1; i >= 0; i-- {
		e := &w.entries[i]
		if e.unordered == nil {
			continue
		}
		var ok bool
		if ok, w.scratch = e.path.matches(w.steps, w.scratch); ok {
			return *e.unordered
		}
	}
	return false
}

// node compares the values at the current location: the expected e
// (present when eok) with the final c (present when cok). At least one is
// present.
func (w *walker) node(e any, eok bool, c any, cok bool) {
	if en := w.rule(); en != nil {
		switch r := en.rule; {
		case r.Ignore:
			return
		case r.Optional && (!cok || c == nil):
			return
		case match.HasCondition(*r):
			w.units++
			if !cok {
				w.diff(e, nil, "missing")
			} else if note := match.CheckRule(*en.rule, e, eok, c); note != "" {
				w.diff(e, c, note)
			} else {
				w.matched++
			}
			return
		case r.Optional && !eok:
			w.units++ // an optional value may appear with any value
			w.matched++
			return
		}
	}
	if !eok || !cok {
		w.absent(e, eok, c, cok)
		return
	}
	switch ev := e.(type) {
	case jsonvalue.Object:
		if cv, ok := c.(jsonvalue.Object); ok {
			w.object(ev, cv)
			return
		}
	case []any:
		if cv, ok := c.([]any); ok {
			w.list(ev, cv)
			return
		}
	}
	if isContainer(e) || isContainer(c) {
		// The kinds differ: every expected value under here is lost.
		w.units += w.count(e)
		w.diff(e, c, "")
		return
	}
	w.units++
	if jsonvalue.Equal(e, c) {
		w.matched++
	} else {
		w.diff(e, c, "")
	}
}

// absent reports a value present on one side only as one difference,
// "missing" or "unexpected", and counts the values under it, none
// matched.
func (w *walker) absent(e any, eok bool, c any, cok bool) {
	if eok {
		w.units += w.count(e)
		w.diff(e, nil, "missing")
	} else {
		w.units += w.count(c)
		w.diff(nil, c, "unexpected")
	}
}

// count counts the values under v, at the current location, for a value
// present on one side only: its scalars and empty objects and lists, the
// values rules judge whole (those with a condition) as one each, and not
// the values an ignore or optional rule selects; at least 1, the value
// itself, when nothing under it counts.
func (w *walker) count(v any) int {
	n := 0
	child := func(x any) {
		var r *toolgrade.Rule
		if en := w.rule(); en != nil {
			r = en.rule
		}
		switch {
		case r != nil && (r.Ignore || r.Optional):
		case r != nil && match.HasCondition(*r):
			n++
		default:
			n += w.count(x)
		}
	}
	switch x := v.(type) {
	case jsonvalue.Object:
		for _, m := range x {
			w.push(step{key: m.Key, index: -1})
			child(m.Value)
			w.pop()
		}
	case []any:
		for i, el := range x {
			w.push(step{index: i})
			child(el)
			w.pop()
		}
	}
	return max(n, 1)
}

// object compares two objects member by member: the expected members in
// their order, then the final members not expected, in theirs. When
// nothing under them counts (both empty, or all ignored), the two objects
// are one matched value.
func (w *walker) object(e, c jsonvalue.Object) {
	u0 := w.units
	defer w.atLeastOne(u0)
	inE, inC := lookup(e), lookup(c)
	for _, m := range e {
		cv, cok := inC(m.Key)
		w.push(step{key: m.Key, index: -1})
		w.node(m.Value, true, cv, cok)
		w.pop()
	}
	for _, m := range c {
		if _, ok := inE(m.Key); !ok {
			w.push(step{key: m.Key, index: -1})
			w.node(nil, false, m.Value, true)
			w.pop()
		}
	}
}

// atLeastOne counts a matched value when nothing was counted since the
// count was u0.
func (w *walker) atLeastOne(u0 int) {
	if w.units == u0 {
		w.units++
		w.matched++
	}
}

// lookup returns a function that finds an object's members by key: a scan
// for small objects, a map for large ones.
func lookup(o jsonvalue.Object) func(string) (any, bool) {
	if len(o) <= 16 {
		return o.Get
	}
	index := make(map[string]int, len(o))
	for i := len(o) - 1; i >= 0; i-- { // the first of a repeated key wins, as with Get
		index[o[i].Key] = i
	}
	return func(key string) (any, bool) {
		i, ok := index[key]
		if !ok {
			return nil, false
		}
		return o[i].Value, true
	}
}

// list compares two lists, by position or, when an entry says so, as
// multisets. When nothing under them counts (both empty, or all
// ignored), the two lists are one matched value.
func (w *walker) list(e, c []any) {
	u0 := w.units
	defer w.atLeastOne(u0)
	if w.unordered() {
		w.multiset(e, c)
		return
	}
	for i := range max(len(e), len(c)) {
		w.push(step{index: i})
		switch {
		case i < len(e) && i < len(c):
			w.node(e[i], true, c[i], true)
		case i < len(e):
			w.node(e[i], true, nil, false)
		default:
			w.node(nil, false, c[i], true)
		}
		w.pop()
	}
}

// score compares expected element i with final element j, at index i,
// without recording differences: the values counted and matched.
func (w *walker) score(e, c []any, i, j int) (units, matched int) {
	u0, m0, collect := w.units, w.matched, w.collect
	w.collect = false
	w.push(step{index: i})
	w.node(e[i], true, c[j], true)
	w.pop()
	units, matched = w.units-u0, w.matched-m0
	w.units, w.matched, w.collect = u0, m0, collect
	return units, matched
}

// multiset compares two lists whatever their order. Equal elements pair
// first: each expected element, in order, with the first unused final
// element equal to it (the one at the same index tried first). The rest
// pair so that the share of matching values is largest over all pairs
// ([match.Optimal]); elements with nothing in common stay unpaired. A
// pair is compared at the expected element's index, an unpaired expected
// element is missing at its index, an unpaired final element unexpected
// at its own.
func (w *walker) multiset(e, c []any) {
	pairOf := make([]int, len(e))
	used := make([]bool, len(c))
	equal := func(i, j int) bool {
		if used[j] {
			return false
		}
		u, m := w.score(e, c, i, j)
		if u != m {
			return false
		}
		pairOf[i], used[j] = j, true
		return true
	}
	var restE, restC []int
	for i := range e {
		pairOf[i] = -1
		if i < len(c) && equal(i, i) {
			continue
		}
		for j := range c {
			if j != i && equal(i, j) {
				break
			}
		}
		if pairOf[i] < 0 {
			restE = append(restE, i)
		}
	}
	for j := range c {
		if !used[j] {
			restC = append(restC, j)
		}
	}
	if len(restE) > 0 && len(restC) > 0 && len(restE)*len(restC) <= maxPairScores {
		scores := make([][]float64, len(restE))
		for a, i := range restE {
			scores[a] = make([]float64, len(restC))
			for b, j := range restC {
				if u, m := w.score(e, c, i, j); u > 0 {
					scores[a][b] = float64(m) / float64(u)
				}
			}
		}
		for _, p := range match.Optimal(scores) {
			i, j := restE[p.Expected], restC[p.Called]
			pairOf[i], used[j] = j, true
		}
	}
	for i := range e {
		w.push(step{index: i})
		if j := pairOf[i]; j >= 0 {
			w.node(e[i], true, c[j], true)
		} else {
			w.node(e[i], true, nil, false)
		}
		w.pop()
	}
	for j := range c {
		if !used[j] {
			w.push(step{index: j})
			w.node(nil, false, c[j], true)
			w.pop()
		}
	}
}

func isContainer(v any) bool {
	switch v.(type) {
	case jsonvalue.Object, []any:
		return true
	}
	return false
}
