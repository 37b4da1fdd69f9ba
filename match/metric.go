package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

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
	if o, ok := m.opts.ArgsOverrides[tool]; ok {
		mode = o
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

// PairScore is the credit of called call c as expected call e, taken
// alone: a from-rule, which needs the calls around them, fails.
func (m *ToolCorrectness) PairScore(e, c *toolgrade.Call) float64 {
	return m.pairScore(e, c, nil)
}

// A resolver finds the value of a from-rule (see [Comparer].From).
type resolver = func(ref *toolgrade.Ref) (value any, why string, known bool)

// pairScore is PairScore with from-rules resolved by from. Most pairs
// differ in name: nothing else is looked at for them.
func (m *ToolCorrectness) pairScore(e, c *toolgrade.Call, from resolver) float64 {
	name := m.name(e)
	if name != m.name(c) || e.Invalid || c.Invalid || !typeMatches(e.Type, c.Type) {
		return 0
	}
	cmp := m.comparer(name)
	cmp.From = from
	s := cmp.Score(e.Args, c.Args, e.Rules)
	if s > 0 && m.opts.Output == OutputExact && e.Output != nil && !jsonvalue.Equal(e.Output, c.Output) {
		return 0
	}
	return s
}

func (m *ToolCorrectness) diffs(e, c *toolgrade.Call) []toolgrade.ArgDiff {
	return m.diffsWith(e, c, nil)
}

func (m *ToolCorrectness) diffsWith(e, c *toolgrade.Call, from resolver) []toolgrade.ArgDiff {
	if c.Invalid {
		return []toolgrade.ArgDiff{{Path: "args", Expected: e.Args, Got: c.ArgsRaw, Note: "not valid JSON"}}
	}
	if e.Invalid {
		return []toolgrade.ArgDiff{{Path: "args", Expected: e.ArgsRaw, Got: c.Args, Note: "expected arguments are not valid JSON"}}
	}
	cmp := m.comparer(m.name(e))
	cmp.From = from
	d := cmp.Diff(e.Args, c.Args, e.Rules)
	if m.opts.Output == OutputExact && e.Output != nil && !jsonvalue.Equal(e.Output, c.Output) {
		d = append(d, toolgrade.ArgDiff{Path: "output", Expected: e.Output, Got: c.Output})
	}
	return d
}

// Grade scores one case.
func (m *ToolCorrectness) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	if !m.plain(c) {
		return m.gradeTrajectory(c)
	}
	exp, got := c.Expected, c.Called
	n, k := len(exp), len(got)
	// The threshold, precision, recall and F1 share one allocation.
	nums := new([4]float64)
	nums[0] = m.threshold
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: &nums[0]}

	var pairs []toolgrade.Match
	if n > 0 && k > 0 {
		// The score matrix of a usual case lives on the stack: the rows are
		// stored into the array itself, not through a slice of it, which
		// would move cellBuf to the heap.
		var rowBuf [8][]float64
		var cellBuf [64]float64
		var scores [][]float64
		if n <= len(rowBuf) && n*k <= len(cellBuf) {
			for i := range n {
				rowBuf[i] = cellBuf[i*k : (i+1)*k]
			}
			scores = rowBuf[:n]
		} else {
			scores = make([][]float64, n)
			cells := make([]float64, n*k)
			for i := range scores {
				scores[i] = cells[i*k : (i+1)*k]
			}
		}
		for i := range exp {
			for j := range got {
				scores[i][j] = m.PairScore(&exp[i], &got[j])
			}
		}
		switch {
		case m.opts.Order == OrderExact:
			pairs = Positional(scores)
		case m.opts.Order == OrderInOrder:
			pairs = InOrder(scores)
		case m.opts.Pairing == PairingGreedy:
			pairs = Greedy(scores)
		default:
			pairs = Optimal(scores)
		}
	}

	sum := 0.0
	for i := range pairs {
		sum += pairs[i].Score
		if pairs[i].Score < 1 {
			pairs[i].Diffs = m.diffs(&exp[pairs[i].Expected], &got[pairs[i].Called])
		}
	}
	precision, recall, f1 := &nums[1], &nums[2], &nums[3]
	switch {
	case n == 0 && k == 0:
		*precision, *recall, *f1 = 1, 1, 1
	case n == 0 || k == 0:
		// Exactly one side is empty: nothing can be right.
	default:
		*precision, *recall = sum/float64(k), sum/float64(n)
		if *precision+*recall > 0 {
			*f1 = 2 * *precision * *recall / (*precision + *recall)
		}
	}
	r.Precision, r.Recall, r.F1 = precision, recall, f1

	switch {
	case m.opts.Order == OrderExact:
		r.Score = 0
		if n == k && len(pairs) == n && allFull(pairs) {
			r.Score = 1
		}
	case m.opts.Scoring == ScoringRecall:
		r.Score = *recall
	case m.opts.Scoring == ScoringPrecision:
		r.Score = *precision
	default:
		r.Score = *f1
	}
	if n == 0 && k == 0 {
		r.Score = 1
	}
	raw := m.settle(&r, pairs, n, k)
	if m.opts.FailedCalls == FailedCount { // else plain saw no failure
		for j := range got { // failures are listed, and count like any call
			if got[j].Failed() {
				r.Failed = append(r.Failed, j)
			}
		}
	}
	if len(r.Failed) > 0 { // as gradeTrajectory lists them, turns or not
		retried := m.retries(got)
		for _, j := range r.Failed {
			if retried[j] {
				r.Retried = append(r.Retried, j)
			}
		}
	}
	r.Reason = m.reason(c, &r, raw, nil)
	return r
}

