package deepeval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/schema"
)

// Options configure [Metric]. The JSON names are the options of
// DeepEval's ToolCorrectnessMetric, so that a DeepEval configuration works
// as a toolgrade metric entry unchanged.
type Options struct {
	// Variant is the DeepEval release whose numbers are reproduced
	// (default VariantV4).
	Variant Variant `json:"variant,omitempty"`
	// ShouldConsiderOrdering scores the weighted longest common subsequence
	// of the expected and called calls instead of pairing in any order.
	ShouldConsiderOrdering bool `json:"should_consider_ordering,omitempty"`
	// ShouldExactMatch scores 1 when every position matches and 0
	// otherwise; it wins over ShouldConsiderOrdering.
	ShouldExactMatch bool `json:"should_exact_match,omitempty"`
	// EvaluationParams lists what is compared besides names (and, in v4,
	// call types). Empty: names only, DeepEval's default.
	EvaluationParams []Param `json:"evaluation_params,omitempty"`
	// StrictMode makes the pass mark 1 and turns any lower score into 0.
	StrictMode bool `json:"strict_mode,omitempty"`
	// Threshold is the pass mark; nil means DeepEval's 0.5.
	Threshold *float64 `json:"threshold,omitempty"`
	// NoThreshold is DeepEval's threshold None (threshold: null in a
	// config file): v4 then scores without a verdict, while v3 and
	// multimodal raise TypeError on every case (unless strict mode sets the
	// threshold to 1). It wins over Threshold.
	NoThreshold bool `json:"-"`
	// Judge, when set, rates tool selection for cases that list available
	// tools; the score is then the lower of the two. Without a judge such
	// cases are scored deterministically and the reason says so.
	Judge judge.Judge `json:"-"`
}

// A Variant is a DeepEval release whose numbers a profile reproduces.
type Variant string

const (
	// VariantV4 is deepeval 4.1.10.
	VariantV4 Variant = "v4"
	// VariantV3 is deepeval 3.8.3: as v4, except that a null threshold
	// without strict mode is an error.
	VariantV3 Variant = "v3"
	// VariantMultimodal is MultimodalToolCorrectnessMetric of 3.7.4: no
	// call types, no judge, no shortcut for equal arguments, no guards
	// for empty lists.
	VariantMultimodal Variant = "multimodal"
)

// A Param is one of DeepEval's ToolCallParams: what is compared besides
// names.
type Param string

const (
	// ParamInputParameters compares arguments.
	ParamInputParameters Param = "input_parameters"
	// ParamOutput compares outputs.
	ParamOutput Param = "output"
)

// UnmarshalJSON reads the options strictly (an unknown key is an error, as
// in every config file) and reads "threshold": null as NoThreshold.
func (o *Options) UnmarshalJSON(b []byte) error {
	type plain Options // without this method
	var p plain
	if err := toolgrade.DecodeOptions(b, &p); err != nil {
		return err
	}
	*o = Options(p)
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err == nil {
		if t, ok := fields["threshold"]; ok && string(bytes.TrimSpace(t)) == "null" {
			o.NoThreshold = true
		}
	}
	return nil
}

// Metric reproduces the scores of DeepEval's ToolCorrectnessMetric
// exactly, quirks included, so that baselines measured with DeepEval stay
// comparable. Its rules, as DeepEval computes them:
//
//   - Two calls are comparable when their names are equal and, in v4, their
//     types ("function" when absent). Their pair score is 1, times the
//     argument credit when input_parameters is evaluated, and 0 when output
//     is evaluated and the outputs differ.
//   - Argument credit: 1 for equal arguments (Python ==, so 1 == 1.0 ==
//     true); otherwise each key on both sides with equal values earns
//     1/|union of keys|, and nested objects earn their own credit over the
//     same share. Null arguments against an object are an error, as
//     DeepEval raises AttributeError.
//   - Default: each expected call, in order, takes the still-unused called
//     call of highest positive pair score (the first on ties). A called call
//     counts as used when any call equal to it by value (name, arguments,
//     output) was taken, so [A, A] against [A, A] scores 0.5. Score = sum /
//     number expected; extra calls cost nothing.
//   - ShouldConsiderOrdering: a weighted longest common subsequence over
//     number expected. ShouldExactMatch: 1 or 0.
//   - Nothing expected scores 1 when nothing was called and 0 otherwise.
//
// Non-goals: DeepEval's verbose logs and its LLM prompt wording; the
// judge's prompt is toolgrade's ([judge.ToolSelection]).
type Metric struct {
	opts           Options
	args, output   bool
	multimodal, v3 bool
}

