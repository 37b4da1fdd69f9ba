package match

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Options configure [ToolCorrectness]. The JSON names are the keys of a
// metric entry in a config file; zero values mean the defaults.
type Options struct {
	// Order says how the order of calls counts (default OrderAny).
	Order Order `json:"order,omitempty"`
	// Args is the argument mode (default [ArgsExact]); see [Mode].
	Args Mode `json:"args,omitempty"`
	// ArgsOverrides sets the argument mode per tool name.
	ArgsOverrides map[string]Mode `json:"args_overrides,omitempty"`
	// FuzzyThreshold is the similarity ArgsFuzzy arguments need; nil
	// means [DefaultFuzzyThreshold], and 0 accepts any similarity.
	FuzzyThreshold *float64 `json:"fuzzy_threshold,omitempty"`
	// Output says whether outputs are compared (default OutputIgnore).
	Output Output `json:"output,omitempty"`
	// Pairing says how calls are paired for OrderAny (default
	// PairingOptimal).
	Pairing Pairing `json:"pairing,omitempty"`
	// Scoring picks the score (default ScoringF1).
	Scoring Scoring `json:"scoring,omitempty"`
	// Threshold is the pass mark; nil means [DefaultThreshold].
	Threshold *float64 `json:"threshold,omitempty"`
	// Strict turns any score below 1 into 0.
	Strict bool `json:"strict,omitempty"`
	// NormalizeNames strips random "_xg7c"-style suffixes from tool names
	// before comparing them; see [toolgrade.NormalizeToolName].
	NormalizeNames bool `json:"normalize_names,omitempty"`
	// FailedCalls says how calls marked as failed count (default
	// FailedRetry).
	FailedCalls FailedCalls `json:"failed_calls,omitempty"`
	// TurnAggregate says how the turns of a case graded turn by turn make
	// its score (default TurnMean).
	TurnAggregate TurnAggregate `json:"turn_aggregate,omitempty"`
}

// A FailedCalls says how called calls that failed (see
// [toolgrade.Call.Failed]) count.
type FailedCalls string

const (
	// FailedRetry: a failed call cannot satisfy an expected call; when a
	// later call of the same tool did not fail, it was retried, and counts
	// for nothing, else it counts as an extra call.
	FailedRetry FailedCalls = "retry"
	// FailedCount: a failed call counts like any other, as the peers count
	// calls: for what was called, not for how it went.
	FailedCount FailedCalls = "count"
	// FailedIgnore: failed calls are left out, as if never made.
	FailedIgnore FailedCalls = "ignore"
	// FailedPenalize: a failed call cannot satisfy an expected call and
	// always counts as an extra call, retried or not.
	FailedPenalize FailedCalls = "penalize"
)

// A TurnAggregate says how turn scores make a case's score.
type TurnAggregate string

const (
	// TurnMean: the mean of the turns' scores, so that one wrong turn of
	// five costs a fifth.
	TurnMean TurnAggregate = "mean"
	// TurnMin: the lowest turn score.
	TurnMin TurnAggregate = "min"
	// TurnAll: 1 when every turn passes the threshold, else 0 (BFCL's
	// multi-turn rule).
	TurnAll TurnAggregate = "all"
)

// An Order says how the order of calls counts.
type Order string

const (
	// OrderAny pairs calls in any order.
	OrderAny Order = "any"
	// OrderInOrder needs the expected calls in their order; extra calls
	// in between are allowed.
	OrderInOrder Order = "in-order"
	// OrderExact needs the same calls in the same positions, nothing else.
	OrderExact Order = "exact"
)

// An Output says whether a call's output is compared.
type Output string

const (
	// OutputIgnore does not compare outputs.
	OutputIgnore Output = "ignore"
	// OutputExact needs a call's output to equal the expected call's,
	// when the expected call gives one.
	OutputExact Output = "exact"
)

// A Pairing says how expected calls are paired with called calls.
type Pairing string

const (
	// PairingOptimal finds the pairing of maximum total score: the result
	// never depends on list order.
	PairingOptimal Pairing = "optimal"
	// PairingGreedy lets each expected call take the first unused called
	// call that matches, for compatibility with tools that do so.
	PairingGreedy Pairing = "greedy"
)

// A Scoring picks which figure of the pairing is the score.
type Scoring string

const (
	ScoringF1        Scoring = "f1"
	ScoringRecall    Scoring = "recall"
	ScoringPrecision Scoring = "precision"
)

// DefaultThreshold is the pass mark when none is set: 1, so that a case
// passes only when every expected call was made, with the right arguments,
// and nothing else was called. F1 has no lower mark that does the same:
// one call missed out of n expected scores 2(n-1)/(2n-1) and one wrong
// call out of n scores (n-1)/n, both as near 1 as n is large (one wrong
// call of five scores 0.8). Set a lower threshold, or args: partial, to
// give partial credit.
const DefaultThreshold = 1.0

// ToolCorrectness is toolgrade's own tool-correctness metric.
//
// Each expected call is paired with at most one called call. A pair's
// score s is in [0, 1]: 0 unless the names (and call types) agree, the
// argument credit otherwise, and 0 when outputs are compared and differ.
// Invalid calls (arguments that were not JSON) pair with nothing. Then
//
//	precision = Σs / number called
//	recall    = Σs / number expected
//	F1        = 2·precision·recall / (precision + recall)
//
// Both lists empty score 1; exactly one empty scores 0. With order "exact",
// the score is 1 when every position matches fully and 0 otherwise.
type ToolCorrectness struct {
	opts      Options
	threshold float64
	// Facts of the options that grading asks of every case: every tool's
	// arguments compared exactly (args exact, no overrides); outputs
	// compared; calls paired in any order by the best total.
	exactArgs, outputs, bestAny bool
}

