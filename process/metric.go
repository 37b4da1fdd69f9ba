// Package process provides the tool_process metric: reference-free rules
// about the order and number of an agent's calls, which a trajectory whose
// every call looks right can still break — τ-bench's policies such as
// "get the user's confirmation before each action that changes their
// data" or "nothing after a hand-off to a human".
//
// Rules come from the metric's options (a config entry's rules) and from
// each case (its process field); both apply. [ParseRules] reads them and
// [Rule.Check] states what each kind means; docs/process.md explains them
// with examples.
//
// Non-goals: whether each call was right (tool_correctness), the values
// of arguments beyond telling a repeated call, and policies in prose, which
// need a judge.
package process

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// Options configure the tool_process metric ([New]). The JSON names are
// the keys of a metric entry with metric: tool_process; zero values mean
// the defaults.
type Options struct {
	// Rules are the process rules every case must keep, as written (see
	// [ParseRules]); a case's own rules (its process field) are checked
	// after them.
	Rules RuleList `json:"rules,omitempty"`
	// Threshold is the pass mark for the score, the share of rules kept
	// (default 1: one broken rule fails the case).
	Threshold *float64 `json:"threshold,omitempty"`
	// Tools are the run's tool definitions (--tools), for the cases that
	// give none of their own. With the case's tools and its expected
	// calls, they are the names a rule's tools are checked against.
	Tools []toolgrade.Tool `json:"-"`
}

// A RuleList is a list of process rules as written: each item a mapping
// of one rule key to its value, or the string "no_repeat", in the JSON
// value model or as ordinary Go values ([ParseRules] reads it). It decodes
// from JSON with package jsonvalue, so that mappings keep their order and
// numbers their spelling.
type RuleList []any

// UnmarshalJSON reads a JSON list, or null for none.
func (l *RuleList) UnmarshalJSON(data []byte) error {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return err
	}
	switch v := v.(type) {
	case nil:
		*l = nil
	case []any:
		*l = v
	default:
		return fmt.Errorf("rules: want a list of rules, got %s", jsonvalue.Kind(v))
	}
	return nil
}

// DefaultThreshold is the pass mark when none is set: every rule kept.
const DefaultThreshold = 1.0

// Metric is the tool_process metric. It checks the rules of its options
// and then those of the case's process field against the case's called
// calls (see [Rule.Check]); the result's Rules hold one verdict per rule,
// in that order, and Score is the share of rules kept. A case with no
// rules at all scores 1, with the reason "no process rules": there is
// nothing it broke. A case whose process rules are malformed gets an
// error result naming the rule ("process[1].at_most").
//
// A rule that names a tool no known tool has would be kept whatever the
// agent does (never: [cancl_order]), so the names are checked against the
// tools the case knows of: its available_tools, the run's tools
// ([Options.Tools]) and its expected calls. A name or glob that none of
// them has is an error result naming the rule and the nearest tool; when
// there is no tool list at all, the reason says the names could not be
// checked.
type Metric struct {
	opts      Options
	rules     []Rule
	threshold float64
}

// New reads the options' rules and returns the metric. A malformed rule is
// an *toolgrade.OptionError naming it ("rules[2].before").
func New(opts Options) (*Metric, error) {
	m := &Metric{opts: opts, threshold: DefaultThreshold}
	rules, err := ParseRules([]any(opts.Rules))
	if err != nil {
		oe := &toolgrade.OptionError{Option: "rules", Err: err}
		var fe *toolgrade.FieldError
		if errors.As(err, &fe) {
			oe.Option += fe.Path
			oe.Err = fe.Err
			if i, ok := itemIndex(fe.Path); ok && i < len(opts.Rules) {
				if v, err := jsonvalue.From(opts.Rules[i]); err == nil {
					oe.Value = jsonvalue.Format(v)
				}
			}
		}
		return nil, oe
	}
	m.rules = rules
	if m.threshold, err = toolgrade.Threshold(opts.Threshold, DefaultThreshold); err != nil {
		return nil, err
	}
	return m, nil
}

// itemIndex reads the index of the item a path from ParseRules starts
// with: 2 for "[2].before".
func itemIndex(path string) (int, bool) {
	if len(path) < 3 || path[0] != '[' {
		return 0, false
	}
	end := 1
	for end < len(path) && path[end] != ']' {
		end++
	}
	i, err := strconv.Atoi(path[1:end])
	return i, err == nil
}