// New checks the options and returns the metric.
func New(opts Options) (*Metric, error) {
	m := &Metric{opts: opts}
	switch opts.Variant {
	case "", VariantV4:
		m.opts.Variant = VariantV4
	case VariantV3:
		m.v3 = true
	case VariantMultimodal:
		m.multimodal = true
	default:
		return nil, &toolgrade.OptionError{Option: "variant", Value: string(opts.Variant), Allowed: []string{"v4", "v3", "multimodal"}}
	}
	for _, p := range opts.EvaluationParams {
		switch p {
		case ParamInputParameters:
			m.args = true
		case ParamOutput:
			m.output = true
		default:
			return nil, &toolgrade.OptionError{Option: "evaluation_params", Value: string(p), Allowed: []string{"input_parameters", "output"}}
		}
	}
	return m, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "deepeval".
func (m *Metric) Profile() string { return "deepeval" }

// CaseFields returns the fields the metric reads: the calls, and the
// input and tool definitions its judge of tool selection reads.
func (m *Metric) CaseFields() []string {
	return []string{"tools_called", "expected_tools", "available_tools", "input"}
}

// failure is an exception DeepEval raises on a case; its name leads
// the message so that users can match it to DeepEval's own output.
func failure(exception, format string, args ...any) error {
	return fmt.Errorf("DeepEval raises %s: %s", exception, fmt.Sprintf(format, args...))
}

// Grade scores one case.
func (m *Metric) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	fail := func(err error) toolgrade.MetricResult {
		r.Fail(err)
		return r
	}
	if err := m.check(c); err != nil {
		return fail(err)
	}
	var (
		s   callScore
		err error
	)
	switch {
	case m.opts.ShouldExactMatch:
		s = m.exact(c.Expected, c.Called)
	case m.opts.ShouldConsiderOrdering:
		s, err = m.ordered(c.Expected, c.Called)
	default:
		s, err = m.unordered(c.Expected, c.Called)
	}
	if err != nil {
		return fail(err)
	}
	threshold := m.threshold()
	if threshold == nil && !m.opts.StrictMode && (m.v3 || m.multimodal) {
		return fail(failure("TypeError", "threshold is null (%s compares the score with None; only v4 scores without a verdict)", m.opts.Variant))
	}

	r.Score = s.score
	r.Matches, r.Missing, r.Unexpected = s.matches, s.missing, s.unexpected
	if r.Matches == nil {
		r.Matches = []toolgrade.Match{}
	}
	parts := s.notes
	raw := r.Score
	if m.opts.StrictMode && r.Score < 1 {
		r.Score = 0
		parts = append(parts, fmt.Sprintf("strict_mode: score %s counts as 0", formatScore(raw)))
	}
	if !m.multimodal && truthy(schema.Definitions(c)) {
		if m.opts.Judge == nil {
			parts = append(parts, "available_tools given but no judge configured: tool selection not judged (DeepEval takes the lower of this score and its judge's)")
		} else {
			v, err := judge.ToolSelection(ctx, m.opts.Judge, c)
			if v.Usage != (toolgrade.Usage{}) {
				r.SetDetail(v.Usage) // spent even when the judgment failed
			}
			if err != nil {
				return fail(fmt.Errorf("tool selection judge: %w", err))
			}
			r.SetDetail(toolgrade.Components{"deterministic": r.Score, "tool_selection": v.Score})
			final := min(r.Score, v.Score)
			if m.opts.StrictMode && final < 1 {
				final = 0
			}
			part := fmt.Sprintf("tool selection judged %s", formatScore(v.Score))
			if v.Reason != "" {
				part += " (" + v.Reason + ")"
			}
			parts = append(parts, part+fmt.Sprintf("; final score = min(%s, %s)", formatScore(r.Score), formatScore(v.Score)))
			r.Score = final
		}
	}
	if threshold != nil {
		r.Threshold = threshold
		r.Success = r.Score >= *threshold
	}
	parts = append(parts, m.unchecked(c.Expected)...)
	r.Reason = strings.Join(parts, "; ")
	return r
}

