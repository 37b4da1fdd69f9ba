// Package match pairs expected tool calls with called ones and compares
// their arguments. It is the engine under every profile, and it holds
// toolgrade's own metric, [ToolCorrectness].
//
// Argument comparison follows the JSON value semantics of package
// toolgrade: 1 equals 1.0, true is not 1, "1" is not 1, object key order is
// irrelevant, arrays are ordered, and a key set to null differs from a
// missing key unless a rule says the argument is optional.
//
// Pairing is an optimal assignment by default (the most total credit), so
// that a score never depends on the order of the calls; greedy pairing is
// an option. Every score is explained: which calls paired, which were
// missing or extra, and which argument differed, by path.
//
// Non-goals: peer quirks (Python equality, greedy pairing by value),
// which live in the packages under compat; judging whether a call was
// sensible (package judge); and checking arguments against the tools'
// schemas (package schema).
package match

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Mode says how the arguments of a called tool are compared with those of
// the expected call.
type Mode string

const (
	// ArgsIgnore accepts any arguments.
	ArgsIgnore Mode = "ignore"
	// ArgsExact wants the same keys with equal values, recursively.
	ArgsExact Mode = "exact"
	// ArgsContains wants every expected key in the call with an equal value,
	// recursively; the call may have extra keys.
	ArgsContains Mode = "contains"
	// ArgsWithin wants every key of the call among the expected ones with an
	// equal value, recursively; the call may leave keys out.
	ArgsWithin Mode = "within"
	// ArgsPartial gives graded credit: over the union of keys, each equal value
	// earns an equal share, and nested objects recurse.
	ArgsPartial Mode = "partial"
	// ArgsFuzzy compares by similarity (strings by difflib ratio, numbers by
	// relative difference, objects and arrays recursively) and matches when
	// the similarity reaches a threshold.
	ArgsFuzzy Mode = "fuzzy"
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ArgsIgnore, ArgsExact, ArgsContains, ArgsWithin, ArgsPartial, ArgsFuzzy:
		return m, nil
	}
	return "", fmt.Errorf("unknown argument mode %q (want ignore, exact, contains, within, partial or fuzzy)", s)
}

// DefaultFuzzyThreshold is the similarity at which ArgsFuzzy arguments match.
const DefaultFuzzyThreshold = 0.8

// A Comparer compares the arguments of an expected call with those of a
// called one.
//
// An expected call that records no arguments (nil) accepts any arguments,
// unless it has rules; a called call without arguments is compared as if it
// had passed an empty object.
type Comparer struct {
	Mode Mode
	// FuzzyThreshold is the similarity ArgsFuzzy needs; nil means
	// DefaultFuzzyThreshold.
	FuzzyThreshold *float64
	// From finds the value a {"from": ...} rule names. It returns the
	// value, or why there is none; known is false while the source call
	// is not yet paired, and the rule then passes. Without From, such a
	// rule fails.
	From func(ref *toolgrade.Ref) (value any, why string, known bool)
}

// Score returns the credit of the called arguments in [0, 1]: 0 or 1 for
// every mode but ArgsPartial.
func (c Comparer) Score(expected, called any, rules map[string]toolgrade.Rule) float64 {
	s, _ := c.compare(nil, expected, called, rules, false)
	return s
}

// Diff lists what differs between the expected and called arguments, with
// argument paths in dotted form ("when.date", "attendees.0.name").
func (c Comparer) Diff(expected, called any, rules map[string]toolgrade.Rule) []toolgrade.ArgDiff {
	_, diffs := c.compare(nil, expected, called, rules, true)
	return diffs
}

// Similarity is the ArgsFuzzy similarity of two argument values, in [0, 1].
func Similarity(expected, called any) float64 {
	w := walker{mode: ArgsFuzzy}
	return w.value(expected, called, "")
}