// New checks the options and returns the metric. An option set to a
// value it does not take is an *toolgrade.OptionError.
func New(opts Options) (*ToolCorrectness, error) {
	m := &ToolCorrectness{opts: opts, threshold: DefaultThreshold}
	o := &m.opts
	check := func(option, v string, allowed ...string) error {
		if !slices.Contains(allowed, v) {
			return &toolgrade.OptionError{Option: option, Value: v, Allowed: allowed}
		}
		return nil
	}
	if o.Order == "" {
		o.Order = OrderAny
	}
	if o.Args == "" {
		o.Args = ArgsExact
	}
	if o.Output == "" {
		o.Output = OutputIgnore
	}
	if o.Pairing == "" {
		o.Pairing = PairingOptimal
	}
	if o.Scoring == "" {
		o.Scoring = ScoringF1
	}
	fuzzy := DefaultFuzzyThreshold
	if o.FuzzyThreshold != nil {
		fuzzy = *o.FuzzyThreshold
	}
	o.FuzzyThreshold = &fuzzy // a copy: the caller's variable may change
	if o.FailedCalls == "" {
		o.FailedCalls = FailedRetry
	}
	if o.TurnAggregate == "" {
		o.TurnAggregate = TurnMean
	}
	for _, err := range []error{
		check("order", string(o.Order), string(OrderAny), string(OrderInOrder), string(OrderExact)),
		check("output", string(o.Output), string(OutputIgnore), string(OutputExact)),
		check("pairing", string(o.Pairing), string(PairingOptimal), string(PairingGreedy)),
		check("scoring", string(o.Scoring), string(ScoringF1), string(ScoringRecall), string(ScoringPrecision)),
		check("failed_calls", string(o.FailedCalls), string(FailedRetry), string(FailedCount), string(FailedIgnore), string(FailedPenalize)),
		check("turn_aggregate", string(o.TurnAggregate), string(TurnMean), string(TurnMin), string(TurnAll)),
	} {
		if err != nil {
			return nil, err
		}
	}
	if _, err := ParseMode(string(o.Args)); err != nil {
		return nil, &toolgrade.OptionError{Option: "args", Value: string(o.Args), Err: err}
	}
	for tool, mode := range o.ArgsOverrides {
		if _, err := ParseMode(string(mode)); err != nil {
			return nil, &toolgrade.OptionError{Option: "args_overrides." + tool, Value: string(mode), Err: err}
		}
	}
	m.exactArgs = o.Args == ArgsExact && len(o.ArgsOverrides) == 0
	m.outputs = o.Output == OutputExact
	m.bestAny = o.Order == OrderAny && o.Pairing == PairingOptimal
	if math.IsNaN(fuzzy) || fuzzy < 0 || fuzzy > 1 {
		return nil, &toolgrade.OptionError{Option: "fuzzy_threshold", Value: fmt.Sprint(fuzzy),
			Err: fmt.Errorf("want a similarity in [0, 1], got %v", fuzzy)}
	}
	if o.Pairing == PairingGreedy && o.Order != OrderAny {
		return nil, &toolgrade.OptionError{Option: "pairing", Value: string(o.Pairing),
			Err: errors.New("greedy applies only to order any")}
	}
	var err error
	if m.threshold, err = toolgrade.Threshold(o.Threshold, DefaultThreshold); err != nil {
		return nil, err
	}
	return m, nil
}

// Options returns the metric's options with every default filled in,
// the threshold included.
func (m *ToolCorrectness) Options() Options {
	o := m.opts
	o.Threshold = toolgrade.Float(m.threshold)
	return o
}

// Name returns "tool_correctness".
func (m *ToolCorrectness) Name() string { return "tool_correctness" }

// Profile returns "default".
func (m *ToolCorrectness) Profile() string { return "default" }

// CaseFields returns the fields the metric reads: the calls, and the
// turns of a case graded turn by turn.
func (m *ToolCorrectness) CaseFields() []string {
	return []string{"tools_called", "expected_tools", "turns"}
}

func (m *ToolCorrectness) comparer(tool string) Comparer {
	mode := m.opts.Args
	if len(m.opts.ArgsOverrides) > 0 { // most options override no tool: no lookup then
		if o, ok := m.opts.ArgsOverrides[tool]; ok {
			mode = o
		}
	}
	return Comparer{Mode: mode, FuzzyThreshold: m.opts.FuzzyThreshold}
}

func (m *ToolCorrectness) name(c *toolgrade.Call) string {
	if m.opts.NormalizeNames {
		return toolgrade.NormalizeToolName(c.Name)
	}
	return c.Name
}

// typeMatches reports whether a called call's type satisfies the expected
// call's. An expected call that names no type accepts any (as one without
// args accepts any arguments); one that names a type wants it, a called
// call without a type being a "function".
func typeMatches(expected, called string) bool {
	if expected == "" {
		return true
	}
	if called == "" {
		called = "function"
	}
	return expected == called
}

// callType names a call's type, a call without one being a function call.
func callType(t string) string {
	if t == "" {
		return "function"
	}
	return t
}

// PairScore is the credit of called call c as expected call e, taken
// alone: a from-rule, which needs the calls around them, fails. It is 0
// when c's status does not fit e's: an expected call whose status is
// error takes only a call that failed, and any other takes a failed call
// only under failed_calls: count.
func (m *ToolCorrectness) PairScore(e, c *toolgrade.Call) float64 {
	return m.pairScore(e, c, nil)
}

// A resolver finds the value of a from-rule (see [Comparer].From).
type resolver = func(ref *toolgrade.Ref) (value any, why string, known bool)

// pairScore is PairScore with from-rules resolved by from. Most pairs
// differ in name: nothing else is looked at for them.
func (m *ToolCorrectness) pairScore(e, c *toolgrade.Call, from resolver) float64 {
	name := m.name(e)
	if name != m.name(c) || e.Invalid || c.Invalid || !typeMatches(e.Type, c.Type) || !m.statusFits(e, c) {
		return 0
	}
	cmp := m.comparer(name)
	cmp.From = from
	return m.argScore(cmp, e, c)
}