// unchecked says what the expected calls give that the profile's
// evaluation_params leave uncompared.
func (m *Metric) unchecked(exp []toolgrade.Call) []string {
	var args, outputs bool
	for i := range exp {
		args = args || exp[i].Args != nil
		outputs = outputs || exp[i].Output != nil
	}
	var out []string
	if args && !m.args {
		out = append(out, "arguments not compared (evaluation_params lacks input_parameters)")
	}
	if outputs && !m.output {
		out = append(out, "outputs not compared (evaluation_params lacks output)")
	}
	return out
}

// threshold is the pass mark in effect; nil means score only.
func (m *Metric) threshold() *float64 {
	switch {
	case m.opts.StrictMode:
		return toolgrade.Float(1)
	case m.opts.NoThreshold:
		return nil
	case m.opts.Threshold != nil:
		return toolgrade.Float(*m.opts.Threshold)
	}
	return toolgrade.Float(0.5)
}

// check rejects what DeepEval rejects before scoring: a null list of calls
// (MissingTestCaseParamsError), and arguments that are not an object or
// null (DeepEval's ToolCall validation).
func (m *Metric) check(c *toolgrade.Case) error {
	for _, keys := range [][]string{{"tools_called", "toolsCalled"}, {"expected_tools", "expectedTools"}} {
		for _, k := range keys {
			if v, ok := c.Raw.Get(k); ok {
				if v == nil {
					return failure("MissingTestCaseParamsError", "%s is null", k)
				}
				break
			}
		}
	}
	for _, side := range []struct {
		name  string
		calls []toolgrade.Call
	}{{"tools_called", c.Called}, {"expected_tools", c.Expected}} {
		for i := range side.calls {
			call := &side.calls[i]
			if call.Invalid {
				return fmt.Errorf("%s[%d].args: not valid JSON (%q); DeepEval needs an object or null", side.name, i, call.ArgsRaw)
			}
			if _, ok := call.Args.(jsonvalue.Object); !ok && call.Args != nil {
				return fmt.Errorf("%s[%d].args: want an object or null, got %s (DeepEval's ToolCall rejects it)", side.name, i, jsonvalue.Kind(call.Args))
			}
		}
	}
	return nil
}

// truthy is Python's truth value of a JSON value: null, empty
// lists, objects and strings are false.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case []any:
		return len(v) > 0
	case jsonvalue.Object:
		return len(v) > 0
	case string:
		return v != ""
	}
	return true
}

// A callScore is the deterministic score with the pairs behind it and
// notes for the reason.
type callScore struct {
	score               float64
	matches             []toolgrade.Match
	missing, unexpected []int
	notes               []string
}

// comparable reports whether DeepEval compares the two calls at all.
func (m *Metric) comparable(e, c *toolgrade.Call) bool {
	return e.Name == c.Name && (m.multimodal || typeName(e) == typeName(c))
}

func typeName(c *toolgrade.Call) string {
	if c.Type == "" {
		return "function"
	}
	return c.Type
}

// pairScore is the credit of comparable calls: the argument credit when
// arguments are evaluated, zeroed when evaluated outputs differ.
func (m *Metric) pairScore(e, c *toolgrade.Call) (float64, error) {
	s := 1.0
	if m.args {
		a, err := m.argCredit(e.Args, c.Args, true)
		if err != nil {
			return 0, err
		}
		s *= a
	}
	if m.output && !python.Equal(e.Output, c.Output) {
		s = 0
	}
	return s, nil
}