// settle applies strict and the threshold to r's score, and sets its
// matches and unpaired calls; it returns the score before strict.
func (m *ToolCorrectness) settle(r *toolgrade.MetricResult, pairs []toolgrade.Match, n, k int) (raw float64) {
	raw = r.Score
	if m.opts.Strict && r.Score < 1 {
		r.Score = 0
	}
	r.Success = r.Score >= m.threshold
	r.Matches = pairs
	if r.Matches == nil {
		r.Matches = []toolgrade.Match{}
	}
	r.Missing, r.Unexpected = toolgrade.Unpaired(pairs, n, k)
	return raw
}

func allFull(pairs []toolgrade.Match) bool {
	for _, p := range pairs {
		if p.Score < 1 {
			return false
		}
	}
	return true
}

// reason explains the result: each missing call (with the closest call of
// the same name, if one was made), each extra call, each pair that fell
// short and the arguments that differ. The parts are joined with "; ".
//
// g, when the case was graded along its trajectory, resolves data-flow
// rules for near misses; reasons then also say which turns passed and
// which failed calls were retried.
func (m *ToolCorrectness) reason(c *toolgrade.Case, r *toolgrade.MetricResult, raw float64, g *grading) string {
	exp, got := c.Expected, c.Called
	if len(exp) == 0 && len(got) == 0 {
		return "no calls expected and none made"
	}
	// Every part is non-empty, so an empty buffer means no part yet.
	buf := reasonBufs.Get().(*[]byte)
	b := (*buf)[:0]
	defer func() {
		if cap(b) <= maxPooledReason {
			*buf = b
			reasonBufs.Put(buf)
		}
	}()
	part := func() {
		if len(b) > 0 {
			b = append(b, "; "...)
		}
	}
	if len(r.Missing) == 0 && len(r.Unexpected) == 0 && allFull(r.Matches) {
		b = append(b, "all "...)
		b = strconv.AppendInt(b, int64(len(exp)), 10)
		b = append(b, " expected calls matched"...)
	}
	kept := len(got) // the called calls that count: not those left out
	if g != nil {
		for _, out := range g.out {
			if out {
				kept--
			}
		}
	}
	if m.opts.Order == OrderExact && len(exp) != kept {
		part()
		b = append(b, "exact order needs "...)
		b = strconv.AppendInt(b, int64(len(exp)), 10)
		b = append(b, " calls, got "...)
		b = strconv.AppendInt(b, int64(kept), 10)
	}
	for _, p := range r.Matches {
		if p.Score < 1 {
			part()
			b = append(b, exp[p.Expected].Name...)
			b = append(b, " (expected #"...)
			b = strconv.AppendInt(b, int64(p.Expected), 10)
			b = append(b, ", called #"...)
			b = strconv.AppendInt(b, int64(p.Called), 10)
			b = append(b, ") scored "...)
			b = appendScore(b, p.Score)
			b = append(b, ": "...)
			b = appendDiffs(b, p.Diffs)
		}
	}
	var unpaired []bool
	if len(r.Missing) > 0 {
		unpaired = make([]bool, len(got))
		for _, j := range r.Unexpected {
			unpaired[j] = true
		}
	}
	for _, i := range r.Missing {
		e := &exp[i]
		part()
		b = append(b, "missing "...)
		b = e.AppendString(b)
		b = append(b, " (expected #"...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ')')
		if j, ok := m.closest(e, got, unpaired); ok {
			// The call now explains this miss: it is not listed again as
			// unexpected, nor used to explain another.
			unpaired[j] = false
			b = append(b, ": called #"...)
			b = strconv.AppendInt(b, int64(j), 10)
			switch {
			case m.cannotSatisfy(&got[j]):
				b = append(b, " failed"...)
			case g != nil && len(r.Turns) > 0 && max(e.Turn, 1) != max(got[j].Turn, 1):
				b = fmt.Appendf(b, " is in turn %d, not %d", max(got[j].Turn, 1), max(e.Turn, 1))
			case m.opts.Order != OrderAny && (g == nil && m.PairScore(e, &got[j]) > 0 || g != nil && g.score(i, j) > 0):
				b = append(b, " matches but out of order"...)
			default:
				b = append(b, " differs: "...)
				var diffs []toolgrade.ArgDiff
				if g != nil {
					diffs = g.diffs(i, j)
				} else {
					diffs = m.diffs(e, &got[j])
				}
				b = appendDiffs(b, diffs)
				r.NearMisses = append(r.NearMisses, toolgrade.Match{Expected: i, Called: j, Diffs: diffs})
			}
		}
	}
	for _, j := range r.Unexpected {
		if unpaired != nil && !unpaired[j] {
			continue // explained above
		}
		part()
		b = append(b, "unexpected "...)
		b = got[j].AppendString(b)
		b = append(b, " (called #"...)
		b = strconv.AppendInt(b, int64(j), 10)
		if got[j].Failed() {
			b = append(b, ", failed"...)
		}
		b = append(b, ')')
	}
	for _, j := range r.Retried {
		part()
		b = append(b, got[j].Name...)
		b = append(b, " (called #"...)
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, ") failed and was retried"...)
		if m.opts.FailedCalls == FailedRetry {
			b = append(b, ": not counted"...)
		}
	}
	if len(r.Turns) > 0 {
		part()
		b = describeTurns(b, r.Turns, m.opts.TurnAggregate)
	}
	if m.opts.Strict && raw < 1 {
		part()
		b = append(b, "strict: score "...)
		b = appendScore(b, raw)
		b = append(b, " counts as 0"...)
	}
	if m.opts.Args == ArgsIgnore && len(m.opts.ArgsOverrides) == 0 && slices.ContainsFunc(exp, func(e toolgrade.Call) bool { return e.Args != nil }) {
		part()
		b = append(b, "arguments not compared (args: ignore)"...)
	}
	if m.opts.Output == OutputIgnore && slices.ContainsFunc(exp, func(e toolgrade.Call) bool { return e.Output != nil }) {
		part()
		b = append(b, "outputs not compared (output: ignore)"...)
	}
	return string(b)
}

// reasonBufs keep the buffers reasons are built in: a reason is written
// for every case, and growing a fresh buffer each time was a tenth of
// grading.
var reasonBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// maxPooledReason bounds the buffers reasonBufs keep.
const maxPooledReason = 64 << 10

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
			if s := (Comparer{Mode: ArgsPartial}).Score(e.Args, got[j].Args, e.Rules); s > bestScore {
				best, bestScore = j, s
			}
		}
	}
	return best, true
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