// argScore is the pair score of calls e and c that may pair: the credit
// of their arguments, 0 when outputs are compared and differ.
func (m *ToolCorrectness) argScore(cmp Comparer, e, c *toolgrade.Call) float64 {
	s := cmp.Score(e.Args, c.Args, e.Rules)
	if s > 0 && m.opts.Output == OutputExact && e.Output != nil && !jsonvalue.Equal(e.Output, c.Output) {
		return 0
	}
	return s
}

func (m *ToolCorrectness) diffsWith(e, c *toolgrade.Call, from resolver) []toolgrade.ArgDiff {
	return m.diffsIn(nil, e, c, from)
}

// diffsIn is diffsWith appending to dst[:0] (nil when the calls do not
// differ).
func (m *ToolCorrectness) diffsIn(dst []toolgrade.ArgDiff, e, c *toolgrade.Call, from resolver) []toolgrade.ArgDiff {
	if c.Invalid {
		return []toolgrade.ArgDiff{{Path: "args", Expected: e.Args, Got: c.ArgsRaw, Note: "not valid JSON"}}
	}
	if e.Invalid {
		return []toolgrade.ArgDiff{{Path: "args", Expected: e.ArgsRaw, Got: c.Args, Note: "expected arguments are not valid JSON"}}
	}
	cmp := m.comparer(m.name(e))
	cmp.From = from
	_, d := cmp.compare(dst, e.Args, c.Args, e.Rules, true)
	if m.opts.Output == OutputExact && e.Output != nil && !jsonvalue.Equal(e.Output, c.Output) {
		d = append(d, toolgrade.ArgDiff{Path: "output", Expected: e.Output, Got: c.Output})
	}
	return d
}

// Grade scores one case. r, the function's own result, is written in
// place: a local returned was copied out whole (69 instructions a case).
func (m *ToolCorrectness) Grade(_ context.Context, c *toolgrade.Case) (r toolgrade.MetricResult) {
	if !m.plain(c) {
		// plain also turns away the expected calls expectedError refuses:
		// one pass over them for the usual case.
		if err := expectedError(c); err != nil {
			r.Name, r.Profile = m.Name(), m.Profile()
			r.Fail(err)
			return r
		}
		return m.gradeTrajectory(c)
	}
	// A usual case's names are read once (see nameIndex).
	if indexable(len(c.Expected), len(c.Called)) {
		var ix nameIndex
		m.gradePlain(&r, c, &ix)
	} else {
		m.gradePlain(&r, c, nil)
	}
	return r
}

// gradePlain is Grade of a plain case, into r; ix, when not nil, has
// room for the case's calls (see pairIndexed).
func (m *ToolCorrectness) gradePlain(r *toolgrade.MetricResult, c *toolgrade.Case, ix *nameIndex) {
	// What the result keeps comes in one allocation (see resultMem),
	// sized for the pairs found: a usual case's are found on the stack
	// and copied.
	var room [8]toolgrade.Match
	dst := room[:0]
	if len(c.Expected) > len(room) {
		dst = nil
	}
	pairs, greedy := m.pair(c, dst, ix)
	m.resultIn(r, c, pairs, nil, ix)
	if greedy {
		r.Reason = greedyNote(len(c.Expected), len(c.Called)) + "; " + r.Reason
	}
}

// pair pairs the calls of a plain case as the options say, appending the
// pairs to dst; greedy is set when the pairing fell back to greedy, the
// matrix being too large. ix, when not nil, has room for the case's
// calls, and pairing fills it (see pairIndexed).
func (m *ToolCorrectness) pair(c *toolgrade.Case, dst []toolgrade.Match, ix *nameIndex) (pairs []toolgrade.Match, greedy bool) {
	exp, got := c.Expected, c.Called
	n, k := len(exp), len(got)
	if n == 0 || k == 0 {
		return nil, false
	}
	if ix != nil {
		return m.pairIndexed(dst, ix, exp, got), false
	}
	score := func(i, j int) float64 { return m.PairScore(&exp[i], &got[j]) }
	if n*k > MaxPairCells {
		return pairStreaming(n, k, m.opts.Order, m.opts.Pairing, score)
	}
	scores := make([][]float64, n)
	cells := make([]float64, n*k)
	for i := range scores {
		scores[i] = cells[i*k : (i+1)*k]
		for j := range scores[i] {
			scores[i][j] = score(i, j)
		}
	}
	return m.pairBy(dst, scores, false), false
}

// cellScore is the pair score of expected call e and called call c of
// the same name (as the options normalize it), as PairScore gives it:
// arguments compared exactly without rules, and no output that could
// undo a match, are scored by exactScore without argScore's layers.
func (m *ToolCorrectness) cellScore(e, c *toolgrade.Call, name string) float64 {
	if c.Invalid || !typeMatches(e.Type, c.Type) || !m.statusFits(e, c) {
		return 0
	}
	cmp := m.comparer(name)
	if len(e.Rules) == 0 && (m.opts.Output != OutputExact || e.Output == nil) && (cmp.Mode == ArgsExact || cmp.Mode == "") {
		return exactScore(e.Args, c.Args)
	}
	return m.argScore(cmp, e, c)
}

// pairBy pairs the rows of scores with its columns as the order and
// pairing options say, appending the pairs to dst. whole says that every
// score is 0 or 1, when the caller knows it.
func (m *ToolCorrectness) pairBy(dst []toolgrade.Match, scores [][]float64, whole bool) []toolgrade.Match {
	switch {
	case m.opts.Order == OrderExact:
		return positional(dst, scores)
	case m.opts.Order == OrderInOrder:
		return inOrder(dst, scores)
	case m.opts.Pairing == PairingGreedy:
		return greedy(dst, scores)
	}
	if whole {
		return optimalWhole(dst, scores)
	}
	return optimal(dst, scores)
}