// argCredit is DeepEval's dictionary similarity. Equal values score 1
// (except at the top in multimodal, which has no such shortcut, so equal
// objects of n keys score n additions of 1/n and {} scores 0); a side that
// is not an object raises, as None.keys() does in Python.
func (m *Metric) argCredit(e, c any, top bool) (float64, error) {
	if !(m.multimodal && top) && python.Equal(e, c) {
		return 1, nil
	}
	eo, eok := e.(jsonvalue.Object)
	co, cok := c.(jsonvalue.Object)
	if !eok || !cok {
		return 0, failure("AttributeError", "arguments %s compared with %s ('NoneType' object has no attribute 'keys')", jsonvalue.Format(e), jsonvalue.Format(c))
	}
	union := len(eo)
	for _, mem := range co {
		if !eo.Has(mem.Key) {
			union++
		}
	}
	credit := 0.0
	for _, mem := range eo {
		cv, ok := co.Get(mem.Key)
		if !ok {
			continue
		}
		if python.Equal(mem.Value, cv) {
			credit += 1 / float64(union)
			continue
		}
		_, eIsObj := mem.Value.(jsonvalue.Object)
		_, cIsObj := cv.(jsonvalue.Object)
		if eIsObj && cIsObj {
			sub, err := m.argCredit(mem.Value, cv, false)
			if err != nil {
				return 0, err
			}
			credit += sub / float64(union)
		}
	}
	return credit, nil
}

// unordered is DeepEval's default: greedy, first highest, with used calls
// tracked by value.
func (m *Metric) unordered(exp, got []toolgrade.Call) (callScore, error) {
	var s callScore
	// usedBy reports the taken call equal by value to called call j, if
	// any: DeepEval keeps taken calls in a set, and equal calls hash alike.
	// Each call taken marks the calls equal to it once, so that asking
	// costs nothing: asking each time cost a pass over the calls taken,
	// cubic time in all.
	equalTo := make([]int, len(got)) // 1 + the first call taken equal to it; 0: none
	take := func(t int) {
		for j := range got {
			if equalTo[j] == 0 && got[t].Name == got[j].Name && python.Equal(got[t].Args, got[j].Args) && python.Equal(got[t].Output, got[j].Output) {
				equalTo[j] = t + 1
			}
		}
	}
	usedBy := func(j int) (int, bool) { return equalTo[j] - 1, equalTo[j] > 0 }
	total := 0.0
	for i := range exp {
		best, bestJ := 0.0, -1
		for j := range got {
			if _, used := usedBy(j); used || !m.comparable(&exp[i], &got[j]) {
				continue
			}
			p, err := m.pairScore(&exp[i], &got[j])
			if err != nil {
				return s, fmt.Errorf("expected_tools[%d] vs tools_called[%d]: %w", i, j, err)
			}
			if p > best {
				best, bestJ = p, j
			}
		}
		if bestJ >= 0 {
			total += best
			take(bestJ)
			s.matches = append(s.matches, toolgrade.Match{Expected: i, Called: bestJ, Score: best})
		}
	}
	switch {
	case len(exp) > 0:
		s.score = total / float64(len(exp))
	case len(got) == 0 && !m.multimodal:
		s.score = 1
	}
	s.missing, s.unexpected = toolgrade.Unpaired(s.matches, len(exp), len(got))

	if len(exp) == 0 {
		s.notes = append(s.notes, m.emptyNote(len(got), s.score))
	} else {
		s.notes = append(s.notes, fmt.Sprintf("credit %s over %d expected calls (DeepEval pairs greedily, each expected call taking the first unused called call of highest credit)", formatScore(total), len(exp)))
	}
	s.notes = append(s.notes, m.describePairs(exp, got, s.matches)...)
	for _, i := range s.missing {
		note := fmt.Sprintf("missing %s (expected #%d)", &exp[i], i)
		for j := range got {
			if !m.comparable(&exp[i], &got[j]) || slices.ContainsFunc(s.matches, func(p toolgrade.Match) bool { return p.Called == j }) {
				continue
			}
			if t, used := usedBy(j); used {
				note += fmt.Sprintf(": called #%d equals called #%d, already used (DeepEval tracks used calls by value)", j, t)
			} else {
				note += fmt.Sprintf(": called #%d scored 0 (%s)", j, m.diffs(&exp[i], &got[j]))
			}
			break
		}
		s.notes = append(s.notes, note)
	}
	for _, j := range s.unexpected {
		s.notes = append(s.notes, fmt.Sprintf("extra %s (called #%d) costs nothing in DeepEval", &got[j], j))
	}
	return s, nil
}

