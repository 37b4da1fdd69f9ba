// Package state provides the state_match metric: whether the environment
// ended in the state it should have, as τ-bench grades an agent by the
// database its actions left rather than by the calls it made. A case
// gives expected_state and final_state, any JSON (a database dump, a
// file tree, a cart), and the metric compares them value by value,
// reporting each difference with its JSONPath ($.orders[0].status).
//
// Paths in the metric's options and in a case's state_rules are JSONPath
// expressions of the subset [ParsePath] reads; [Metric] states how values
// are compared and scored. docs/state.md explains it with an example.
//
// Non-goals: fetching the states (a case gives both, as the run recorded
// them), and judging how the agent got there, which the call metrics and
// package process do.
package state

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Options configure the state_match metric ([New]). The JSON names are
// the keys of a metric entry with metric: state_match; zero values mean
// the defaults.
type Options struct {
	// Ignore lists JSONPaths whose values are not compared: present or
	// absent on either side, they count for nothing. Each is a rule
	// {"ignore": true}.
	Ignore []string `json:"ignore,omitempty"`
	// Unordered lists JSONPaths of lists compared as multisets: in any
	// order (see [Metric]). Each is a rule {"unordered": true}.
	Unordered []string `json:"unordered,omitempty"`
	// Rules loosen or tighten how values are compared, per JSONPath: an
	// object from path to rule object, such as {"$.orders[*].total":
	// {"approx": 100, "tol": 0.5}}; see [Rules].
	Rules Rules `json:"rules,omitempty"`
	// Threshold is the pass mark for the score, in [0, 1] (default 1:
	// the final state must equal the expected one).
	Threshold *float64 `json:"threshold,omitempty"`
}

// DefaultThreshold is the pass mark when none is set: every value
// compared matches.
const DefaultThreshold = 1.0

// ErrNoState is the error of a case that gives neither expected_state nor
// final_state.
var ErrNoState = errors.New("the case gives no expected_state and no final_state for state_match to compare")

// maxReasonDiffs is how many differences a reason lists.
const maxReasonDiffs = 10

// Metric is the state_match metric.
//
// # Comparison
//
// The expected and final states are walked together from the top. Objects
// compare member by member, whatever the members' order; lists compare
// element by element, by position, unless an unordered entry selects them
// (then as multisets: equal elements pair first, the rest pair to match
// as many values as they can). Scalars compare as JSON values: 1 equals
// 1.0, "1" is not 1, true is not 1, null is a value unlike an absent
// member.
//
// A value counts as one when it is a scalar, an empty object or list, or
// an object or list whose members are all ignored, or when a rule with a
// condition (one_of, regex, approx, tol, fuzzy, type) selects it: the
// rule then judges it whole. A member or element present on one side only
// is one difference, "missing" or "unexpected", that counts every value
// under it, unmatched; so does a value whose kind differs (an object
// where a list is expected). Expected and final values at the same place
// that differ are one difference each.
//
// # Rules and paths
//
// Entries come from the options — Ignore, Unordered, then Rules — and
// then from the case's state_rules (an object like Rules), in that order.
// A value's rule is that of the last entry with a rule whose path selects
// it; so a case's rule wins over the options' for the same value, and
// {"ignore": false} (or {}) undoes an earlier ignore. A list's order is
// likewise set by the last entry that says "unordered". What a rule
// does:
//
//   - ignore: the value, and everything under it, is not compared.
//   - optional: the value may be absent or null in the final state, and
//     may appear there when not expected; present on both sides, it is
//     compared as usual.
//   - one_of, regex, approx, tol, fuzzy, type: the final value must
//     satisfy every condition given, as for arguments ([toolgrade.Rule]);
//     tol without approx is around the expected number. Absent from the
//     final state, it is missing.
//
// Rules apply only to values present on at least one side: to require a
// value, put it in expected_state.
//
// # Score
//
// The score is the share of values that match: matched / counted, where
// counted holds every value of the expected state and every value of the
// final state that the expected one lacks (after ignores), so extra
// values count against it. Nothing counted (all ignored) scores 1. With
// the default threshold of 1 a case passes only when the states are
// equal under the rules.
//
// # Results
//
// Diffs holds one [toolgrade.ArgDiff] per difference, in the order of the
// expected state (a value the final state adds comes after the expected
// members of its object): Path is the location as a JSONPath, Expected
// and Got the values (nil for the side that lacks it), and Note
// "missing", "unexpected", the condition that failed ("does not match
// /^ord_/"), or "" for values that are simply unequal. In an unordered
// list, paired and missing elements are located by their index in the
// expected state, unexpected ones by their index in the final state.
// Reason says how many values differ and lists the first differences.
//
// A case with neither state fails with [ErrNoState]; a case with one of
// them only fails with a *toolgrade.FieldError naming the other. A null
// state counts as not given. A malformed state_rules fails with a
// *toolgrade.FieldError naming the rule (state_rules["$.x"].regex).
type Metric struct {
	opts      Options
	entries   []entry
	threshold float64
}

