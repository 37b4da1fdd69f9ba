package adk

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/compat/internal/python"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Options configure [Metric]. The JSON names are those of Google ADK's
// ToolTrajectoryCriterion, so an ADK criterion works unchanged as a metric
// entry.
type Options struct {
	// MatchType says how an invocation's calls match (default
	// MatchExact).
	MatchType MatchType `json:"match_type"`
	// Threshold is the pass mark for the mean over invocations; nil means
	// 1.0, the threshold of ADK's default configuration.
	Threshold *float64 `json:"threshold"`
}

// A MatchType is ADK's ToolTrajectoryCriterion match type. As in ADK, a
// name is trimmed, upper-cased and has "-" and " " read as "_" ("in-order",
// " Exact ", "Any Order"), and in JSON the enum numbers 0, 1 and 2 name
// the three types. Anything else is rejected, as ADK's ValidationError
// rejects "FUZZY", "INORDER" or 3.
type MatchType string

const (
	// MatchExact needs the same number of calls, matching position by
	// position.
	MatchExact MatchType = "EXACT"
	// MatchInOrder needs the expected calls as a subsequence of the called
	// ones.
	MatchInOrder MatchType = "IN_ORDER"
	// MatchAnyOrder needs each expected call to take a distinct matching
	// called call.
	MatchAnyOrder MatchType = "ANY_ORDER"
)

// UnmarshalJSON reads a match type as ADK's criterion does: a name in any
// spelling above, or an enum number.
func (t *MatchType) UnmarshalJSON(b []byte) error {
	v, err := jsonvalue.Parse(b)
	if err != nil {
		return err
	}
	name, err := matchType(v)
	if err != nil {
		return fmt.Errorf("match_type: %w", err)
	}
	*t = MatchType(name)
	return nil
}

// Metric reproduces Google ADK's tool_trajectory_avg_score
// (TrajectoryEvaluator, google/adk-python @ d0aef8a4, ADK 1.22.1).
//
// A case holds one or more invocations (conversation turns), each with its
// own called and expected calls; the case's "invocations" field lists them
// as {"tools_called", "expected_tools"} objects. A case without that field
// is one invocation made of its own calls. Each invocation scores 1 or 0:
//
//   - EXACT: the same number of calls, matching position by position;
//   - IN_ORDER: the expected calls appear in the called ones as a
//     subsequence (extra calls anywhere); nothing expected scores 1;
//   - ANY_ORDER: each expected call takes a distinct matching called call
//     (duplicates must be called as often as expected); nothing expected
//     scores 1.
//
// Two calls match when their names are equal and their arguments are equal
// by Python's == (1 == 1.0 == true; null arguments differ from {}). The
// score is the mean over invocations, and the case passes when it reaches
// the threshold. The per-invocation scores are in the result's components,
// as invocation_0, invocation_1, ...
//
// A case with no invocations gets no score from ADK (NOT_EVALUATED); here
// it is an error result, toolgrade's only form of a result without a score.
type Metric struct {
	matchType string
	threshold float64
}

// New checks the options and returns the metric.
func New(opts Options) (*Metric, error) {
	var mt any
	if opts.MatchType != "" {
		mt = string(opts.MatchType)
	}
	t, err := matchType(mt)
	if err != nil {
		return nil, &toolgrade.OptionError{Option: "match_type", Value: string(opts.MatchType), Err: err}
	}
	m := &Metric{matchType: t, threshold: 1}
	if opts.Threshold != nil {
		m.threshold = *opts.Threshold
	}
	return m, nil
}

var matchTypes = []string{"EXACT", "IN_ORDER", "ANY_ORDER"} // by enum number

// matchType reads a match type as ADK's criterion does.
func matchType(v any) (string, error) {
	bad := func() (string, error) {
		return "", fmt.Errorf("ValidationError: %s is not a match type (want EXACT, IN_ORDER or ANY_ORDER in any case, with \"-\" or \" \" for \"_\", or 0, 1, 2)", jsonvalue.Format(v))
	}
	var n float64
	switch v := v.(type) {
	case nil:
		return "EXACT", nil
	case string:
		// strings.ToUpper maps single code points where Python's upper can
		// expand one to several ("ß" to "SS"), but no expansion spells a
		// match type, so both accept the same strings.
		s := strings.ToUpper(python.Strip(v))
		s = strings.NewReplacer("-", "_", " ", "_").Replace(s)
		for _, t := range matchTypes {
			if s == t {
				return t, nil
			}
		}
		return bad()
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return bad()
		}
		n = f
	case float64:
		n = v
	case int:
		n = float64(v)
	default:
		return bad()
	}
	if n != 0 && n != 1 && n != 2 {
		return bad()
	}
	return matchTypes[int(n)], nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "adk".