// ordered is DeepEval's weighted longest common subsequence. Every
// comparable pair is scored (so bad arguments raise wherever they meet),
// and the total is recovered by DeepEval's walk back from the last cell.
func (m *Metric) ordered(exp, got []toolgrade.Call) (callScore, error) {
	var s callScore
	n, k := len(exp), len(got)
	if n == 0 && m.multimodal {
		return s, failure("ZeroDivisionError", "no expected calls (multimodal divides by their number)")
	}
	dp := make([][]float64, n+1)
	for i := range dp {
		dp[i] = make([]float64, k+1)
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= k; j++ {
			v := max(dp[i-1][j], dp[i][j-1])
			if m.comparable(&exp[i-1], &got[j-1]) {
				p, err := m.pairScore(&exp[i-1], &got[j-1])
				if err != nil {
					return s, fmt.Errorf("expected_tools[%d] vs tools_called[%d]: %w", i-1, j-1, err)
				}
				if p > 0 {
					v = max(v, dp[i-1][j-1]+p)
				}
			}
			dp[i][j] = v
		}
	}
	total := 0.0
	for i, j := n, k; i > 0 && j > 0; {
		switch {
		case dp[i][j] == dp[i-1][j]:
			i--
		case dp[i][j] == dp[i][j-1]:
			j--
		default:
			// DeepEval adds the cell's difference from its diagonal
			// neighbour, which can differ from the pair score in the last
			// bits.
			d := dp[i][j] - dp[i-1][j-1]
			total += d
			s.matches = append(s.matches, toolgrade.Match{Expected: i - 1, Called: j - 1, Score: d})
			i, j = i-1, j-1
		}
	}
	slices.Reverse(s.matches)
	switch {
	case n > 0:
		s.score = total / float64(n)
	case k == 0:
		s.score = 1
	}
	s.missing, s.unexpected = toolgrade.Unpaired(s.matches, n, k)
	if n == 0 {
		s.notes = append(s.notes, m.emptyNote(k, s.score))
	} else {
		s.notes = append(s.notes, fmt.Sprintf("credit %s over %d expected calls (DeepEval's weighted longest common subsequence)", formatScore(total), n))
	}
	s.notes = append(s.notes, m.describePairs(exp, got, s.matches)...)
	for _, i := range s.missing {
		s.notes = append(s.notes, fmt.Sprintf("missing %s in order (expected #%d)", &exp[i], i))
	}
	for _, j := range s.unexpected {
		s.notes = append(s.notes, fmt.Sprintf("extra %s (called #%d) costs nothing in DeepEval", &got[j], j))
	}
	return s, nil
}