// result makes the result of a case from its pairs, on one path for
// every case: precision, recall and F1 over the called calls that count,
// the score the options pick (of each turn, then aggregated, for a case
// graded turn by turn), strict and the threshold, the unpaired calls,
// the failed and retried ones, what explains each missing call, and then
// the reason, which only words what was found. g is nil for a plain
// case (see plain), else the grading along its trajectory.
func (m *ToolCorrectness) result(c *toolgrade.Case, found []toolgrade.Match, g *grading) toolgrade.MetricResult {
	var r toolgrade.MetricResult
	m.resultIn(&r, c, found, g, nil)
	return r
}

// resultIn is result writing into r, which is zero, with the memory
// newResultMem gives for what the result keeps: the pairs, copied from
// found, then the near misses; the missing and unexpected calls; the
// threshold, precision, recall and F1; room for a detail and for the
// differences of pairs and near misses. ix, when not nil, is what
// pairing found of the calls' names.
func (m *ToolCorrectness) resultIn(r *toolgrade.MetricResult, c *toolgrade.Case, found []toolgrade.Match, g *grading, ix *nameIndex) {
	exp, got := c.Expected, c.Called
	n, k := len(exp), len(got)
	mem := newResultMem(m.needs(n, k, found, g))
	nums := mem.nums
	nums[0] = m.threshold
	r.Name, r.Profile, r.Threshold = m.Name(), m.Profile(), &nums[0]
	// The pairs are copied field by field into the fresh (zero) room,
	// their differences found as they go: a copy of the whole was a
	// call and write barriers for differences pairing leaves nil.
	pairs := mem.matches[:len(found):len(found)]
	sum := 0.0
	for i := range found {
		f, p := &found[i], &pairs[i]
		p.Expected, p.Called, p.Score = f.Expected, f.Called, f.Score
		sum += f.Score
		if f.Score < 1 {
			p.Diffs = m.pairDiffs(c, g, f.Expected, f.Called, &mem.diffs)
		} else if f.Diffs != nil {
			p.Diffs = f.Diffs
		}
	}
	kept := k - g.leftOut()
	nums[1], nums[2], nums[3] = figures(sum, n, kept)
	r.Precision, r.Recall, r.F1 = &nums[1], &nums[2], &nums[3]
	full := m.opts.Order == OrderExact && len(pairs) == n && allFull(pairs) // only order exact asks
	r.Score = m.pick(nums[1], nums[2], nums[3], n, kept, full)
	var turns Turns
	if g != nil && g.byTurn {
		turns, r.Score = g.turnScores(pairs)
	}

	raw := r.Score
	if m.opts.Strict && r.Score < 1 {
		r.Score = 0
	}
	r.Success = r.Score >= m.threshold
	r.Matches = pairs // never nil: written as [] when empty
	r.Missing, r.Unexpected = unpaired(mem.ints, pairs, n, k)
	if g != nil {
		r.Unexpected = slices.DeleteFunc(r.Unexpected, func(j int) bool { return g.out[j] })
	}
	var failed Failed
	var retried Retried
	if g != nil || m.opts.FailedCalls == FailedCount { // else plain saw no failure
		failed, retried = m.failures(c, pairs, g)
	}
	var misses []miss
	if len(r.Missing) > 0 { // its room cleared only then
		var room [4]miss
		misses = m.misses(room[:0], c, r, g, turns, &mem.diffs, ix)
	}
	r.Reason = m.reason(c, r, raw, kept, misses, retried, turns)

	// The near misses follow the pairs: there are no more of them than
	// missing calls.
	near := NearMisses(mem.matches[len(pairs):len(pairs):cap(mem.matches)])
	for _, ms := range misses {
		if ms.why == missDiffers {
			near = append(near, toolgrade.Match{Expected: ms.expected, Called: ms.called, Diffs: ms.diffs})
		}
	}
	if len(failed) > 0 {
		r.Details = orRoom(r.Details, mem.details)
		r.SetDetail(failed)
	}
	if len(retried) > 0 {
		r.Details = orRoom(r.Details, mem.details)
		r.SetDetail(retried)
	}
	if turns != nil {
		r.Details = orRoom(r.Details, mem.details)
		r.SetDetail(turns)
	}
	if g != nil {
		if flows := g.flows(slices.Concat(pairs, near)); len(flows) > 0 {
			r.Details = orRoom(r.Details, mem.details)
			r.SetDetail(flows)
		}
	}
	if len(near) > 0 {
		r.Details = orRoom(r.Details, mem.details)
		r.SetDetail(near)
	}
}

// orRoom returns details, or room for some when there are none yet, so
// that a result without details keeps nil.
func orRoom(details, room []toolgrade.Detail) []toolgrade.Detail {
	if details == nil {
		return room
	}
	return details
}

// unpaired is [toolgrade.Unpaired] with both lists carved from ints,
// whose capacity is at least n+k-2·len(pairs) (pairs are one to one).
func unpaired(ints []int, pairs []toolgrade.Match, n, k int) (missing, unexpected []int) {
	if n > 64 || k > 64 {
		return toolgrade.Unpaired(pairs, n, k)
	}
	if len(pairs) == n && n == k { // every call paired
		return ints[:0:0], ints[:0:0]
	}
	var usedE, usedC uint64
	for _, p := range pairs {
		usedE |= 1 << p.Expected
		usedC |= 1 << p.Called
	}
	// The unpaired calls are the bits left clear, read a set bit at a
	// time (a shift by 64 is 0 in Go: n or k of 64 takes every bit).
	at := n - len(pairs)
	missing = ints[:0:at]
	for b := ^usedE & (1<<n - 1); b != 0; b &= b - 1 {
		missing = append(missing, bits.TrailingZeros64(b))
	}
	unexpected = ints[at:at:min(at+k-len(pairs), cap(ints))]
	for b := ^usedC & (1<<k - 1); b != 0; b &= b - 1 {
		unexpected = append(unexpected, bits.TrailingZeros64(b))
	}
	return missing, unexpected
}

