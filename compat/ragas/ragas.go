// Package ragas reproduces the scores of Ragas' agent metrics
// ToolCallAccuracy and ToolCallF1 (explodinggradients/ragas @ 3e28e9d),
// reading the peer's own MultiTurnSample data as it is: the ragas
// profile, whose options are ragas_metric, strict_order and threshold.
//
// The rules, briefly ([Metric] has them in full):
//
//   - The sample's conversation is the case's trajectory when it is a
//     list of Ragas messages, else the case's input and one ai message
//     with the called calls; the expected calls are its
//     reference_tool_calls.
//   - ToolCallAccuracy zips the calls with the reference (sorted first
//     unless strict_order) and credits the share of argument values that
//     print the same with Python's str(); ToolCallF1 is the F1 of the sets
//     of calls, arguments compared with Python's ==.
//   - A sample Ragas would refuse is an error result naming the exception
//     it raises.
//   - Ragas has no pass mark: results have none unless threshold sets one.
//
// Non-goals: Ragas' LLM-based agent metrics (AgentGoalAccuracy,
// TopicAdherence) and its single-turn samples.
package ragas

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A MetricName is one of Ragas' tool-call metrics, by Ragas' name for it.
type MetricName string

const (
	// ToolCallAccuracy is Ragas' ToolCallAccuracy.
	ToolCallAccuracy MetricName = "tool_call_accuracy"
	// ToolCallF1 is Ragas' ToolCallF1.
	ToolCallF1 MetricName = "tool_call_f1"
)

// Options configure [Metric]. The JSON names are Ragas' own (the metric's
// name attribute and its dataclass fields), so a Ragas setup reads
// unchanged as a metric entry.
type Options struct {
	// RagasMetric picks Ragas' metric (default ToolCallAccuracy).
	RagasMetric MetricName `json:"ragas_metric"`
	// StrictOrder is ToolCallAccuracy's strict_order: nil means Ragas'
	// default, true (calls compared position by position); false sorts
	// both lists before comparing them. ToolCallF1 has no such option, and
	// giving one is an error, as Ragas' constructor raises.
	StrictOrder *bool `json:"strict_order"`
	// Threshold is a pass mark, which Ragas does not have: nil (the
	// default) gives scores only, with no verdict.
	Threshold *float64 `json:"threshold"`
}

// Metric scores a case as Ragas' ToolCallAccuracy or ToolCallF1 scores a
// MultiTurnSample.
//
// The sample's conversation (user_input) is the case's trajectory when it
// is a list of Ragas messages, else a human message with the case's input
// and one ai message carrying the called calls; its reference_tool_calls
// are the expected calls. A sample Ragas would refuse gives an error
// result naming the exception: ValidationError (content that is not a
// string, a tool message that follows no ai message with tool calls,
// arguments that are not an object, ...), AssertionError
// (ToolCallAccuracy without reference_tool_calls), TypeError (ToolCallF1
// on a list or object argument value, which it cannot hash).
//
// ToolCallAccuracy: no calls and no reference score 1; no calls, or an
// empty reference, 0. Without strict order both lists are sorted by name
// and then by each argument name and the str() of its value. The name
// sequences must then be equal, else the score is 0. Otherwise the calls
// are zipped in order and each pair with equal names scores the share of
// the reference's argument keys whose values print the same with Python's
// str() (1, 1.0, True and "1" all differ; an argument the call lacks
// scores 0; no reference arguments score 1 if the call has none, else 0).
// The sum is divided by the number of reference calls, and multiplied by
// the share of them the zip reached when fewer calls were made.
//
// ToolCallF1: the calls and the reference become sets of (name, argument
// items): duplicates collapse, argument order never matters, and values
// compare with Python's == (1 == 1.0 == True). F1 of the true positives,
// false positives and false negatives, rounded to 4 decimals as Python's
// round does; no calls and no reference score 0.
type Metric struct {
	metric    MetricName
	strict    bool
	threshold *float64
}

