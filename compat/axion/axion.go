package axion

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// Options configure [Metric]. The JSON names are the keyword arguments
// of axion's ToolCorrectness, so an axion configuration works unchanged as a
// metric entry.
type Options struct {
	// CheckParameters compares arguments as well as tool names.
	CheckParameters bool `json:"check_parameters"`
	// StrictOrder scores 1 only when the calls match position by position,
	// else 0; Scoring is then ignored.
	StrictOrder bool `json:"strict_order"`
	// ParameterMatchingStrategy says how arguments compare (default
	// StrategyExact).
	ParameterMatchingStrategy Strategy `json:"parameter_matching_strategy"`
	// FuzzyThreshold is the mean similarity "fuzzy" needs; nil means 0.8.
	FuzzyThreshold *float64 `json:"fuzzy_threshold"`
	// Scoring picks the score (default ScoringRecall).
	Scoring Scoring `json:"scoring"`
	// Threshold is the pass mark; nil means axion's default, 0.5, and so
	// does 0, which axion treats as unset too.
	Threshold *float64 `json:"threshold"`
}

// A Strategy is axion's parameter matching strategy.
type Strategy string

const (
	// StrategyExact compares arguments with Python's ==.
	StrategyExact Strategy = "exact"
	// StrategySubset needs every expected key present with an equal
	// value, recursing into objects.
	StrategySubset Strategy = "subset"
	// StrategyFuzzy needs a mean similarity over the expected keys of at
	// least FuzzyThreshold.
	StrategyFuzzy Strategy = "fuzzy"
)

// A Scoring picks which figure of the pairing is axion's score.
type Scoring string

const (
	ScoringRecall    Scoring = "recall"
	ScoringPrecision Scoring = "precision"
	ScoringF1        Scoring = "f1"
)

// Metric reproduces the score of axion's ToolCorrectness metric
// (ax-foundry/axion @ 7ab96dc).
//
// Both lists empty score 1; nothing expected but something called scores
// 0. With StrictOrder the lists must have the same length and match
// position by position (1, else 0). Otherwise each expected call, in
// order, takes the first still-unused called call that matches it (greedy,
// no backtracking), and the score is recall (matched/expected), precision
// (matched/called; 1 when nothing was called) or their F1.
//
// Names match exactly. Arguments compare with Python's == (1 == 1.0 ==
// true), and fuzzy similarity treats int and float, bool and number as
// different types and can go negative for numbers of opposite sign. A call
// whose arguments are null makes axion reject the whole item before
// scoring (CustomValidationError): the result is then an error. Absent
// arguments count as {}.
type Metric struct {
	opts      Options
	fuzzy     float64
	threshold float64
}

// New checks the options and returns the metric. Unknown strategy or
// scoring names are rejected (axion would silently fall back to exact
// matching and recall).
func New(opts Options) (*Metric, error) {
	m := &Metric{opts: opts, fuzzy: 0.8, threshold: 0.5}
	o := &m.opts
	if o.ParameterMatchingStrategy == "" {
		o.ParameterMatchingStrategy = StrategyExact
	}
	if o.Scoring == "" {
		o.Scoring = ScoringRecall
	}
	switch o.ParameterMatchingStrategy {
	case StrategyExact, StrategySubset, StrategyFuzzy:
	default:
		return nil, &toolgrade.OptionError{Option: "parameter_matching_strategy", Value: string(o.ParameterMatchingStrategy), Allowed: []string{"exact", "subset", "fuzzy"}}
	}
	switch o.Scoring {
	case ScoringRecall, ScoringPrecision, ScoringF1:
	default:
		return nil, &toolgrade.OptionError{Option: "scoring", Value: string(o.Scoring), Allowed: []string{"recall", "precision", "f1"}}
	}
	if o.FuzzyThreshold != nil {
		m.fuzzy = *o.FuzzyThreshold
	}
	if o.Threshold != nil && *o.Threshold != 0 {
		m.threshold = *o.Threshold
	}
	return m, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "axion".
func (m *Metric) Profile() string { return "axion" }

// CaseFields returns the fields the metric reads: the calls.
func (m *Metric) CaseFields() []string { return []string{"tools_called", "expected_tools"} }

// Grade scores the case as axion would.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	if err := validate(c); err != nil {
		r.Fail(err)
		return r
	}
	m.score(c, &r)
	r.Threshold = toolgrade.Float(m.threshold)
	r.Success = r.Score >= m.threshold
	return r
}