// New checks the options and returns the metric. A malformed path or rule
// is an *toolgrade.OptionError naming it ("ignore[1]",
// `rules["$.x"].regex`), as is a threshold outside [0, 1].
func New(opts Options) (*Metric, error) {
	m := &Metric{opts: opts, threshold: DefaultThreshold}
	for i, s := range opts.Ignore {
		p, err := ParsePath(s)
		if err != nil {
			return nil, &toolgrade.OptionError{Option: "ignore[" + strconv.Itoa(i) + "]", Value: s, Err: err}
		}
		m.entries = append(m.entries, entry{path: p}.withRule(toolgrade.Rule{Ignore: true}))
	}
	yes := true
	for i, s := range opts.Unordered {
		p, err := ParsePath(s)
		if err != nil {
			return nil, &toolgrade.OptionError{Option: "unordered[" + strconv.Itoa(i) + "]", Value: s, Err: err}
		}
		m.entries = append(m.entries, entry{path: p, unordered: &yes})
	}
	if len(opts.Rules) > 0 {
		v, err := jsonvalue.From(jsonvalue.Object(opts.Rules))
		if err != nil {
			return nil, &toolgrade.OptionError{Option: "rules", Err: err}
		}
		entries, err := readRules(v.(jsonvalue.Object))
		if err != nil {
			oe := &toolgrade.OptionError{Option: "rules", Err: err}
			var fe *toolgrade.FieldError
			if errors.As(err, &fe) {
				oe.Option, oe.Err = "rules"+fe.Path, fe.Err
			}
			return nil, oe
		}
		m.entries = append(m.entries, entries...)
	}
	var err error
	if m.threshold, err = toolgrade.Threshold(opts.Threshold, DefaultThreshold); err != nil {
		return nil, err
	}
	return m, nil
}

// Options returns the metric's options with every default filled in, the
// threshold included.
func (m *Metric) Options() Options {
	o := m.opts
	o.Threshold = toolgrade.Float(m.threshold)
	return o
}

// Name returns "state_match".
func (m *Metric) Name() string { return "state_match" }

// Profile returns "default".
func (m *Metric) Profile() string { return "default" }

// CaseFields returns the fields the metric reads: the states and their
// rules.
func (m *Metric) CaseFields() []string {
	return []string{"expected_state", "final_state", "state_rules"}
}

// Grade compares the case's final state with its expected state. It
// reads both, and the case's state_rules, from the record's fields of
// those names ([toolgrade.Case.Raw]).
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	expected, _ := c.Raw.Get("expected_state")
	final, _ := c.Raw.Get("final_state")
	rules, _ := c.Raw.Get("state_rules")
	switch {
	case expected == nil && final == nil:
		r.Fail(ErrNoState)
		return r
	case expected == nil:
		r.Fail(&toolgrade.FieldError{Path: "expected_state", Err: errors.New("missing: the case gives final_state but not the expected_state to compare it with")})
		return r
	case final == nil:
		r.Fail(&toolgrade.FieldError{Path: "final_state", Err: errors.New("missing: the case gives expected_state but not the final_state to compare with it")})
		return r
	}
	var values [3]any
	for i, f := range []struct {
		name string
		v    any
	}{{"expected_state", expected}, {"final_state", final}, {"state_rules", rules}} {
		v, err := jsonvalue.From(f.v)
		if err != nil {
			r.Fail(&toolgrade.FieldError{Path: f.name, Err: err})
			return r
		}
		values[i] = v
	}
	entries := m.entries
	if values[2] != nil {
		obj, ok := values[2].(jsonvalue.Object)
		if !ok {
			r.Fail(&toolgrade.FieldError{Path: "state_rules", Err: fmt.Errorf("want an object from JSONPath to rule, got %s", jsonvalue.Kind(values[2]))})
			return r
		}
		own, err := readRules(obj)
		if err != nil {
			r.Fail(toolgrade.InField("state_rules", err))
			return r
		}
		entries = append(entries[:len(entries):len(entries)], own...)
	}
	w := walker{entries: entries, collect: true}
	w.node(values[0], true, values[1], true)
	r.Score = 1
	if w.units > 0 {
		r.Score = float64(w.matched) / float64(w.units)
	}
	r.Success = r.Score >= m.threshold
	if w.diffs != nil {
		r.SetDetail(toolgrade.Diffs(w.diffs))
	}
	r.Reason = reason(w.units, w.matched, w.diffs)
	return r
}

// reason says how many values differ, then lists the first differences,
// joined with "; ".
func reason(units, matched int, diffs []toolgrade.ArgDiff) string {
	switch {
	case units == 0:
		return "state matches: no values compared (all ignored)"
	case len(diffs) == 0 && units == 1:
		return "state matches at its 1 value"
	case len(diffs) == 0:
		return "state matches at all " + strconv.Itoa(units) + " values"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "state differs at %d of %d values: ", units-matched, units)
	for i, d := range diffs {
		if i == maxReasonDiffs {
			fmt.Fprintf(&b, "; and %d more differences", len(diffs)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(describe(d))
	}
	return b.String()
}

// describe writes one difference in words.
func describe(d toolgrade.ArgDiff) string {
	switch d.Note {
	case "missing":
		return d.Path + " missing (expected " + jsonvalue.Format(d.Expected) + ")"
	case "unexpected":
		return d.Path + " unexpected (got " + jsonvalue.Format(d.Got) + ")"
	case "":
		return d.Path + " expected " + jsonvalue.Format(d.Expected) + ", got " + jsonvalue.Format(d.Got)
	}
	return d.Path + " got " + jsonvalue.Format(d.Got) + ": " + d.Note
}
