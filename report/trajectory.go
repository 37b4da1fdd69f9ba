package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/process"
)

// This file gathers what the trajectory metrics say about a case — failed
// and retried calls, turn scores, data-flow links, process rules, and the
// differences that belong to the case (end state, invented values) — in
// one place for every report: a line per case for the summaries, lines
// per failing metric for JUnit, counters for the run, and the HTML
// timeline's material (htmltimeline.go).

// Limits on the trajectory details the reports show.
const (
	trajItems     = 3   // items of one kind in a one-line summary
	trajRule      = 60  // runes of a rule in a one-line summary
	trajLine      = 400 // runes of a case's one-line summary
	trajRuleTypes = 100 // distinct rules counted by name in a run
	junitDetails  = 20  // detail lines of a JUnit failure
	junitDetail   = 300 // runes of one
	summaryRules  = 3   // broken rules named in a run's summary
)

// A trajectory is what a result's metrics say about the case's path.
// Call indexes are those of the case's called calls.
type trajectory struct {
	failed, retried []int // sorted, each once
	turns           match.Turns
	turnsBy         *toolgrade.MetricResult
	flows           match.Flows
	rules           []ruleCheck
	diffs           []caseDiff
}

// A ruleCheck is a process rule's verdict with the metric that checked it.
type ruleCheck struct {
	metric string
	process.RuleCheck
}

// A caseDiff is a difference a metric found in the case as a whole: a
// state value (Path "$.orders[0].status") or an argument value of one call
// (Path "#2 cancel_order.order_id", call 2).
type caseDiff struct {
	metric string // the metric's name
	label  string // its label
	call   int    // the call the path names; -1 for none
	toolgrade.ArgDiff
}

// trajectoryOf collects r's trajectory details from every metric that did
// not err. A failed call is one a metric lists, or one the case marks as
// failed.
func trajectoryOf(r *toolgrade.Result) trajectory {
	var t trajectory
	t.read(r)
	return t
}

// read is trajectoryOf into t, which is zero: a trajectory is large, and
// returned it was copied.
func (t *trajectory) read(r *toolgrade.Result) {
	if r.Case != nil {
		for j := range r.Case.Called {
			if r.Case.Called[j].Failed() {
				t.failed = append(t.failed, j)
			}
		}
	}
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if m.Error != "" {
			continue
		}
		for _, d := range m.Details {
			switch d := d.(type) {
			case match.Failed:
				t.failed = append(t.failed, d...)
			case match.Retried:
				t.retried = append(t.retried, d...)
			case match.Turns:
				if t.turnsBy == nil {
					t.turns, t.turnsBy = d, m
				}
			case match.Flows:
				for _, f := range d { // several metrics may check the same link
					if !slices.Contains(t.flows, f) {
						t.flows = append(t.flows, f)
					}
				}
			case process.RuleChecks:
				for _, rc := range d {
					t.rules = append(t.rules, ruleCheck{Label(m.Name, m.Profile), rc})
				}
			case toolgrade.Diffs:
				for _, d := range d {
					t.diffs = append(t.diffs, caseDiff{metric: m.Name, label: Label(m.Name, m.Profile), call: diffCall(d.Path), ArgDiff: d})
				}
			}
		}
	}
	if len(t.failed) > 1 || len(t.retried) > 1 { // most cases have no failed or retried call
		t.failed, t.retried = uniqueSorted(t.failed), uniqueSorted(t.retried)
	}
}