// resultMem is the memory a result of [ToolCorrectness] keeps. A usual
// case's comes in one allocation (see newResultMem) instead of one for
// each of its slices: allocation was a fifth of grading.
type resultMem struct {
	nums    *[4]float64         // the threshold, precision, recall, F1
	details []toolgrade.Detail  // room for details, empty; nil when none is expected
	diffs   []toolgrade.ArgDiff // room for the differences of pairs and near misses, empty
	ints    []int               // room for the missing and unexpected calls, empty, never nil
	matches []toolgrade.Match   // room for the pairs, then the near misses, empty, never nil
}

// resultNeeds is what a result of [ToolCorrectness] keeps, as far as it
// is known before the result is made: see needs.
type resultNeeds struct {
	matches int  // pairs and near misses
	ints    int  // missing and unexpected calls
	diffs   int  // differences of the pairs and near misses, one each
	details bool // whether the result may have details
}

// needs is what the result of a case with n expected and k called calls
// keeps, given the pairs found: the pairs and at most one near miss for
// each missing call that an unpaired called call may explain (each
// explains one), the missing and unexpected calls, a difference for each
// pair that fell short and each near miss, and details when there may be
// near misses or the case is graded along its trajectory (g), whose
// failed calls, turns and flows are details. Past these, a result
// allocates apart what it adds.
func (m *ToolCorrectness) needs(n, k int, found []toolgrade.Match, g *grading) resultNeeds {
	p := len(found)
	near := max(min(n-p, k-p), 0)
	short := 0
	for i := range found {
		if found[i].Score < 1 {
			short++
		}
	}
	return resultNeeds{
		matches: p + near,
		ints:    max(n+k-2*p, 0),
		diffs:   short + near,
		details: near > 0 || g != nil || m.opts.FailedCalls == FailedCount,
	}
}

// The blocks resultMem carves its slices from, by size: those without
// room for differences and details hold what a case whose calls all
// paired fully, or that has no near miss, keeps. Each is the smallest of
// its size class that holds the usual results it is chosen for.
type (
	resultMemInts struct { // no pointers: never scanned
		nums [4]float64
		ints [4]int
	}
	resultMem1 struct {
		nums    [4]float64
		ints    [2]int
		matches [1]toolgrade.Match
	}
	resultMem2 struct {
		nums    [4]float64
		ints    [2]int
		matches [2]toolgrade.Match
	}
	resultMem3 struct {
		nums    [4]float64
		ints    [2]int
		matches [3]toolgrade.Match
	}
	resultMemNear2 struct {
		nums    [4]float64
		details [1]toolgrade.Detail
		diffs   [1]toolgrade.ArgDiff
		ints    [4]int
		matches [2]toolgrade.Match
	}
	resultMemNear3 struct {
		nums    [4]float64
		details [1]toolgrade.Detail
		diffs   [1]toolgrade.ArgDiff
		ints    [4]int
		matches [3]toolgrade.Match
	}
	resultMem3Wide struct {
		nums    [4]float64
		details [1]toolgrade.Detail
		diffs   [2]toolgrade.ArgDiff
		ints    [6]int
		matches [3]toolgrade.Match
	}
	resultMem5 struct {
		nums    [4]float64
		details [1]toolgrade.Detail
		diffs   [2]toolgrade.ArgDiff
		ints    [10]int
		matches [5]toolgrade.Match
	}
	resultMem8 struct {
		nums    [4]float64
		details [1]toolgrade.Detail
		diffs   [2]toolgrade.ArgDiff
		ints    [16]int
		matches [8]toolgrade.Match
	}
)

// noMatches is the room of a result that keeps no pair: an empty list,
// not a nil one, which is written so.
var noMatches [0]toolgrade.Match

// newResultMem returns the memory of a result that keeps what need says,
// in one allocation when it is the usual. Each slice's capacity is its
// own: appending past it never writes over another. The room for
// differences and details is a hint (what does not fit is allocated
// apart); matches and ints are not: a block has at least the room
// asked.
func newResultMem(need resultNeeds) resultMem {
	nm, ni := need.matches, need.ints
	if need.diffs == 0 && !need.details {
		switch {
		case nm == 0 && ni <= 4:
			b := new(resultMemInts)
			return resultMem{nums: &b.nums, ints: b.ints[:0], matches: noMatches[:]}
		case nm <= 1 && ni <= 2:
			b := new(resultMem1)
			return resultMem{nums: &b.nums, ints: b.ints[:0], matches: b.matches[:0]}
		case nm <= 2 && ni <= 2:
			b := new(resultMem2)
			return resultMem{nums: &b.nums, ints: b.ints[:0], matches: b.matches[:0]}
		case nm <= 3 && ni <= 2:
			b := new(resultMem3)
			return resultMem{nums: &b.nums, ints: b.ints[:0], matches: b.matches[:0]}
		}
	}
	switch {
	case nm <= 2 && ni <= 4 && need.diffs <= 1:
		b := new(resultMemNear2)
		return resultMem{&b.nums, b.details[:0], b.diffs[:0], b.ints[:0], b.matches[:0]}
	case nm <= 3 && ni <= 4 && need.diffs <= 1:
		b := new(resultMemNear3)
		return resultMem{&b.nums, b.details[:0], b.diffs[:0], b.ints[:0], b.matches[:0]}
	case nm <= 3 && ni <= 6:
		b := new(resultMem3Wide)
		return resultMem{&b.nums, b.details[:0], b.diffs[:0], b.ints[:0], b.matches[:0]}
	case nm <= 5 && ni <= 10:
		b := new(resultMem5)
		return resultMem{&b.nums, b.details[:0], b.diffs[:0], b.ints[:0], b.matches[:0]}
	case nm <= 8 && ni <= 16:
		b := new(resultMem8)
		return resultMem{&b.nums, b.details[:0], b.diffs[:0], b.ints[:0], b.matches[:0]}
	}
	return resultMem{nums: new([4]float64), ints: make([]int, 0, ni), matches: make([]toolgrade.Match, 0, nm)}
}