// score fills in the score, pairs and reason.
func (m *Metric) score(c *toolgrade.Case, r *toolgrade.MetricResult) {
	exp, got := c.Expected, c.Called
	switch {
	case len(exp) == 0 && len(got) == 0:
		r.Score, r.Reason = 1, "no calls expected and none made"
		return
	case len(exp) == 0:
		r.Score = 0
		r.Reason = fmt.Sprintf("no calls expected, but %d made", len(got))
		r.Matches, r.Missing, r.Unexpected = []toolgrade.Match{}, []int{}, indices(len(got))
		return
	}
	scores := make([][]float64, len(exp))
	for i := range exp {
		scores[i] = make([]float64, len(got))
		for j := range got {
			if m.matches(&got[j], &exp[i]) {
				scores[i][j] = 1
			}
		}
	}
	if m.opts.StrictOrder {
		r.Matches = match.Positional(scores)
		if len(exp) == len(got) && len(r.Matches) == len(exp) {
			r.Score = 1
		}
	} else {
		r.Matches = match.Greedy(scores)
		n := float64(len(r.Matches))
		recall, precision := n/float64(len(exp)), 1.0
		if len(got) > 0 {
			precision = n / float64(len(got))
		}
		f1 := 0.0
		if precision > 0 && recall > 0 {
			f1 = 2 * precision * recall / (precision + recall)
		}
		r.Precision, r.Recall, r.F1 = &precision, &recall, &f1
		switch m.opts.Scoring {
		case "recall":
			r.Score = recall
		case "precision":
			r.Score = precision
		case "f1":
			r.Score = f1
		}
	}
	r.Missing, r.Unexpected = toolgrade.Unpaired(r.Matches, len(exp), len(got))
	r.Reason = m.reason(c, r)
	if !m.opts.CheckParameters && slices.ContainsFunc(c.Expected, func(e toolgrade.Call) bool { return len(callArgs(&e)) > 0 }) {
		r.Reason += "; arguments not compared (check_parameters is false)"
	}
}

// validate rejects what axion's item model rejects before the metric
// runs: arguments that are not an object, null included.
func validate(c *toolgrade.Case) error {
	for _, side := range []struct {
		field string
		calls []toolgrade.Call
	}{{"tools_called", c.Called}, {"expected_tools", c.Expected}} {
		for i := range side.calls {
			if _, bad := python.Dict(&side.calls[i]); bad != "" {
				return fmt.Errorf("CustomValidationError: %s[%d].args is %s; axion needs an object", side.field, i, bad)
			}
		}
	}
	return nil
}

// callArgs returns a call's arguments as axion holds them: an object, {}
// when absent (validate has rejected the rest).
func callArgs(c *toolgrade.Call) jsonvalue.Object {
	o, _ := c.Args.(jsonvalue.Object)
	return o
}

func (m *Metric) matches(called, expected *toolgrade.Call) bool {
	if called.Name != expected.Name {
		return false
	}
	if !m.opts.CheckParameters {
		return true
	}
	ca, ea := callArgs(called), callArgs(expected)
	switch m.opts.ParameterMatchingStrategy {
	case "subset":
		return subset(ca, ea)
	case "fuzzy":
		if len(ea) == 0 {
			return true
		}
		return fuzzy(ca, ea) >= m.fuzzy
	}
	return python.Equal(ca, ea)
}

// subset reports whether every expected key is in the called
// arguments with a Python-equal value, recursing where both values are
// objects (arrays, even of objects, compare whole).
func subset(called, expected jsonvalue.Object) bool {
	for _, e := range expected {
		cv, ok := called.Get(e.Key)
		if !ok {
			return false
		}
		eo, eIsObj := e.Value.(jsonvalue.Object)
		co, cIsObj := cv.(jsonvalue.Object)
		if eIsObj && cIsObj {
			if !subset(co, eo) {
				return false
			}
		} else if !python.Equal(cv, e.Value) {
			return false
		}
	}
	return true
}

// fuzzy is the mean similarity over the expected keys, in their
// order; a key the call lacks scores 0. expected must not be empty.
func fuzzy(called, expected jsonvalue.Object) float64 {
	total := 0.0
	for _, e := range expected {
		cv, _ := called.Get(e.Key)
		total += similarity(cv, e.Value)
	}
	return total / float64(len(expected))
}

// similarity is axion's similarity of a called and an expected value:
// 0 when either is null or their Python types differ (int and float, bool
// and number are different types); difflib's ratio for strings (called
// first: it is not symmetric); for numbers and booleans 1 if both are 0,
// 0 if one is, else 1 - |a-b|/max(|a|,|b|), which is negative for opposite
// signs; for objects the mean of key overlap (Jaccard) and the mean
// similarity of the common keys; Python == for the rest.
func similarity(c, e any) float64 {
	if c == nil || e == nil || pyType(c) != pyType(e) {
		return 0
	}
	switch c := c.(type) {
	case string:
		return match.Ratio(c, e.(string))
	case bool:
		if c == e.(bool) {
			return 1
		}
		return 0 // true vs false: one of them is 0
	case json.Number:
		return numberSimilarity(c, e.(json.Number))
	case jsonvalue.Object:
		eo := e.(jsonvalue.Object)
		common, sum := 0, 0.0
		for _, m := range c {
			if ev, ok := eo.Get(m.Key); ok {
				common++
				sum += similarity(m.Value, ev)
			}
		}
		all := len(c) + len(eo) - common
		if all == 0 {
			return 1
		}
		values := 0.0
		if common > 0 {
			values = sum / float64(common)
		}
		return (float64(common)/float64(all) + values) / 2
	}
	if python.Equal(c, e) {
		return 1
	}
	return 0
}