// New checks the options and returns the metric.
func New(opts Options) (*Metric, error) {
	m := &Metric{metric: opts.RagasMetric, strict: true, threshold: opts.Threshold}
	if m.metric == "" {
		m.metric = ToolCallAccuracy
	}
	switch m.metric {
	case ToolCallAccuracy:
		if opts.StrictOrder != nil {
			m.strict = *opts.StrictOrder
		}
	case ToolCallF1:
		if opts.StrictOrder != nil {
			return nil, &toolgrade.OptionError{Option: "strict_order", Value: fmt.Sprint(*opts.StrictOrder),
				Err: errors.New("tool_call_f1 has no strict_order (it compares sets; Ragas' ToolCallF1 takes no such argument)")}
		}
	default:
		return nil, &toolgrade.OptionError{Option: "ragas_metric", Value: string(opts.RagasMetric), Allowed: []string{string(ToolCallAccuracy), string(ToolCallF1)}}
	}
	if t := opts.Threshold; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 1) {
		return nil, &toolgrade.OptionError{Option: "threshold", Value: fmt.Sprint(*t), Err: fmt.Errorf("%v is not between 0 and 1", *t)}
	}
	return m, nil
}

// Name returns Ragas' name of the metric: "tool_call_accuracy" or
// "tool_call_f1".
func (m *Metric) Name() string { return string(m.metric) }

// Profile returns "ragas".
func (m *Metric) Profile() string { return "ragas" }

// CaseFields returns the fields the metric reads: the sample's input,
// calls (or conversation) and reference.
func (m *Metric) CaseFields() []string {
	return []string{"input", "tools_called", "expected_tools", "trajectory", "reference"}
}

// Grade scores the case as Ragas would.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	s, err := buildSample(c)
	if err != nil {
		r.Fail(err)
		return r
	}
	if m.metric == ToolCallF1 {
		err = m.f1(s, &r)
	} else {
		err = m.accuracy(s, &r)
	}
	if err != nil {
		r.Fail(err)
		return r
	}
	if m.threshold != nil {
		r.Threshold = toolgrade.Float(*m.threshold)
		r.Success = r.Score >= *m.threshold
	}
	return r
}

// accuracy is ToolCallAccuracy's _multi_turn_ascore.
func (m *Metric) accuracy(s *sample, r *toolgrade.MetricResult) error {
	if s.refNone {
		return errors.New("AssertionError: Reference tool calls is not set: Ragas' ToolCallAccuracy needs reference_tool_calls (give [] for none)")
	}
	pred, ref := indexed(s.called), indexed(s.ref)
	switch {
	case len(pred) == 0 && len(ref) == 0:
		r.Score, r.Reason = 1, "no tool calls made and none in reference_tool_calls"
		r.Matches, r.Missing, r.Unexpected = []toolgrade.Match{}, []int{}, []int{}
		return nil
	case len(pred) == 0:
		r.Score = 0
		r.Reason = fmt.Sprintf("no tool calls found in the ai messages; reference_tool_calls has %d", len(ref))
		r.Matches, r.Missing, r.Unexpected = []toolgrade.Match{}, indices(len(ref)), []int{}
		return nil
	case len(ref) == 0:
		r.Score = 0
		r.Reason = fmt.Sprintf("reference_tool_calls is empty but %d tool calls were made", len(pred))
		r.Matches, r.Missing, r.Unexpected = []toolgrade.Match{}, []int{}, indices(len(pred))
		return nil
	}
	if !m.strict {
		sortCalls(pred)
		sortCalls(ref)
	}
	predNames, refNames := names(pred), names(ref)
	aligned := slices.Equal(predNames, refNames)
	if !m.strict {
		aligned = slices.Equal(sorted(predNames), sorted(refNames))
	}
	var parts []string
	score := 0.0
	compared := min(len(pred), len(ref))
	r.Matches = []toolgrade.Match{}
	for k := range compared {
		rc, pc := ref[k], pred[k]
		if rc.name != pc.name {
			continue
		}
		arg, diffs, why := argScore(pc.args, rc.args)
		score += arg
		r.Matches = append(r.Matches, toolgrade.Match{Expected: rc.i, Called: pc.i, Score: arg, Diffs: diffs})
		if why != "" {
			parts = append(parts, fmt.Sprintf("%s vs %s: %s", pc.where, rc.where, why))
		}
	}
	score /= float64(len(ref))
	if compared < len(ref) {
		score *= float64(compared) / float64(len(ref))
	}
	if !aligned {
		score *= 0
	}
	r.Score = score
	r.Missing, r.Unexpected = toolgrade.Unpaired(r.Matches, len(ref), len(pred))

	var head string
	order := "in order (strict_order)"
	if !m.strict {
		order = "after sorting both lists by name and arguments (strict_order false)"
	}
	if !aligned {
		head = fmt.Sprintf("sequence not aligned: called %s vs reference %s %s, so the score is 0", fmtNames(predNames), fmtNames(refNames), order)
		if !m.strict {
			head = fmt.Sprintf("sequence not aligned: the called names %s are not the reference's %s in any order, so the score is 0", fmtNames(sorted(predNames)), fmtNames(sorted(refNames)))
		}
	} else {
		head = fmt.Sprintf("sequence aligned: %d calls compared %s; score = summed argument accuracy / %d reference calls = %s", compared, order, len(ref), fmtFloat(score))
	}
	if len(pred) != len(ref) {
		head += fmt.Sprintf("; length mismatch: %d calls made, %d in the reference: only the first %d are compared", len(pred), len(ref), compared)
		if compared < len(ref) {
			head += fmt.Sprintf(", and the score is multiplied by %d/%d besides dividing by the reference length (a double penalty)", compared, len(ref))
		}
	}
	for k := range compared {
		if ref[k].name != pred[k].name && aligned {
			parts = append(parts, fmt.Sprintf("%s %q vs %s %q: names differ, 0", pred[k].where, pred[k].name, ref[k].where, ref[k].name))
		}
	}
	r.Reason = strings.Join(append([]string{head}, parts...), "; ")
	return nil
}