func allFull(pairs []toolgrade.Match) bool {
	for _, p := range pairs {
		if p.Score < 1 {
			return false
		}
	}
	return true
}

// pairDiffs says how called call j differs from expected call i; g, when
// the case is graded along its trajectory, resolves data-flow rules. The
// differences of a plain case are listed in *room, the result's memory
// for them, when they fit; what they take of it is taken off its front.
func (m *ToolCorrectness) pairDiffs(c *toolgrade.Case, g *grading, i, j int, room *[]toolgrade.ArgDiff) []toolgrade.ArgDiff {
	if g != nil {
		return g.diffs(i, j)
	}
	d := m.diffsIn(*room, &c.Expected[i], &c.Called[j], nil)
	if n := len(d); n > 0 && n <= cap(*room) && &d[0] == &(*room)[:1][0] {
		*room = (*room)[n:n]
		return d[:n:n] // the next list's room is not this one's to grow into
	}
	return d
}

// credit is the pair score of expected call i and called call j, in the
// case's context when g is not nil.
func (m *ToolCorrectness) credit(c *toolgrade.Case, g *grading, i, j int) float64 {
	if g != nil {
		return g.score(i, j)
	}
	return m.PairScore(&c.Expected[i], &c.Called[j])
}

// failures lists the called calls that failed, and those of them that a
// later call of the same tool retried, but for those paired with an
// expected call that expects a failure: they were expected.
func (m *ToolCorrectness) failures(c *toolgrade.Case, pairs []toolgrade.Match, g *grading) (Failed, Retried) {
	got := c.Called
	var failed Failed
	for j := range got {
		if got[j].Failed() {
			failed = append(failed, j)
		}
	}
	if failed == nil {
		return nil, nil
	}
	again := m.retries(got)
	if g != nil {
		again = g.retried
	}
	var retried Retried
	for _, j := range failed {
		if again[j] && !expectedFailure(c, pairs, j) {
			retried = append(retried, j)
		}
	}
	return failed, retried
}

// expectedFailure reports whether called call j is paired with an
// expected call that expects a failure.
func expectedFailure(c *toolgrade.Case, pairs []toolgrade.Match, j int) bool {
	for _, p := range pairs {
		if p.Called == j {
			return c.Expected[p.Expected].Failed()
		}
	}
	return false
}

// A miss is an expected call left unpaired and what explains it: the
// closest unpaired called call of its name, if there is one, and why the
// two did not pair.
type miss struct {
	expected int
	called   int // -1 when no unpaired call has its name
	why      missKind
	diffs    []toolgrade.ArgDiff // how the calls differ, for missDiffers
}

type missKind uint8

const (
	missAlone      missKind = iota // no unpaired call has its name
	missFailed                     // the call failed
	missSucceeded                  // the call did not fail, and a failure was expected
	missOtherTurn                  // the call is in another turn
	missOutOfOrder                 // the call matches, but out of order
	missOtherType                  // the call is of another type, which never pairs
	missDiffers                    // the call differs: a near miss
)

// misses explains each missing call of r, appending to dst: the closest
// unpaired called call of the same name (each explains one miss at most)
// and why it did not pair. turns are r's turn scores, if any; ix, when
// not nil, knows the calls of each expected call's name.
func (m *ToolCorrectness) misses(dst []miss, c *toolgrade.Case, r *toolgrade.MetricResult, g *grading, turns Turns, diffRoom *[]toolgrade.ArgDiff, ix *nameIndex) []miss {
	if len(r.Missing) == 0 {
		return dst
	}
	exp, got := c.Expected, c.Called
	var unpaired []bool // without ix
	var free uint64     // with ix
	if ix != nil {
		for _, j := range r.Unexpected {
			free |= 1 << j
		}
	} else {
		unpaired = make([]bool, len(got))
		for _, j := range r.Unexpected {
			unpaired[j] = true
		}
	}
	for _, i := range r.Missing {
		e := &exp[i]
		ms := miss{expected: i, called: -1}
		var j int
		var ok bool
		if ix != nil {
			if j, ok = m.closestIn(e, got, ix.cols[i]&free); ok {
				free &^= 1 << j
			}
		} else if j, ok = m.closest(e, got, unpaired); ok {
			unpaired[j] = false
		}
		if ok {
			ms.called = j
			switch {
			case e.Failed() && !got[j].Failed():
				ms.why = missSucceeded
			case m.cannotSatisfy(&got[j]) && !e.Failed():
				ms.why = missFailed
			case len(turns) > 0 && max(e.Turn, 1) != max(got[j].Turn, 1):
				ms.why = missOtherTurn
			case m.opts.Order != OrderAny && m.credit(c, g, i, j) > 0:
				ms.why = missOutOfOrder
			case !typeMatches(e.Type, got[j].Type):
				// Not its arguments: a call of another type never pairs.
				ms.why = missOtherType
			default:
				ms.why, ms.diffs = missDiffers, m.pairDiffs(c, g, i, j, diffRoom)
			}
		}
		dst = append(dst, ms)
	}
	return dst
}

// explains reports whether called call j explains one of misses.
func explains(misses []miss, j int) bool {
	for i := range misses {
		if misses[i].called == j {
			return true
		}
	}
	return false
}