// pyType names the Python type json.loads gives a value.
func pyType(v any) string {
	if n, ok := v.(json.Number); ok {
		if jsonvalue.IsIntegerLiteral(string(n)) {
			return "int"
		}
		return "float"
	}
	return jsonvalue.Kind(v)
}

// numberSimilarity is 1 - |a-b| / max(|a|, |b|) for two numbers of the
// same Python type, 1 if both are 0 and 0 if one is. Integers are exact
// and their quotient correctly rounded, as Python's int / int is.
func numberSimilarity(a, b json.Number) float64 {
	if jsonvalue.IsIntegerLiteral(string(a)) {
		x, okA := new(big.Int).SetString(string(a), 10)
		y, okB := new(big.Int).SetString(string(b), 10)
		if okA && okB {
			switch {
			case x.Sign() == 0 && y.Sign() == 0:
				return 1
			case x.Sign() == 0 || y.Sign() == 0:
				return 0
			}
			diff := new(big.Int).Sub(x, y)
			diff.Abs(diff)
			x.Abs(x)
			y.Abs(y)
			if x.Cmp(y) < 0 {
				x = y
			}
			q, _ := new(big.Rat).SetFrac(diff, x).Float64()
			return 1 - q
		}
	}
	fa, fb := jsonvalue.NumberFloat(a), jsonvalue.NumberFloat(b)
	switch {
	case fa == 0 && fb == 0:
		return 1
	case fa == 0 || fb == 0:
		return 0
	}
	return 1 - math.Abs(fa-fb)/max(math.Abs(fa), math.Abs(fb))
}

// reason lists what matched, each expected call left unmatched with why,
// and each called call left over.
func (m *Metric) reason(c *toolgrade.Case, r *toolgrade.MetricResult) string {
	exp, got := c.Expected, c.Called
	var parts []string
	if m.opts.StrictOrder {
		if len(exp) != len(got) {
			parts = append(parts, fmt.Sprintf("strict order needs %d calls, got %d", len(exp), len(got)))
		} else if r.Score == 1 {
			parts = append(parts, fmt.Sprintf("all %d calls match in order", len(exp)))
		}
		for _, i := range r.Missing {
			if i < len(got) {
				parts = append(parts, fmt.Sprintf("position %d: expected %s, got %s: %s", i, &exp[i], &got[i], m.why(&got[i], &exp[i])))
			} else {
				parts = append(parts, fmt.Sprintf("position %d: expected %s, got nothing", i, &exp[i]))
			}
		}
		if len(exp) != len(got) {
			for _, j := range r.Unexpected {
				if j >= len(exp) {
					parts = append(parts, fmt.Sprintf("position %d: extra call %s", j, &got[j]))
				}
			}
		}
		return strings.Join(parts, "; ")
	}
	parts = append(parts, fmt.Sprintf("%d of %d expected calls matched, %d calls made (recall %s, precision %s, f1 %s; scoring %s)",
		len(r.Matches), len(exp), len(got), fmtFloat(*r.Recall), fmtFloat(*r.Precision), fmtFloat(*r.F1), m.opts.Scoring))
	left := make(map[int]bool, len(r.Unexpected))
	for _, j := range r.Unexpected {
		left[j] = true
	}
	for _, i := range r.Missing {
		s := fmt.Sprintf("expected #%d %s not matched", i, &exp[i])
		for j := range got {
			if left[j] && got[j].Name == exp[i].Name {
				s += fmt.Sprintf(": called #%d %s", j, m.why(&got[j], &exp[i]))
				break
			}
		}
		parts = append(parts, s)
	}
	for _, j := range r.Unexpected {
		parts = append(parts, fmt.Sprintf("called #%d %s not expected", j, &got[j]))
	}
	return strings.Join(parts, "; ")
}

// why says what keeps a called call from matching an expected one.
func (m *Metric) why(called, expected *toolgrade.Call) string {
	if called.Name != expected.Name {
		return fmt.Sprintf("name %q, want %q", called.Name, expected.Name)
	}
	if m.matches(called, expected) {
		return "matches"
	}
	ca, ea := callArgs(called), callArgs(expected)
	if m.opts.ParameterMatchingStrategy == "fuzzy" {
		return fmt.Sprintf("argument similarity %s below fuzzy_threshold %s", fmtFloat(fuzzy(ca, ea)), fmtFloat(m.fuzzy))
	}
	for _, e := range ea {
		cv, ok := ca.Get(e.Key)
		if !ok {
			return fmt.Sprintf("argument %q missing", e.Key)
		}
		if !python.Equal(cv, e.Value) && (m.opts.ParameterMatchingStrategy == "exact" || !subset(jsonvalue.Object{{Key: e.Key, Value: cv}}, jsonvalue.Object{e})) {
			return fmt.Sprintf("argument %q is %s, want %s", e.Key, jsonvalue.Format(cv), jsonvalue.Format(e.Value))
		}
	}
	for _, a := range ca {
		if !ea.Has(a.Key) {
			return fmt.Sprintf("argument %q not expected (exact matching)", a.Key)
		}
	}
	return "arguments differ"
}

// indices returns 0..n-1.
func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }
