package reliability_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
)

// res is a result with one metric "m": a score, or an error when score < 0.
func res(id string, score float64) *toolgrade.Result {
	m := toolgrade.MetricResult{Name: "m", Profile: "default", Score: score, Threshold: toolgrade.Float(0.5), Success: score >= 0.5}
	if score < 0 {
		m = toolgrade.MetricResult{Name: "m", Profile: "default", Error: "boom"}
	}
	return &toolgrade.Result{ID: id, Success: m.Verdict(), Metrics: []toolgrade.MetricResult{m}}
}

// renamed gives r's metric another name, as a typo in a config would.
func renamed(r *toolgrade.Result) *toolgrade.Result {
	r.Metrics[0].Name = "m2"
	return r
}

type run []*toolgrade.Result

func compare(tol float64, base, next run) *reliability.Comparison {
	c := &reliability.Comparison{Tolerance: tol}
	for _, r := range base {
		c.AddBase(r)
	}
	for _, r := range next {
		c.AddNew(r)
	}
	return c
}

func cases(changes []reliability.CaseChange) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Case)
	}
	return out
}

func TestComparison(t *testing.T) {
	tests := []struct {
		name              string
		tol               float64
		allowMissing      bool
		base, next        run
		regression        bool
		regressed         []string
		improved          []string
		onlyBase, onlyNew []string
	}{
		{name: "same scores", base: run{res("a", 1), res("b", 0.5)}, next: run{res("b", 0.5), res("a", 1)}},
		{name: "any fall regresses by default", base: run{res("a", 1)}, next: run{res("a", 0.99)}, regression: true, regressed: []string{"a"}},
		{name: "a fall within tolerance", tol: 0.1, base: run{res("a", 1)}, next: run{res("a", 0.9)}},
		{name: "a fall beyond tolerance", tol: 0.1, base: run{res("a", 1), res("b", 1)}, next: run{res("a", 0.85), res("b", 1)},
			regression: true, regressed: []string{"a"}},
		{name: "an error where there was a score", tol: 0.5, base: run{res("a", 0.2)}, next: run{res("a", -1)}, regression: true, regressed: []string{"a"}},
		{name: "a score where there was an error", base: run{res("a", -1)}, next: run{res("a", 0)}, improved: []string{"a"}},
		{name: "largest changes first", base: run{res("a", 1), res("b", 1), res("c", 0), res("d", 0)},
			next:       run{res("a", 0.8), res("b", 0.1), res("c", 0.2), res("d", 0.9)},
			regression: true, regressed: []string{"b", "a"}, improved: []string{"d", "c"}},
		{name: "repeated ids pair in order", base: run{res("line-1", 1), res("line-1", 0)}, next: run{res("line-1", 1), res("line-1", 1)},
			improved: []string{"line-1 (#2)"}},
		{name: "a case missing from the new run regresses", base: run{res("a", 1), res("gone", 1)}, next: run{res("a", 1), res("new", 1)},
			regression: true, onlyBase: []string{"gone"}, onlyNew: []string{"new"}},
		{name: "missing cases allowed", allowMissing: true, base: run{res("a", 1), res("gone", 1)}, next: run{res("a", 1), res("new", 1)},
			onlyBase: []string{"gone"}, onlyNew: []string{"new"}},
		{name: "pass to fail regresses whatever the tolerance, and comes first", tol: 0.3,
			base:       run{res("a", 1), res("b", 0.6), res("c", 1), res("d", 1)},
			next:       run{res("a", 0.2), res("b", 0.4), res("c", 0.6), res("d", 0.9)},
			regression: true, regressed: []string{"a", "b", "c"}},
		{name: "pass to fail of one trial among several is left to the tolerance", tol: 0.5,
			base: run{res("a", 0.6), res("a", 0.6)}, next: run{res("a", 0.4), res("a", 0.6)}},
		{name: "a case only in the new run moves no mean", tol: 0.1, base: run{res("a", 1)}, next: run{res("a", 1), res("new", 0)},
			onlyNew: []string{"new"}},
		{name: "a case missing from the new run moves no mean", allowMissing: true, base: run{res("a", 0.5), res("gone", 1)}, next: run{res("a", 0.5)},
			onlyBase: []string{"gone"}},
		{name: "a mean that falls with no case score falling", base: run{res("a", 1), res("b", -1)}, next: run{res("a", 1), res("b", 0.2)},
			regression: true, improved: []string{"b"}},
		{name: "a metric missing from the new run regresses", base: run{res("a", 1)}, next: run{renamed(res("a", 1))}, regression: true},
		{name: "missing metrics allowed", allowMissing: true, base: run{res("a", 1)}, next: run{renamed(res("a", 1))}},
		{name: "a metric missing from the new run's trials regresses", base: run{res("a", 1), res("a", 1)},
			next: run{renamed(res("a", 1)), renamed(res("a", 1))}, regression: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compare(tt.tol, tt.base, tt.next)
			c.AllowMissing = tt.allowMissing
			if got := c.Regression(); got != tt.regression {
				t.Errorf("Regression() = %v, want %v", got, tt.regression)
			}
			for _, l := range []struct {
				what      string
				got, want []string
			}{
				{"regressed", cases(c.Regressed()), tt.regressed},
				{"improved", cases(c.Improved()), tt.improved},
				{"only in base", c.OnlyBase(), tt.onlyBase},
				{"only in new", c.OnlyNew(), tt.onlyNew},
			} {
				if diff := cmp.Diff(l.want, l.got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", l.what, diff)
				}
			}
		})
	}
}