// Options returns the metric's options with every default filled in, the
// threshold included.
func (m *Metric) Options() Options {
	o := m.opts
	o.Threshold = toolgrade.Float(m.threshold)
	return o
}

// Name returns "tool_process".
func (m *Metric) Name() string { return "tool_process" }

// Profile returns "default".
func (m *Metric) Profile() string { return "default" }

// CaseFields returns the fields the metric reads: the calls and the
// case's own process rules.
func (m *Metric) CaseFields() []string { return []string{"tools_called", "process"} }

// Grade checks the rules against the case's called calls: the metric's
// rules, then the case's own, which it reads from the record's process
// field ([toolgrade.Case.Raw]).
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	rules := m.rules
	if v, _ := c.Raw.Get("process"); v != nil {
		own, err := ParseRules(v)
		if err != nil {
			r.Fail(toolgrade.InField("process", err))
			return r
		}
		rules = append(slices.Clip(rules), own...)
	}
	unchecked, err := m.checkNames(c, rules, len(m.rules))
	if err != nil {
		r.Fail(err)
		return r
	}
	checks := make(RuleChecks, len(rules))
	kept := 0
	for i, rule := range rules {
		checks[i] = rule.Check(c.Called)
		if checks[i].Kept {
			kept++
		}
	}
	r.SetDetail(checks)
	r.Score = 1
	if len(rules) > 0 {
		r.Score = float64(kept) / float64(len(rules))
	}
	r.Success = r.Score >= m.threshold
	r.Reason = reason(checks, kept)
	if unchecked {
		r.Reason += " (the tools the rules name could not be checked: the case has no available_tools or expected calls and the run no --tools)"
	}
	return r
}

// checkNames checks that every tool a rule names is one the case knows
// of (see [Metric]); the first of rules are the metric's own, the rest
// the case's. It reports whether there was no tool list to check against.
func (m *Metric) checkNames(c *toolgrade.Case, rules []Rule, own int) (unchecked bool, err error) {
	if !slices.ContainsFunc(rules, func(r Rule) bool { return len(r.A)+len(r.B) > 0 }) {
		return false, nil
	}
	tools := m.opts.Tools
	if defs := schema.Definitions(c); defs != nil {
		caseTools, err := schema.Parse(defs)
		if err != nil {
			return false, toolgrade.InField("available_tools", err)
		}
		tools = append(slices.Clip(caseTools), tools...)
	}
	known := make([]string, 0, len(tools)+len(c.Expected))
	for _, t := range tools {
		known = append(known, t.Name)
	}
	for i := range c.Expected {
		known = append(known, c.Expected[i].Name)
	}
	if len(known) == 0 {
		return true, nil
	}
	for i, r := range rules {
		for _, p := range slices.Concat(r.A, r.B) {
			if slices.ContainsFunc(known, Tools{p}.Match) {
				continue
			}
			where := "process"
			if i < own {
				where = "rules"
			}
			what := fmt.Sprintf("no tool is named %q", p)
			if strings.ContainsAny(p, "*?[\\") {
				what = fmt.Sprintf("%q matches no tool", p)
			}
			msg := fmt.Sprintf("rule %s names a tool the case does not know: %s (the tools are those of available_tools, --tools and the expected calls: %s)", r, what, quoteNames(known, 8))
			if near, ok := suggest.Nearest(p, known); ok {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			return false, &toolgrade.FieldError{Path: where, Err: errors.New(msg)}
		}
	}
	return false, nil
}

// quoteNames lists names once each, quoted, at most max of them.
func quoteNames(names []string, max int) string {
	seen := map[string]bool{}
	var q []string
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if len(q) == max {
			q = append(q, "...")
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

// reason sums the verdicts up: how many rules were kept, then each broken
// rule with why, joined with "; ".
func reason(checks RuleChecks, kept int) string {
	n := len(checks)
	switch {
	case n == 0:
		return "no process rules"
	case kept == n && n == 1:
		return "1 process rule kept"
	case kept == n:
		return "all " + strconv.Itoa(n) + " process rules kept"
	}
	var b []byte
	if n == 1 {
		b = append(b, "1 process rule broken"...)
	} else {
		b = strconv.AppendInt(b, int64(n-kept), 10)
		b = append(b, " of "...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, " process rules broken"...)
	}
	for _, rc := range checks {
		if !rc.Kept {
			b = append(b, "; "...)
			b = append(b, rc.Rule...)
			b = append(b, " ("...)
			b = append(b, rc.Reason...)
			b = append(b, ')')
		}
	}
	return string(b)
}