// exact is DeepEval's exact match: 1 when the lists have the same length
// and every position matches (plain ==, so null arguments never raise here),
// else 0.
func (m *Metric) exact(exp, got []toolgrade.Call) callScore {
	var s callScore
	first := -1 // the first position that differs
	for i := range min(len(exp), len(got)) {
		e, c := &exp[i], &got[i]
		if m.comparable(e, c) && (!m.args || python.Equal(e.Args, c.Args)) && (!m.output || python.Equal(e.Output, c.Output)) {
			s.matches = append(s.matches, toolgrade.Match{Expected: i, Called: i, Score: 1})
		} else if first < 0 {
			first = i
		}
	}
	s.missing, s.unexpected = toolgrade.Unpaired(s.matches, len(exp), len(got))
	switch {
	case len(exp) != len(got):
		s.notes = append(s.notes, fmt.Sprintf("exact match needs %d calls, got %d", len(exp), len(got)))
	case first >= 0:
		s.notes = append(s.notes, fmt.Sprintf("exact match fails at position %d: expected %s, got %s (%s)", first, &exp[first], &got[first], m.diffs(&exp[first], &got[first])))
	case len(exp) == 0:
		s.score = 1
		s.notes = append(s.notes, "no calls expected and none made")
	default:
		s.score = 1
		s.notes = append(s.notes, fmt.Sprintf("all %d calls match position by position", len(exp)))
	}
	return s
}

func (m *Metric) emptyNote(called int, score float64) string {
	if called == 0 {
		if score == 0 {
			return "no calls expected and none made: multimodal scores 0"
		}
		return "no calls expected and none made"
	}
	return fmt.Sprintf("no calls expected but %d made", called)
}

// describePairs explains each pair that earned less than full credit.
func (m *Metric) describePairs(exp, got []toolgrade.Call, pairs []toolgrade.Match) []string {
	var notes []string
	full := 0
	for _, p := range pairs {
		if p.Score >= 1 {
			full++
			continue
		}
		notes = append(notes, fmt.Sprintf("%s (expected #%d, called #%d) earned %s: %s",
			exp[p.Expected].Name, p.Expected, p.Called, formatScore(p.Score), m.diffs(&exp[p.Expected], &got[p.Called])))
	}
	if full > 0 {
		notes = append([]string{fmt.Sprintf("%d of %d expected calls matched fully", full, len(exp))}, notes...)
	}
	return notes
}

// diffs describes what DeepEval sees differ between two calls, by Python
// equality, at the top level of the arguments.
func (m *Metric) diffs(e, c *toolgrade.Call) string {
	var d []string
	if e.Name != c.Name {
		d = append(d, fmt.Sprintf("name %q, expected %q", c.Name, e.Name))
	} else if !m.multimodal && typeName(e) != typeName(c) {
		d = append(d, fmt.Sprintf("type %s, expected %s", typeName(c), typeName(e)))
	}
	if m.args && !python.Equal(e.Args, c.Args) {
		eo, eok := e.Args.(jsonvalue.Object)
		co, cok := c.Args.(jsonvalue.Object)
		if !eok || !cok {
			d = append(d, fmt.Sprintf("args %s, expected %s", jsonvalue.Format(c.Args), jsonvalue.Format(e.Args)))
		} else {
			for _, mem := range eo {
				cv, ok := co.Get(mem.Key)
				switch {
				case !ok:
					d = append(d, fmt.Sprintf("%s missing (expected %s)", mem.Key, jsonvalue.Format(mem.Value)))
				case !python.Equal(mem.Value, cv):
					d = append(d, fmt.Sprintf("%s %s, expected %s", mem.Key, jsonvalue.Format(cv), jsonvalue.Format(mem.Value)))
				}
			}
			for _, mem := range co {
				if !eo.Has(mem.Key) {
					d = append(d, fmt.Sprintf("%s not expected (got %s)", mem.Key, jsonvalue.Format(mem.Value)))
				}
			}
		}
	}
	if m.output && !python.Equal(e.Output, c.Output) {
		d = append(d, fmt.Sprintf("output %s, expected %s", jsonvalue.Format(c.Output), jsonvalue.Format(e.Output)))
	}
	if len(d) == 0 {
		if m.multimodal && m.args {
			return "multimodal gives equal arguments no shortcut"
		}
		return "no difference"
	}
	return strings.Join(d, ", ")
}

// formatScore writes a score briefly, but never rounds a score that falls
// short of a whole number (as multimodal's 0.9999999999999999) up to it.
func formatScore(f float64) string {
	s := strconv.FormatFloat(f, 'g', 4, 64)
	if r, _ := strconv.ParseFloat(s, 64); r != f && r == math.Trunc(r) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}