// compare scores called against expected and, when collect is set, lists
// their differences, appending them to dst[:0] (nil when there are none).
func (c Comparer) compare(dst []toolgrade.ArgDiff, expected, called any, rules map[string]toolgrade.Rule, collect bool) (float64, []toolgrade.ArgDiff) {
	mode := c.Mode
	if mode == "" {
		mode = ArgsExact
	}
	if mode == ArgsIgnore {
		return 1, nil
	}
	if expected == nil {
		if len(rules) == 0 {
			return 1, nil
		}
		expected = jsonvalue.Object{}
	}
	if called == nil {
		if _, ok := expected.(jsonvalue.Object); ok {
			called = jsonvalue.Object{}
		}
	}
	if mode == ArgsExact && len(rules) == 0 && !collect {
		return exactScore(expected, called), nil
	}
	if mode == ArgsExact && len(rules) == 0 {
		// The walker would list the same differences: exactDiffs is it
		// without the rules, modes and closures, for the reasons of
		// cases whose calls differ.
		diffs := exactDiffs(dst[:0], expected, called, "")
		if len(diffs) == 0 {
			return 1, nil
		}
		return 0, diffs
	}
	w := walker{mode: mode, rules: rules, collect: collect, from: c.From, diffs: dst[:0]}
	s := w.value(expected, called, "")
	if len(w.diffs) == 0 {
		w.diffs = nil
	}
	if mode == ArgsFuzzy {
		threshold := DefaultFuzzyThreshold
		if c.FuzzyThreshold != nil {
			threshold = *c.FuzzyThreshold
		}
		if s >= threshold {
			return 1, nil // a match: its small differences are not failures
		}
		if collect && len(w.diffs) == 0 {
			w.diffs = append(w.diffs, toolgrade.ArgDiff{Expected: expected, Got: called,
				Note: similarityBelow(s, threshold)})
		}
		return 0, w.diffs
	}
	return s, w.diffs
}

// exactScore is Score in ArgsExact without rules: 1 exactly when the
// values are equal, as the walker would say. Equal gets there without
// paths or closures, and scoring every pair of a case is most of the
// work of grading. expected nil accepts any arguments, and called nil
// is an empty object, as in compare.
func exactScore(expected, called any) float64 {
	if expected == nil {
		return 1
	}
	if called == nil {
		if e, ok := expected.(jsonvalue.Object); ok {
			if len(e) == 0 {
				return 1
			}
			return 0
		}
	}
	if jsonvalue.Equal(expected, called) {
		return 1
	}
	return 0
}

// partialScore is Score in ArgsPartial without rules, as the walker
// gives it, without its paths and closures: closest weighs the calls
// that may explain a missing call by it. An object earns the mean credit
// of the union of its keys and the call's (a key on one side only earns
// 0), summed in the walker's order; any other value 1 when equal, else
// 0 (arrays earn no partial credit).
func partialScore(expected, called any) float64 {
	if expected == nil {
		return 1
	}
	if called == nil {
		if _, ok := expected.(jsonvalue.Object); ok {
			called = jsonvalue.Object{}
		}
	}
	return partialValue(expected, called)
}

func partialValue(e, c any) float64 {
	eo, ok := e.(jsonvalue.Object)
	if !ok {
		if jsonvalue.Equal(e, c) {
			return 1
		}
		return 0
	}
	co, ok := c.(jsonvalue.Object)
	if !ok {
		if jsonvalue.Equal(e, c) {
			return 1
		}
		return 0
	}
	total, count := 0.0, 0
	aligned := len(eo) == len(co)
	for i, m := range eo {
		cv, cok, inPlace := counterpart(co, i, m.Key)
		aligned = aligned && inPlace
		count++
		if cok {
			total += partialValue(m.Value, cv)
		}
	}
	for i := 0; !aligned && i < len(co); i++ {
		if !eo.Has(co[i].Key) {
			count++
		}
	}
	if count == 0 {
		return 1
	}
	return total / float64(count)
}

// walker compares two values in one mode. ArgsExact, ArgsContains and
// ArgsWithin give 0 or 1, ArgsPartial a share, ArgsFuzzy a similarity.
type walker struct {
	mode    Mode
	rules   map[string]toolgrade.Rule
	collect bool
	diffs   []toolgrade.ArgDiff
	from    func(ref *toolgrade.Ref) (any, string, bool)
}

func (w *walker) paths() bool { return w.collect || len(w.rules) > 0 }