func (m *Metric) Profile() string { return "adk" }

// CaseFields returns the fields the metric reads: ADK's invocations, or
// the calls.
func (m *Metric) CaseFields() []string {
	return []string{"invocations", "tools_called", "expected_tools"}
}

// An invocation is one conversation turn's calls.
type invocation struct {
	called, expected []toolgrade.Call
}

// Grade scores the case as ADK would.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	invs, err := invocations(c)
	if err != nil {
		r.Fail(err)
		return r
	}
	if len(invs) == 0 {
		r.Error = "not evaluated: the case has no invocations (ADK reports NOT_EVALUATED and no score)"
		return r
	}
	comps := make(toolgrade.Components, len(invs))
	total := 0.0
	var notes []string
	for i, inv := range invs {
		score, why := 0.0, m.check(inv)
		if why == "" {
			score = 1
		} else {
			notes = append(notes, fmt.Sprintf("invocation %d: %s", i, why))
		}
		comps["invocation_"+strconv.Itoa(i)] = score
		total += score
	}
	r.SetDetail(comps)
	r.Score = total / float64(len(invs))
	r.Threshold = toolgrade.Float(m.threshold)
	r.Success = r.Score >= m.threshold
	r.Reason = fmt.Sprintf("%d of %d invocations match (%s)", len(invs)-len(notes), len(invs), m.matchType)
	if len(notes) > 0 {
		r.Reason += ": " + strings.Join(notes, "; ")
	}
	return r
}

// invocations reads the case's invocations, or makes one of its own
// calls when it has no "invocations" field.
func invocations(c *toolgrade.Case) ([]invocation, error) {
	v, ok := c.Raw.Get("invocations")
	if !ok || v == nil {
		if err := checkArgs(c.Called, "tools_called"); err != nil {
			return nil, err
		}
		if err := checkArgs(c.Expected, "expected_tools"); err != nil {
			return nil, err
		}
		return []invocation{{called: c.Called, expected: c.Expected}}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, &toolgrade.FieldError{Path: "invocations", Err: fmt.Errorf("want a list of invocations, got %s", jsonvalue.Kind(v))}
	}
	invs := make([]invocation, len(list))
	for i, e := range list {
		path := "invocations[" + strconv.Itoa(i) + "]"
		obj, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, &toolgrade.FieldError{Path: path, Err: fmt.Errorf("want an invocation object, got %s", jsonvalue.Kind(e))}
		}
		for _, side := range []struct {
			key string
			dst *[]toolgrade.Call
		}{{"tools_called", &invs[i].called}, {"expected_tools", &invs[i].expected}} {
			raw, _ := obj.Get(side.key)
			calls, err := compat.DecodeCalls(raw)
			if err == nil {
				err = checkArgs(calls, "")
			}
			if err != nil {
				return nil, toolgrade.InField(path+"."+side.key, err)
			}
			*side.dst = calls
		}
	}
	return invs, nil
}

// checkArgs rejects arguments ADK's FunctionCall cannot hold: anything
// but an object or null.
func checkArgs(calls []toolgrade.Call, field string) error {
	for i := range calls {
		if _, what := python.Dict(&calls[i]); what != "" && what != "null" {
			return toolgrade.InField(field, &toolgrade.FieldError{Path: "[" + strconv.Itoa(i) + "].args",
				Err: fmt.Errorf("ValidationError: arguments are %s; ADK needs an object or null", what)})
		}
	}
	return nil
}

func same(a, b *toolgrade.Call) bool {
	return a.Name == b.Name && python.Equal(a.Args, b.Args)
}

// check matches one invocation and returns why it fails, or "".
func (m *Metric) check(inv invocation) string {
	got, exp := inv.called, inv.expected
	switch m.matchType {
	case "EXACT":
		if len(got) != len(exp) {
			return fmt.Sprintf("%d calls made, %d expected", len(got), len(exp))
		}
		for i := range exp {
			if !same(&got[i], &exp[i]) {
				return fmt.Sprintf("call %d: expected %s, got %s", i, &exp[i], &got[i])
			}
		}
	case "IN_ORDER":
		k := 0 // the next expected call to find
		for j := 0; j < len(got) && k < len(exp); j++ {
			if same(&got[j], &exp[k]) {
				k++
			}
		}
		if k < len(exp) {
			return fmt.Sprintf("expected call %d %s not made in order after the ones before it", k, &exp[k])
		}
	case "ANY_ORDER":
		used := make([]bool, len(got))
	next:
		for i := range exp {
			for j := range got {
				if !used[j] && same(&got[j], &exp[i]) {
					used[j] = true
					continue next
				}
			}
			return fmt.Sprintf("expected call %d %s not made (or not as often as expected)", i, &exp[i])
		}
	}
	return ""
}