func uniqueSorted(xs []int) []int {
	if len(xs) < 2 {
		return xs // most cases have no failed or retried call
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// diffCall reads the call index a difference's path starts with ("#2
// cancel_order.order_id"); -1 when it names none.
func diffCall(path string) int {
	rest, ok := strings.CutPrefix(path, "#")
	if !ok {
		return -1
	}
	end := strings.IndexByte(rest, ' ')
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// empty reports whether there is nothing to tell.
func (t *trajectory) empty() bool {
	return len(t.failed) == 0 && len(t.retried) == 0 && len(t.turns) == 0 && len(t.flows) == 0 &&
		len(t.rules) == 0 && len(t.diffs) == 0
}

// callName names called call j: "#2 cancel_order", or "#2" without the
// case.
func callName(c *toolgrade.Case, j int) string {
	s := "#" + strconv.Itoa(j)
	if c != nil && j >= 0 && j < len(c.Called) {
		s += " " + c.Called[j].Name
	}
	return s
}

// callNames names a list of called calls, at most n of them.
func callNames(c *toolgrade.Case, js []int, n int) string {
	var b strings.Builder
	for k, j := range js {
		if k == n {
			b.WriteString(" and " + strconv.Itoa(len(js)-n) + " more")
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(callName(c, j))
	}
	return b.String()
}

// flowText tells a data-flow link: "order_id ← #0 find_order.output.id",
// or "… (source not called)". The called call it feeds is named when c is
// set and to is.
func flowText(c *toolgrade.Case, f *match.Flow, to bool) string {
	s := f.Arg
	if to {
		s = callName(c, f.To) + " " + s
	}
	s += " ← "
	switch {
	case f.From < 0:
		return s + f.Ref + " (source not called)"
	case strings.HasPrefix(f.Ref, "#"):
		return s + f.Ref
	}
	return s + "#" + strconv.Itoa(f.From) + " " + f.Ref
}

// diffText tells a case difference: "$.orders[0].status: expected
// "refunded", got "partially_refunded"", "#1 issue_refund.amount: 145.5
// (not in the input, …)", values shortened to n characters.
func diffText(d *caseDiff, n int) string {
	s := d.Path + ":"
	switch {
	case d.Note == "missing":
		return s + " missing, expected " + value(d.Expected, n)
	case d.Note == "unexpected":
		return s + " unexpected " + value(d.Got, n)
	case d.call >= 0 && d.Expected == nil:
		s += " " + value(d.Got, n)
	default:
		s += " expected " + value(d.Expected, n) + ", got " + value(d.Got, n)
	}
	if d.Note != "" && diffKind(d) != "ungrounded" { // the kind says it
		s += " (" + d.Note + ")"
	}
	return s
}

// diffShort tells a case difference briefly, for one-line summaries:
// "$.orders[0].status "refunded" → "partially_refunded"", "$.x missing",
// "#1 issue_refund.amount 145.5".
func diffShort(d *caseDiff) string {
	const n = 40
	switch {
	case d.Note == "missing" || d.Note == "unexpected":
		return d.Path + " " + d.Note
	case d.call >= 0 && d.Expected == nil:
		return d.Path + " " + value(d.Got, n)
	}
	return d.Path + " " + value(d.Expected, n) + " → " + value(d.Got, n)
}

// diffKind names a kind of case difference in a summary: "state" for
// state_match, "ungrounded" for grounding, else the metric's label.
func diffKind(d *caseDiff) string {
	switch d.metric {
	case "state_match":
		return "state"
	case "grounding":
		return "ungrounded"
	}
	return d.label
}

// line sums the trajectory up in one line for a case of the worst-cases
// lists: failed calls, turns below the mark, broken data flows, broken
// rules, case differences; empty when none.
func (t *trajectory) line(c *toolgrade.Case) string {
	var parts []string
	add := func(s string) { parts = append(parts, s) }
	if len(t.failed) > 0 {
		var b strings.Builder
		b.WriteString("failed ")
		for k, j := range t.failed {
			if k == trajItems {
				b.WriteString(" and " + strconv.Itoa(len(t.failed)-k) + " more")
				break
			}
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(callName(c, j))
			if _, ok := slices.BinarySearch(t.retried, j); ok {
				b.WriteString(" (retried)")
			}
		}
		add(b.String())
	}
	for _, ts := range t.turns {
		if !ts.Success {
			add("turn " + strconv.Itoa(ts.Turn) + " scored " + score(ts.Score))
		}
	}
	n := 0
	for _, f := range t.flows {
		if f.OK {
			continue
		}
		if n++; n <= trajItems {
			add("data flow ✗ " + flowText(c, &f, false))
		}
	}
	if n > trajItems {
		add(strconv.Itoa(n-trajItems) + " more broken data flows")
	}
	n = 0
	for _, rc := range t.rules {
		if rc.Kept {
			continue
		}
		if n++; n <= trajItems {
			s := "broke " + clipRunes(rc.Rule, trajRule)
			if len(rc.Breaches) > 0 {
				s += " at " + callNames(c, rc.Breaches, trajItems)
			}
			add(s)
		}
	}
	if n > trajItems {
		add(strconv.Itoa(n-trajItems) + " more broken rules")
	}
	kinds := map[string]int{}
	for i := range t.diffs {
		d := &t.diffs[i]
		k := diffKind(d)
		if kinds[k]++; kinds[k] <= trajItems {
			add(k + " " + diffShort(d))
		}
	}
	for i := range t.diffs {
		k := diffKind(&t.diffs[i])
		if n := kinds[k]; n > trajItems {
			add(strconv.Itoa(n-trajItems) + " more " + k)
			kinds[k] = 0
		}
	}
	return clipRunes(strings.Join(parts, "; "), trajLine)
}

// metricDetails lists what one metric result says about the trajectory,
// a line per item, for a JUnit failure: failed calls, turns below the
// mark, broken data flows, broken rules, case differences. Each is
// shortened and the list is bounded.
func metricDetails(m *toolgrade.MetricResult, c *toolgrade.Case) []string {
	var lines []string
	add := func(s string) { lines = append(lines, clipRunes(s, junitDetail)) }
	failed := toolgrade.DetailOf[match.Failed](m)
	retried := toolgrade.DetailOf[match.Retried](m)
	turns := toolgrade.DetailOf[match.Turns](m)
	flows := toolgrade.DetailOf[match.Flows](m)
	rules := toolgrade.DetailOf[process.RuleChecks](m)
	diffs := toolgrade.DetailOf[toolgrade.Diffs](m)
	for _, j := range failed {
		s := "call " + callName(c, j) + " failed"
		if slices.Contains(retried, j) {
			s += " and was retried"
		}
		add(s)
	}
	for _, ts := range turns {
		if !ts.Success {
			add("turn " + strconv.Itoa(ts.Turn) + " scored " + score(ts.Score))
		}
	}
	for _, f := range flows {
		if !f.OK {
			add("data flow broken: " + flowText(c, &f, true))
		}
	}
	for _, rc := range rules {
		if rc.Kept {
			continue
		}
		s := "broken rule " + rc.Rule
		if len(rc.Breaches) > 0 {
			s += " at " + callNames(c, rc.Breaches, trajItems)
		}
		if rc.Reason != "" {
			s += ": " + rc.Reason
		}
		add(s)
	}
	for _, d := range diffs {
		cd := caseDiff{metric: m.Name, label: Label(m.Name, m.Profile), call: diffCall(d.Path), ArgDiff: d}
		add(diffKind(&cd) + " " + diffText(&cd, 100))
	}
	if len(lines) > junitDetails {
		n := len(lines) - junitDetails
		lines = append(lines[:junitDetails], "and "+strconv.Itoa(n)+" more")
	}
	return lines
}

// trajectoryCounts adds up a run's trajectory details for the summaries:
// failed and retried calls, broken rules by rule, broken data flows. It
// keeps counters only (and at most trajRuleTypes rules by name), so memory
// stays flat.
type trajectoryCounts struct {
	failed, retried, failedCases  int
	flows, brokenFlows, flowCases int
	brokenCases                   int // cases that broke a rule
	rules                         []ruleCount
	otherRules                    int // breaks of rules past trajRuleTypes
}

type ruleCount struct {
	rule  string
	cases int
}

func (tc *trajectoryCounts) add(t *trajectory) {
	if len(t.failed) == 0 && len(t.flows) == 0 && len(t.rules) == 0 {
		return // most cases
	}
	if len(t.failed) > 0 {
		tc.failed += len(t.failed)
		tc.retried += len(t.retried)
		tc.failedCases++
	}
	broken := 0
	for _, f := range t.flows {
		tc.flows++
		if !f.OK {
			broken++
		}
	}
	if broken > 0 {
		tc.brokenFlows += broken
		tc.flowCases++
	}
	var seen []string // a rule counts once per case
	for _, rc := range t.rules {
		if rc.Kept || slices.Contains(seen, rc.Rule) {
			continue
		}
		seen = append(seen, rc.Rule)
		if i := slices.IndexFunc(tc.rules, func(c ruleCount) bool { return c.rule == rc.Rule }); i >= 0 {
			tc.rules[i].cases++
		} else if len(tc.rules) < trajRuleTypes {
			tc.rules = append(tc.rules, ruleCount{strings.Clone(rc.Rule), 1})
		} else {
			tc.otherRules++
		}
	}
	if len(seen) > 0 {
		tc.brokenCases++
	}
}

// A summaryLine is one line of the run's trajectory summary: a lead and
// its items, which each format escapes its own way.
type summaryLine struct {
	lead  string
	items []string
}

func (l summaryLine) String() string { return l.lead + ": " + strings.Join(l.items, ", ") }

func nCases(n int) string { return strconv.Itoa(n) + " " + plural(n, "case", "cases") }

// lines sums the run up: "failed calls: 12 in 8 cases (5 retried)",
// "broken process rules: <rule> in 3 cases, …", "broken data flows: 2 of
// 9 in 2 cases"; nothing for what did not happen.
func (tc *trajectoryCounts) lines() []summaryLine {
	var out []summaryLine
	if tc.failed > 0 {
		s := strconv.Itoa(tc.failed) + " in " + nCases(tc.failedCases)
		if tc.retried > 0 {
			s += " (" + strconv.Itoa(tc.retried) + " retried)"
		}
		out = append(out, summaryLine{"failed calls", []string{s}})
	}
	if tc.brokenCases > 0 {
		rules := slices.Clone(tc.rules)
		sorting.Stable(rules, func(a, b ruleCount) int { return b.cases - a.cases })
		l := summaryLine{lead: "broken process rules (" + nCases(tc.brokenCases) + ")"}
		for _, rc := range rules[:min(len(rules), summaryRules)] {
			l.items = append(l.items, clipRunes(rc.rule, trajRule)+" in "+nCases(rc.cases))
		}
		switch n := len(rules) - summaryRules; {
		case tc.otherRules > 0:
			l.items = append(l.items, "and more") // past trajRuleTypes rules, not counted one by one
		case n > 0:
			l.items = append(l.items, "and "+strconv.Itoa(n)+" more")
		}
		out = append(out, l)
	}
	if tc.brokenFlows > 0 {
		out = append(out, summaryLine{"broken data flows", []string{
			strconv.Itoa(tc.brokenFlows) + " of " + strconv.Itoa(tc.flows) + " in " + nCases(tc.flowCases)}})
	}
	return out
}
