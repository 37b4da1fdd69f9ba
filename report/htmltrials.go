package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/reliability"
)

// Limits of the HTML page's trials table.
const (
	htmlTrialCases = 5000 // cases whose trials' calls are kept, to show where they part
	htmlTrialRows  = 1000 // cases listed, flaky first
)

// trialSample keeps, for one case, the calls of its first passing and
// first failing trial, to show where they part.
type trialSample struct {
	n          int
	pass, fail *callSample
}

type callSample struct {
	trial int
	calls []toolgrade.Call
}

// noteTrial keeps what the trials table needs of a result, and returns
// the result's trial: its index, else its place among the case's results
// (0 past the cases kept).
func (h *htmlReport) noteTrial(r *toolgrade.Result) int {
	key := r.ID
	if h.trialCalls == nil {
		h.trialCalls = map[string]*trialSample{}
	}
	ts := h.trialCalls[key]
	if ts == nil {
		if len(h.trialCalls) >= htmlTrialCases {
			return reliability.TrialIndex(r)
		}
		ts = &trialSample{}
		h.trialCalls[strings.Clone(key)] = ts
	}
	ts.n++
	idx := reliability.TrialIndex(r)
	if idx == 0 {
		idx = ts.n
	}
	slot := &ts.fail
	if r.Success {
		slot = &ts.pass
	}
	if *slot == nil && r.Case != nil {
		*slot = &callSample{trial: idx, calls: r.Case.Called}
	}
	return idx
}

// parting says where a passing and a failing trial of a case first
// differ: the first call whose tool or arguments differ, or the call one
// of them made and the other did not.
func parting(p, f *callSample) string {
	if p == nil || f == nil {
		return ""
	}
	head := fmt.Sprintf("trial %d passed, trial %d failed: ", p.trial, f.trial)
	for i := 0; i < max(len(p.calls), len(f.calls)); i++ {
		switch {
		case i >= len(f.calls):
			return head + fmt.Sprintf("call #%d: the passing trial called %s, the failing one made no more calls", i, p.calls[i].Name)
		case i >= len(p.calls):
			return head + fmt.Sprintf("call #%d: the failing trial called %s, the passing one made no more calls", i, f.calls[i].Name)
		}
		a, b := &p.calls[i], &f.calls[i]
		if a.Name != b.Name {
			return head + fmt.Sprintf("call #%d: %s in the passing trial, %s in the failing one", i, a.Name, b.Name)
		}
		if path, av, bv, ok := firstArgDiff("", a.Args, b.Args); ok {
			return head + fmt.Sprintf("call #%d %s, argument %s: %s in the passing trial, %s in the failing one", i, a.Name, path, av, bv)
		}
		if a.Invalid != b.Invalid || a.ArgsRaw != b.ArgsRaw {
			return head + fmt.Sprintf("call #%d %s: arguments %q in the passing trial, %q in the failing one", i, a.Name, clipRunes(a.ArgsRaw, 80), clipRunes(b.ArgsRaw, 80))
		}
	}
	return head + "the same calls (they differ elsewhere: output or answer)"
}

// firstArgDiff finds the first path where two argument values differ (by
// meaning, as [jsonvalue.Equal] compares them).
func firstArgDiff(path string, a, b any) (string, string, string, bool) {
	show := func(v any) string {
		if v == nil {
			return "absent"
		}
		return clipRunes(string(jsonvalue.Append(nil, v)), 80)
	}
	ao, aok := a.(jsonvalue.Object)
	bo, bok := b.(jsonvalue.Object)
	if aok && bok {
		for _, m := range ao {
			bv, _ := bo.Get(m.Key)
			if p, x, y, ok := firstArgDiff(path+"."+m.Key, m.Value, bv); ok {
				return p, x, y, true
			}
		}
		for _, m := range bo {
			if !ao.Has(m.Key) {
				return strings.TrimPrefix(path+"."+m.Key, "."), "absent", show(m.Value), true
			}
		}
		return "", "", "", false
	}
	if !jsonvalue.Equal(a, b) {
		if path == "" {
			path = "(all)"
		}
		return strings.TrimPrefix(path, "."), show(a), show(b), true
	}
	return "", "", "", false
}

// htmlReliability is the page's reliability section.
type htmlReliability struct {
	Headline string
	Metrics  []htmlRelMetric
	Ks       []htmlRelK
	Labels   []string
	Cases    []htmlTrialCase
	Omitted  int
}

type htmlRelMetric struct {
	Label, PassRate, Mean, Gate string
	Cases, Trials, Flaky        int
}

type htmlRelK struct {
	K      int
	Values []string // pass@k, pass^k per metric
}

type htmlTrialCase struct {
	ID       string
	Passed   int
	Trials   int
	FlipRate string
	Verdicts []htmlVerdict
	Parting  string
}

type htmlVerdict struct {
	Trial int
	Pass  bool
}

func (h *htmlReport) reliability(rel *reliability.Suite) *htmlReliability {
	if rel == nil {
		return nil
	}
	out := &htmlReliability{Headline: reliabilityHeadline(rel)}
	for _, m := range rel.Metrics {
		gate := gateText(m.Gate)
		if gate != "" {
			gate += ": " + strconv.Itoa(m.GateFailed) + " failed"
		}
		out.Metrics = append(out.Metrics, htmlRelMetric{Label: Label(m.Name, m.Profile), Cases: m.Cases, Trials: m.Trials,
			PassRate: withInterval(m.PassRate, m.PassLo, m.PassHi, true), Mean: withInterval(m.Mean, m.MeanLo, m.MeanHi, false), Flaky: m.Flaky, Gate: gate})
		out.Labels = append(out.Labels, Label(m.Name, m.Profile))
	}
	for k := 1; k <= rel.MinTrials; k++ {
		row := htmlRelK{K: k}
		for _, m := range rel.Metrics {
			row.Values = append(row.Values, percent(m.PassAtK[k-1]), percent(m.PassHatK[k-1]))
		}
		out.Ks = append(out.Ks, row)
	}
	// Flaky cases first, then the rest in input order.
	rows := append([]reliability.Case(nil), rel.Flaky...)
	for _, c := range rel.PerCase {
		if c.Passed == 0 || c.Passed == c.Trials {
			rows = append(rows, c)
		}
	}
	for i, c := range rows {
		if i >= htmlTrialRows {
			out.Omitted = len(rows) - i
			break
		}
		tc := htmlTrialCase{ID: c.ID, Passed: c.Passed, Trials: c.Trials, FlipRate: score(c.FlipRate)}
		for j, v := range c.Verdicts {
			tc.Verdicts = append(tc.Verdicts, htmlVerdict{Trial: c.Trial[j], Pass: v})
		}
		if ts, ok := h.trialCalls[c.ID]; ok {
			tc.Parting = parting(ts.pass, ts.fail)
		}
		out.Cases = append(out.Cases, tc)
	}
	return out
}