func (w *walker) diff(path string, expected, got any, note string) {
	if w.collect {
		w.diffs = append(w.diffs, toolgrade.ArgDiff{Path: path, Expected: expected, Got: got, Note: note})
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (w *walker) value(e, c any, path string) float64 {
	switch ev := e.(type) {
	case jsonvalue.Object:
		if cv, ok := c.(jsonvalue.Object); ok {
			return w.object(ev, cv, path)
		}
	case []any:
		if cv, ok := c.([]any); ok {
			return w.array(ev, cv, path)
		}
	case string:
		if cv, ok := c.(string); ok && w.mode == ArgsFuzzy {
			s := Ratio(cv, ev)
			if s < 1 && w.collect { // the note is made only to be kept
				w.diff(path, e, c, similarityNote(s))
			}
			return s
		}
	case json.Number:
		if cv, ok := c.(json.Number); ok && w.mode == ArgsFuzzy {
			s := numberSimilarity(ev, cv)
			if s < 1 && w.collect { // the note is made only to be kept
				w.diff(path, e, c, similarityNote(s))
			}
			return s
		}
	}
	if jsonvalue.Equal(e, c) {
		return 1
	}
	w.diff(path, e, c, "")
	return 0
}

// exactDiffs appends to dst what the walker lists in ArgsExact without
// rules, in its order: the members of e in order, then those only c
// has; array items in order; "" for a value that differs, "missing" and
// "unexpected" for a member on one side only, the item counts for arrays
// of different lengths.
func exactDiffs(dst []toolgrade.ArgDiff, e, c any, path string) []toolgrade.ArgDiff {
	switch ev := e.(type) {
	case jsonvalue.Object:
		if cv, ok := c.(jsonvalue.Object); ok {
			return exactObjectDiffs(dst, ev, cv, path)
		}
	case []any:
		if cv, ok := c.([]any); ok {
			if len(ev) != len(cv) {
				return append(dst, toolgrade.ArgDiff{Path: path, Expected: e, Got: c, Note: itemCounts(len(cv), len(ev))})
			}
			for i := range ev {
				dst = exactMemberDiffs(dst, ev[i], cv[i], path, strconv.Itoa(i))
			}
			return dst
		}
	}
	if jsonvalue.Equal(e, c) {
		return dst
	}
	return append(dst, toolgrade.ArgDiff{Path: path, Expected: e, Got: c})
}

// exactMemberDiffs is exactDiffs of member (or item) key of the values at
// path, whose path is made only when a difference needs it: most members
// are leaves that are equal.
func exactMemberDiffs(dst []toolgrade.ArgDiff, e, c any, path, key string) []toolgrade.ArgDiff {
	if isLeaf(e) {
		// exactDiffs of a leaf, without its type switch.
		if jsonvalue.Equal(e, c) {
			return dst
		}
		return append(dst, toolgrade.ArgDiff{Path: join(path, key), Expected: e, Got: c})
	}
	// An object or array that is equal lists nothing: asked first, its
	// path is not made nor its members walked.
	if jsonvalue.Equal(e, c) {
		return dst
	}
	return exactDiffs(dst, e, c, join(path, key))
}

// counterpart returns the value of key in c, looking first at position
// i, where arguments in the same order have it, and whether it was there.
func counterpart(c jsonvalue.Object, i int, key string) (v any, ok, inPlace bool) {
	if i < len(c) && c[i].Key == key {
		return c[i].Value, true, true
	}
	v, ok = c.Get(key)
	return v, ok, false
}

func exactObjectDiffs(dst []toolgrade.ArgDiff, e, c jsonvalue.Object, path string) []toolgrade.ArgDiff {
	aligned := len(e) == len(c)
	for i, m := range e {
		cv, cok, inPlace := counterpart(c, i, m.Key)
		aligned = aligned && inPlace
		switch {
		case !cok:
			dst = append(dst, toolgrade.ArgDiff{Path: join(path, m.Key), Expected: m.Value, Note: "missing"})
		default:
			dst = exactMemberDiffs(dst, m.Value, cv, path, m.Key)
		}
	}
	for i := 0; !aligned && i < len(c); i++ {
		if m := c[i]; !e.Has(m.Key) {
			dst = append(dst, toolgrade.ArgDiff{Path: join(path, m.Key), Got: m.Value, Note: "unexpected"})
		}
	}
	return dst
}

// similarityNote is the note of values less than equal under ArgsFuzzy:
// "similarity 0.75" (as %.2f writes it).
func similarityNote(s float64) string {
	return string(strconv.AppendFloat([]byte("similarity "), s, 'f', 2, 64))
}

// similarityBelow is the note of a similarity below what is needed:
// "similarity 0.62 below 0.80".
func similarityBelow(s, needed float64) string {
	b := strconv.AppendFloat(append(make([]byte, 0, 32), "similarity "...), s, 'f', 2, 64)
	b = append(b, " below "...)
	return string(strconv.AppendFloat(b, needed, 'f', 2, 64))
}

// itemCounts is the note of arrays of different lengths.
func itemCounts(got, want int) string {
	return strconv.Itoa(got) + " items, want " + strconv.Itoa(want)
}

// numberSimilarity is 1 - |a-b| / max(|a|, |b|), at least 0.
func numberSimilarity(a, b json.Number) float64 {
	if jsonvalue.CompareNumbers(a, b) == 0 {
		return 1
	}
	fa, fb := jsonvalue.NumberFloat(a), jsonvalue.NumberFloat(b)
	d := max(math.Abs(fa), math.Abs(fb))
	if d == 0 || math.IsInf(d, 0) || math.IsNaN(d) {
		return 0
	}
	return max(0, 1-math.Abs(fa-fb)/d)
}

func (w *walker) array(e, c []any, path string) float64 {
	if w.mode == ArgsFuzzy {
		n := max(len(e), len(c))
		if n == 0 {
			return 1
		}
		sum := 0.0
		for i := range min(len(e), len(c)) {
			sum += w.value(e[i], c[i], w.child(path, i))
		}
		if len(e) != len(c) && w.collect {
			w.diff(path, e, c, itemCounts(len(c), len(e)))
		}
		return sum / float64(n)
	}
	if len(e) != len(c) {
		if w.collect {
			w.diff(path, e, c, itemCounts(len(c), len(e)))
		}
		return 0
	}
	// Arrays earn no partial credit: elements are compared exactly (or, in
	// ArgsContains and ArgsWithin, by containment), element by element.
	inner := w.mode
	if inner == ArgsPartial {
		inner = ArgsExact
	}
	saved := w.mode
	w.mode = inner
	defer func() { w.mode = saved }()
	ok := true
	for i := range e {
		if w.value(e[i], c[i], w.child(path, i)) < 1 {
			ok = false
			if !w.collect {
				return 0
			}
		}
	}
	if ok {
		return 1
	}
	return 0
}

func (w *walker) child(path string, i int) string {
	if !w.paths() {
		return ""
	}
	return join(path, strconv.Itoa(i))
}

func (w *walker) object(e, c jsonvalue.Object, path string) float64 {
	total, count := 0.0, 0
	failed := false
	visit := func(key string, ev any, eok bool, cv any, cok bool) bool {
		if eok && cok && len(w.rules) == 0 && isLeaf(ev) && jsonvalue.Equal(ev, cv) {
			// Equal plain values earn full credit in every mode, and need
			// no path: most members of most calls are these.
			count++
			total++
			return true
		}
		p := ""
		if w.paths() {
			p = join(path, key)
		}
		credit, counted := w.member(p, ev, eok, cv, cok)
		if !counted {
			return true
		}
		count++
		total += credit
		if credit < 1 {
			failed = true
			if !w.collect && w.mode != ArgsPartial && w.mode != ArgsFuzzy {
				return false // the answer is 0 already
			}
		}
		return true
	}
	// Arguments usually come in the same order on both sides: look at the
	// same position first. When every key is where it is in e and the
	// sizes agree, c has no key that e lacks (keys are unique).
	aligned := len(e) == len(c)
	for i, m := range e {
		cv, cok, inPlace := counterpart(c, i, m.Key)
		aligned = aligned && inPlace
		if !visit(m.Key, m.Value, true, cv, cok) {
			return 0
		}
	}
	for i := 0; !aligned && i < len(c); i++ {
		if m := c[i]; !e.Has(m.Key) {
			if !visit(m.Key, nil, false, m.Value, true) {
				return 0
			}
		}
	}
	// Rules may name arguments that neither side has (a required one);
	// they are visited in sorted order, so that the differences read the
	// same from run to run.
	if len(w.rules) > 0 {
		for _, rp := range slices.Sorted(maps.Keys(w.rules)) {
			key, ok := childKey(path, rp)
			if ok && !e.Has(key) && !c.Has(key) {
				if !visit(key, nil, false, nil, false) {
					return 0
				}
			}
		}
	}
	switch w.mode {
	case ArgsPartial, ArgsFuzzy:
		if count == 0 {
			return 1
		}
		return total / float64(count)
	}
	if failed {
		return 0
	}
	return 1
}

// isLeaf reports whether v is neither an object nor an array.
func isLeaf(v any) bool {
	switch v.(type) {
	case jsonvalue.Object, []any:
		return false
	}
	return true
}

// childKey reports whether rule path rp names a direct child of path, and
// its key.
func childKey(path, rp string) (string, bool) {
	if path != "" {
		if !strings.HasPrefix(rp, path+".") {
			return "", false
		}
		rp = rp[len(path)+1:]
	}
	if rp == "" || strings.Contains(rp, ".") {
		return "", false
	}
	return rp, true
}

// member compares one key of two objects and returns its credit and
// whether it counts at all.
func (w *walker) member(path string, e any, eok bool, c any, cok bool) (float64, bool) {
	if len(w.rules) > 0 { // no map lookup at all in the common case
		if credit, counted, ok := w.rule(path, e, eok, c, cok); ok {
			return credit, counted
		}
	}
	switch {
	case eok && cok:
		return w.value(e, c, path), true
	case eok: // missing from the call
		if w.mode == ArgsWithin {
			return 0, false
		}
		w.diff(path, e, nil, "missing")
		return 0, true
	case cok: // not expected
		if w.mode == ArgsContains {
			return 0, false
		}
		w.diff(path, nil, c, "unexpected")
		return 0, true
	}
	return 0, false
}

// rule applies the rule for path, if there is one and it decides; ok is
// false when the value is to be compared as usual.
func (w *walker) rule(path string, e any, eok bool, c any, cok bool) (credit float64, counted, ok bool) {
	r, found := w.rules[path]
	if !found {
		return 0, false, false
	}
	switch {
	case r.Ignore:
		return 0, false, true
	case r.Optional && (!cok || c == nil):
		return 0, false, true
	case r.From != nil:
		value, why, known := any(nil), "no earlier call output to take it from", false
		if w.from != nil {
			if value, why, known = w.from(r.From); !known {
				return 1, true, true // the source is not paired yet
			}
		}
		switch {
		case why != "":
			w.diff(path, nil, c, "from "+r.From.Text+": "+why)
		case !cok:
			w.diff(path, value, nil, "missing")
		case !jsonvalue.Equal(value, c):
			w.diff(path, value, c, "not the value of "+r.From.Text)
		case HasCondition(r) && CheckRule(r, e, eok, c) != "":
			w.diff(path, e, c, CheckRule(r, e, eok, c))
		default:
			return 1, true, true
		}
		return 0, true, true
	case HasCondition(r):
		if !cok {
			w.diff(path, e, nil, "missing")
			return 0, true, true
		}
		if note := CheckRule(r, e, eok, c); note != "" {
			w.diff(path, e, c, note)
			return 0, true, true
		}
		return 1, true, true
	case r.Optional && !eok:
		return 1, true, true // an optional argument may be given with any value
	}
	return 0, false, false
}

// HasCondition reports whether r says what a value must be (one_of,
// regex, approx or tol, fuzzy, type), rather than only whether it is
// compared.
func HasCondition(r toolgrade.Rule) bool {
	return r.OneOf != nil || r.Regex != nil || r.Approx != nil || r.HasTol || r.Fuzzy > 0 || r.Type != ""
}

// CheckRule returns "" when value c satisfies r's conditions, else what
// failed; e is the expected value, when eok (tol and fuzzy compare with
// it). The state comparison judges values by it as arguments are judged.
func CheckRule(r toolgrade.Rule, e any, eok bool, c any) string {
	if r.Type != "" && !isType(c, r.Type) {
		return "not of type " + r.Type
	}
	if r.OneOf != nil {
		found := false
		for _, o := range r.OneOf {
			if jsonvalue.Equal(o, c) {
				found = true
				break
			}
		}
		if !found {
			return "not one of " + jsonvalue.Format(r.OneOf)
		}
	}
	if r.Regex != nil {
		s, ok := c.(string)
		if !ok || !r.Regex.MatchString(s) {
			return "does not match /" + r.Regex.String() + "/"
		}
	}
	if r.Approx != nil || r.HasTol {
		n, ok := c.(json.Number)
		if !ok {
			return "not a number"
		}
		var center float64
		if r.Approx != nil {
			center = *r.Approx
		} else if en, ok := e.(json.Number); ok && eok {
			center = jsonvalue.NumberFloat(en)
		} else {
			return "no expected number to compare with"
		}
		if math.Abs(jsonvalue.NumberFloat(n)-center) > r.Tol {
			return fmt.Sprintf("not within %v of %v", r.Tol, center)
		}
	}
	if r.Fuzzy > 0 {
		var s float64
		es, eIsStr := e.(string)
		cs, cIsStr := c.(string)
		switch {
		case eIsStr && cIsStr:
			s = Ratio(cs, es)
		case eok:
			s = Similarity(e, c)
		}
		if s < r.Fuzzy {
			return similarityBelow(s, r.Fuzzy)
		}
	}
	return ""
}

func isType(v any, t string) bool {
	k := jsonvalue.Kind(v)
	switch t {
	case "number":
		return k == "number" || k == "integer"
	case "integer":
		if k == "integer" {
			return true
		}
		if n, ok := v.(json.Number); ok { // 1.0 is an integer, as in JSON Schema
			f := jsonvalue.NumberFloat(n)
			return f == math.Trunc(f) && !math.IsInf(f, 0)
		}
		return false
	}
	return k == t
}