// reason words the result: each pair that fell short and the arguments
// that differ, each missing call with what explains it (misses), each
// extra call, the failed calls retried, the turns' scores (turns), and
// what strict and the options left out. kept counts the called calls
// that count; raw is the score before strict. The parts are joined with
// "; ".
func (m *ToolCorrectness) reason(c *toolgrade.Case, r *toolgrade.MetricResult, raw float64, kept int, misses []miss, retried Retried, turns Turns) string {
	exp, got := c.Expected, c.Called
	if len(exp) == 0 && len(got) == 0 {
		return "no calls expected and none made"
	}
	allMatch := len(r.Missing) == 0 && len(r.Unexpected) == 0 && allFull(r.Matches)
	shortOrder := m.opts.Order == OrderExact && len(exp) != kept
	strictZero := m.opts.Strict && raw < 1
	argsIgnored := m.opts.Args == ArgsIgnore && len(m.opts.ArgsOverrides) == 0 && slices.ContainsFunc(exp, func(e toolgrade.Call) bool { return e.Args != nil })
	outputIgnored := m.opts.Output == OutputIgnore && slices.ContainsFunc(exp, func(e toolgrade.Call) bool { return e.Output != nil })
	if n := len(exp); allMatch && n < len(allMatched) && !shortOrder && len(retried) == 0 && len(turns) == 0 && !strictZero && !argsIgnored && !outputIgnored {
		// Every call paired fully, and nothing more to say: the usual
		// reason, not written again (nor the buffer below cleared).
		return allMatched[n]
	}
	// Every part is non-empty, so an empty buffer means no part yet. The
	// buffer lives on the stack, cleared on every call: 512 bytes hold
	// 98.6% of the reasons of small cases (up to 3 calls); a longer one
	// grows onto the heap.
	var stack [512]byte
	b := stack[:0]
	part := func() {
		if len(b) > 0 {
			b = append(b, "; "...)
		}
	}
	if allMatch {
		b = append(b, "all "...)
		b = jsonvalue.AppendInt(b, len(exp))
		b = append(b, " expected calls matched"...)
	}
	if shortOrder {
		part()
		b = append(b, "exact order needs "...)
		b = jsonvalue.AppendInt(b, len(exp))
		b = append(b, " calls, got "...)
		b = jsonvalue.AppendInt(b, kept)
	}
	for _, p := range r.Matches {
		if p.Score < 1 {
			part()
			b = append(b, exp[p.Expected].Name...)
			b = append(b, " (expected #"...)
			b = jsonvalue.AppendInt(b, p.Expected)
			b = append(b, ", called #"...)
			b = jsonvalue.AppendInt(b, p.Called)
			b = append(b, ") scored "...)
			b = appendScore(b, p.Score)
			b = append(b, ": "...)
			b = appendDiffs(b, p.Diffs)
		}
	}
	for _, ms := range misses {
		e := &exp[ms.expected]
		part()
		b = append(b, "missing "...)
		b = appendExpected(b, e)
		b = append(b, " (expected #"...)
		b = jsonvalue.AppendInt(b, ms.expected)
		if e.Failed() {
			b = append(b, " to fail"...)
		}
		b = append(b, ')')
		if ms.called < 0 {
			continue
		}
		b = append(b, ": called #"...)
		b = jsonvalue.AppendInt(b, ms.called)
		switch ms.why {
		case missFailed:
			b = append(b, " failed"...)
		case missSucceeded:
			b = append(b, " did not fail"...)
		case missOtherTurn:
			b = fmt.Appendf(b, " is in turn %d, not %d", max(got[ms.called].Turn, 1), max(e.Turn, 1))
		case missOutOfOrder:
			b = append(b, " matches but out of order"...)
		case missOtherType:
			b = fmt.Appendf(b, " is of type %s, not %s", callType(got[ms.called].Type), e.Type)
		case missDiffers:
			b = append(b, " differs: "...)
			b = appendDiffs(b, ms.diffs)
		}
	}
	for _, j := range r.Unexpected {
		if explains(misses, j) {
			continue // explained above
		}
		part()
		b = append(b, "unexpected "...)
		b = got[j].AppendString(b)
		b = append(b, " (called #"...)
		b = jsonvalue.AppendInt(b, j)
		if got[j].Failed() {
			b = append(b, ", failed"...)
		}
		b = append(b, ')')
	}
	for _, j := range retried {
		part()
		b = append(b, got[j].Name...)
		b = append(b, " (called #"...)
		b = jsonvalue.AppendInt(b, j)
		b = append(b, ") failed and was retried"...)
		if m.opts.FailedCalls == FailedRetry {
			b = append(b, ": not counted"...)
		}
	}
	if len(turns) > 0 {
		part()
		b = describeTurns(b, turns, m.opts.TurnAggregate)
	}
	if strictZero {
		part()
		b = append(b, "strict: score "...)
		b = appendScore(b, raw)
		b = append(b, " counts as 0"...)
	}
	if argsIgnored {
		part()
		b = append(b, "arguments not compared (args: ignore)"...)
	}
	if outputIgnored {
		part()
		b = append(b, "outputs not compared (output: ignore)"...)
	}
	return string(b)
}

// allMatched holds the reason of a case whose n expected calls all
// matched with nothing more to say, the most common reason, at n.
var allMatched = func() (reasons [9]string) {
	for n := range reasons {
		reasons[n] = "all " + strconv.Itoa(n) + " expected calls matched"
	}
	return reasons
}()

// closest finds the unpaired called call of the same name whose arguments
// are most alike, to explain why an expected call went missing.
func (m *ToolCorrectness) closest(e *toolgrade.Call, got []toolgrade.Call, unpaired []bool) (int, bool) {
	name := m.name(e)
	best, bestScore, candidates := -1, -1.0, 0
	for j := range got {
		if unpaired[j] && m.name(&got[j]) == name {
			if candidates++; candidates == 1 {
				best = j
			}
		}
	}
	if candidates <= 1 { // the usual case: nothing to weigh
		return best, candidates == 1
	}
	for j := range got {
		if unpaired[j] && m.name(&got[j]) == name {
			if s := closeness(e, &got[j]); s > bestScore {
				best, bestScore = j, s
			}
		}
	}
	return best, true
}