func TestComparisonMetrics(t *testing.T) {
	other := func(id string) *toolgrade.Result {
		r := res(id, 1)
		r.Metrics[0].Name = "other"
		return r
	}
	c := compare(0, run{res("a", 1), other("b")}, run{res("a", 0.5)})
	ms := c.Metrics()
	if len(ms) != 2 || ms[0].Label != "m" || ms[1].Label != "other" || ms[1].New != nil {
		t.Fatalf("metrics %+v, want m in both runs and other only in BASE", ms)
	}
	if !ms[0].Regressed(0.4) || ms[0].Regressed(0.5) {
		t.Errorf("a mean falling by 0.5 should regress beyond tolerance 0.4 and not beyond 0.5")
	}
}

// TestComparisonThresholds: a metric graded at another threshold in the
// new run is found, and a change of verdict carries both thresholds.
func TestComparisonThresholds(t *testing.T) {
	at := func(id string, score, threshold float64) *toolgrade.Result {
		r := res(id, score)
		r.Metrics[0].Threshold = toolgrade.Float(threshold)
		r.Metrics[0].Success = score >= threshold
		r.Success = r.Metrics[0].Success
		return r
	}
	c := compare(0, run{at("a", 0.8, 0.5), at("b", 0.8, 0.5), at("c", 1, 1)}, run{at("a", 0.8, 0.9), at("b", 0.8, 0.9), at("c", 1, 1)})
	want := []reliability.ThresholdChange{{Metric: "m", Base: toolgrade.Float(0.5), New: toolgrade.Float(0.9), Cases: 2}}
	if diff := cmp.Diff(want, c.Thresholds()); diff != "" {
		t.Errorf("thresholds (-want +got):\n%s", diff)
	}
	reg := c.Regressed()
	if len(reg) != 2 || !reg[0].PassToFail || *reg[0].BaseThreshold != 0.5 || *reg[0].NewThreshold != 0.9 {
		t.Errorf("regressed %+v, want a and b from pass to fail with thresholds 0.5 and 0.9", reg)
	}
	if same := compare(0, run{at("a", 0.8, 0.5)}, run{at("a", 0.8, 0.5)}); len(same.Thresholds()) != 0 {
		t.Errorf("same thresholds reported as changed: %+v", same.Thresholds())
	}
}

// TestComparisonCommonCases: with cases in one run only, the metrics'
// figures are over the cases both runs have; with none, over all.
func TestComparisonCommonCases(t *testing.T) {
	c := compare(0, run{res("a", 1), res("b", 0.5), res("gone", 0)}, run{res("a", 1), res("b", 0.5), res("new", 0)})
	m := c.Metrics()[0]
	if !c.Partial() || c.Common() != 2 || m.Base.Count != 2 || m.New.Count != 2 || m.Base.Score != 0.75 || m.New.Score != 0.75 || m.Regressed(0) {
		t.Errorf("partial %v, common %d, metric %+v / %+v; want both means 0.75 over 2 cases", c.Partial(), c.Common(), *m.Base, *m.New)
	}
	full := compare(0, run{res("a", 1), res("b", 0)}, run{res("b", 0), res("a", 1)})
	if full.Partial() || full.Metrics()[0].Base.Score != 0.5 {
		t.Errorf("the same cases: partial %v, base %+v", full.Partial(), *full.Metrics()[0].Base)
	}
}