// argScore is ToolCallAccuracy's _get_arg_score with ExactMatch: the share
// of the reference's argument keys whose value the call gives with the
// same str(). It returns the differences and a sentence on them.
func argScore(pred, ref jsonvalue.Object) (float64, []toolgrade.ArgDiff, string) {
	if len(ref) == 0 {
		if len(pred) == 0 {
			return 1, nil, ""
		}
		return 0, []toolgrade.ArgDiff{{Path: "args", Expected: jsonvalue.Object{}, Got: pred, Note: "reference has no arguments"}},
			"the reference has no arguments but the call has some, so the pair scores 0"
	}
	score := 0.0
	var diffs []toolgrade.ArgDiff
	var why []string
	for _, e := range ref {
		pv, ok := pred.Get(e.Key)
		if !ok {
			diffs = append(diffs, toolgrade.ArgDiff{Path: e.Key, Expected: e.Value, Note: "missing"})
			why = append(why, fmt.Sprintf("argument %q missing", e.Key))
			continue
		}
		ps, rs := pyStr(pv), pyStr(e.Value)
		if ps == rs {
			score++
			continue
		}
		diffs = append(diffs, toolgrade.ArgDiff{Path: e.Key, Expected: e.Value, Got: pv, Note: "str() differs"})
		why = append(why, fmt.Sprintf("argument %q compared as %s vs %s (called vs reference, as Python's str() prints them)", e.Key, pyRepr(ps), pyRepr(rs)))
	}
	arg := score / float64(len(ref))
	if len(why) == 0 {
		return arg, nil, ""
	}
	return arg, diffs, strings.Join(why, ", ") + fmt.Sprintf(" (argument accuracy %s)", fmtFloat(arg))
}