// closeness is how alike called call c's arguments are to expected call
// e's, by which closest weighs its candidates.
func closeness(e, c *toolgrade.Call) float64 {
	if len(e.Rules) == 0 {
		return partialScore(e.Args, c.Args)
	}
	return (Comparer{Mode: ArgsPartial}).Score(e.Args, c.Args, e.Rules)
}

// appendDiffs describes argument differences, joined with ", ".
func appendDiffs(b []byte, diffs []toolgrade.ArgDiff) []byte {
	if len(diffs) == 0 {
		return append(b, "arguments differ"...)
	}
	for i, d := range diffs {
		if i > 0 {
			b = append(b, ", "...)
		}
		if d.Path == "" {
			b = append(b, "args"...)
		} else {
			b = append(b, d.Path...)
		}
		switch d.Note {
		case "missing":
			b = append(b, " missing (expected "...)
			b = jsonvalue.AppendFormat(b, d.Expected)
		case "unexpected":
			b = append(b, " not expected (got "...)
			b = jsonvalue.AppendFormat(b, d.Got)
		case "":
			b = append(b, " expected "...)
			b = jsonvalue.AppendFormat(b, d.Expected)
			b = append(b, ", got "...)
			b = jsonvalue.AppendFormat(b, d.Got)
			continue
		default: // a rule or a similarity: the expected value may not exist
			b = append(b, ' ')
			b = append(b, d.Note...)
			if d.Expected == nil {
				b = append(b, " (got "...)
			} else {
				b = append(b, " (expected "...)
				b = jsonvalue.AppendFormat(b, d.Expected)
				b = append(b, ", got "...)
			}
			b = jsonvalue.AppendFormat(b, d.Got)
		}
		b = append(b, ')')
	}
	return b
}

func appendScore(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'g', 4, 64) }

// expectedError reports an expected call that no call could match as the
// case means it: one that names no tool (an agent's call naming none
// would match it), or whose arguments are not JSON (which says nothing of
// what is expected; graded, it would fail the agent for the case's
// mistake). The agent's own calls may be either: they fail to match.
func expectedError(c *toolgrade.Case) error {
	for i := range c.Expected {
		e := &c.Expected[i]
		var err error
		switch {
		case e.Name == "":
			err = errors.New("names no tool: an expected call names the tool it expects")
		case e.Invalid:
			err = fmt.Errorf("arguments are not valid JSON (%s): an expected call's arguments say what it expects (the agent's calls may be invalid, an expected call may not)", jsonvalue.Format(e.ArgsRaw))
		default:
			continue
		}
		if c.ExpectedTrajectory != nil || c.ByTurn() {
			return fmt.Errorf("expected call %d (%s): %w", i+1, e.Name, err)
		}
		return &toolgrade.FieldError{Path: "expected_tools[" + strconv.Itoa(i) + "]", Err: err}
	}
	return nil
}

// appendExpected writes an expected call for a reason: as written, except
// that an argument a rule judges shows the rule (the rule replaces the
// value written beside it, as a snapshot writes both; <any> when it is
// ignored), and an argument given by a rule alone is added (an ignored one
// is not: it asks nothing).
func appendExpected(b []byte, e *toolgrade.Call) []byte {
	args, isObject := e.Args.(jsonvalue.Object)
	if len(e.Rules) == 0 || e.Invalid || e.Args != nil && !isObject {
		return e.AppendString(b)
	}
	var parts []string
	ruled := false
	for _, m := range args {
		if text := ruleShown(e.Rules[m.Key]); text != "" {
			parts = append(parts, jsonvalue.Format(m.Key)+":"+text)
			ruled = true
			continue
		}
		parts = append(parts, jsonvalue.Format(m.Key)+":"+jsonvalue.Format(m.Value))
	}
	for _, key := range slices.Sorted(maps.Keys(e.Rules)) {
		if text := ruleText(e.Rules[key]); text != "" && !args.Has(key) {
			parts = append(parts, jsonvalue.Format(key)+":"+text)
			ruled = true
		}
	}
	if !ruled {
		return e.AppendString(b)
	}
	b = append(b, e.Name...)
	b = append(b, "({"...)
	b = append(b, shortText(strings.Join(parts, ","), 160)...)
	return append(b, "})"...)
}

// ruleShown is what a reason shows for an argument a rule judges: the
// rule, <any> when it is ignored, "" when the rule leaves the comparison
// with the value written (a tolerance, a fuzzy ratio, optional).
func ruleShown(r toolgrade.Rule) string {
	if r.Ignore {
		return "<any>"
	}
	return ruleText(r)
}

// shortText cuts s to at most n bytes, ending in "...", without splitting a
// UTF-8 sequence.
func shortText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}

// ruleText says what a rule asks of a value, or "" when it asks nothing
// that replaces the value written.
func ruleText(r toolgrade.Rule) string {
	var parts []string
	if r.Type != "" {
		parts = append(parts, "<"+r.Type+">")
	}
	if r.OneOf != nil {
		parts = append(parts, "<one of "+jsonvalue.Format(r.OneOf)+">")
	}
	if r.Regex != nil {
		parts = append(parts, "/"+r.Regex.String()+"/")
	}
	if r.Approx != nil {
		parts = append(parts, fmt.Sprintf("<%v ± %v>", *r.Approx, r.Tol))
	}
	if r.From != nil {
		parts = append(parts, "<from "+r.From.Text+">")
	}
	return strings.Join(parts, " and ")
}