// f1 is ToolCallF1's _multi_turn_ascore.
func (m *Metric) f1(s *sample, r *toolgrade.MetricResult) error {
	refKeys, err := callKeys(s.ref)
	if err != nil {
		return err
	}
	predKeys, err := callKeys(s.called)
	if err != nil {
		return err
	}
	// Group each side by key, in first-seen order.
	type group struct{ ref, pred []int }
	groups := map[string]*group{}
	var order []string
	add := func(k string) *group {
		g, ok := groups[k]
		if !ok {
			g = &group{}
			groups[k] = g
			order = append(order, k)
		}
		return g
	}
	for i, k := range refKeys {
		g := add(k)
		g.ref = append(g.ref, i)
	}
	for i, k := range predKeys {
		g := add(k)
		g.pred = append(g.pred, i)
	}
	tp, fp, fn := 0, 0, 0
	r.Matches = []toolgrade.Match{}
	var notes []string
	for _, k := range order {
		g := groups[k]
		switch {
		case len(g.ref) > 0 && len(g.pred) > 0:
			tp++
			for i := range max(len(g.ref), len(g.pred)) {
				e, c := g.ref[min(i, len(g.ref)-1)], g.pred[min(i, len(g.pred)-1)]
				r.Matches = append(r.Matches, toolgrade.Match{Expected: e, Called: c, Score: 1})
			}
			if !jsonvalue.Equal(s.called[g.pred[0]].args, s.ref[g.ref[0]].args) {
				notes = append(notes, fmt.Sprintf("%s %s equals %s %s by Python's == (1 == 1.0 == True)",
					s.called[g.pred[0]].where, fmtCall(s.called[g.pred[0]]), s.ref[g.ref[0]].where, fmtCall(s.ref[g.ref[0]])))
			}
		case len(g.pred) > 0:
			fp++
		default:
			fn++
		}
		if len(g.pred) > 1 {
			notes = append(notes, fmt.Sprintf("%d equal calls %s collapsed by F1 into one", len(g.pred), fmtWheres(s.called, g.pred)))
		}
		if len(g.ref) > 1 {
			notes = append(notes, fmt.Sprintf("%d equal reference calls %s collapsed by F1 into one", len(g.ref), fmtWheres(s.ref, g.ref)))
		}
	}
	precision, recall, f1 := 0.0, 0.0, 0.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	r.Score = pyRound4(f1)
	r.Precision, r.Recall, r.F1 = &precision, &recall, &f1
	r.SetDetail(toolgrade.Components{"tp": float64(tp), "fp": float64(fp), "fn": float64(fn)})
	r.Missing, r.Unexpected = toolgrade.Unpaired(r.Matches, len(s.ref), len(s.called))
	head := fmt.Sprintf("sets of (name, arguments): %d true positives, %d false positives, %d false negatives; precision %s, recall %s, F1 %s rounded to 4 decimals: %s",
		tp, fp, fn, fmtFloat(precision), fmtFloat(recall), fmtFloat(f1), strconv.FormatFloat(r.Score, 'g', -1, 64))
	if tp+fp+fn == 0 {
		head = "no tool calls made and none in reference_tool_calls: ToolCallF1 scores 0"
	}
	for _, i := range r.Missing {
		notes = append(notes, fmt.Sprintf("%s %s not called", s.ref[i].where, fmtCall(s.ref[i])))
	}
	for _, j := range r.Unexpected {
		notes = append(notes, fmt.Sprintf("%s %s not in the reference", s.called[j].where, fmtCall(s.called[j])))
	}
	r.Reason = strings.Join(append([]string{head}, notes...), "; ")
	return nil
}

// callKeys returns each call's key in ToolCallF1's sets: equal keys for
// calls whose (name, frozenset(args.items())) are equal. A list or object
// argument value raises TypeError, as hashing it does in Python; the
// reference is hashed first.
func callKeys(calls []call) ([]string, error) {
	keys := make([]string, len(calls))
	for i, c := range calls {
		items := make([]string, 0, len(c.args))
		for _, m := range c.args {
			h, ok := hashKey(m.Value)
			if !ok {
				return nil, fmt.Errorf("TypeError: unhashable type: '%s': Ragas' ToolCallF1 puts argument values in a set, and %s.args[%q] is a %s", h, c.where, m.Key, h)
			}
			items = append(items, strconv.Quote(m.Key)+"="+strconv.Quote(h))
		}
		slices.Sort(items)
		keys[i] = strconv.Quote(c.name) + "(" + strings.Join(items, ",") + ")"
	}
	return keys, nil
}

// pyRound4 is Python's round(f, 4): the float nearest to f correctly
// rounded to 4 decimals, halves to even.
func pyRound4(f float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 4, 64), 64)
	return r
}

// An icall is a call with its index in the case's list.
type icall struct {
	call
	i int
}

func indexed(calls []call) []icall {
	out := make([]icall, len(calls))
	for i, c := range calls {
		out[i] = icall{c, i}
	}
	return out
}

// sortCalls sorts calls stably by ToolCallAccuracy's key: the name, then
// each argument name in sorted order followed by str() of its value.
func sortCalls(calls []icall) {
	keys := make(map[int][]string, len(calls))
	for _, c := range calls {
		keys[c.i] = sortKey(c.call)
	}
	sorting.Stable(calls, func(a, b icall) int { return slices.Compare(keys[a.i], keys[b.i]) })
}

func sortKey(c call) []string {
	argNames := c.args.Keys()
	slices.Sort(argNames)
	argNames = slices.Compact(argNames)
	key := []string{c.name}
	for _, n := range argNames {
		v, _ := c.args.Get(n)
		key = append(key, n, pyStr(v))
	}
	return key
}

func names(calls []icall) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.name
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func fmtNames(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = pyRepr(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func fmtCall(c call) string { return c.name + pyRepr(c.args) }

func fmtWheres(calls []call, idx []int) string {
	parts := make([]string, len(idx))
	for i, j := range idx {
		parts[i] = calls[j].where
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }
