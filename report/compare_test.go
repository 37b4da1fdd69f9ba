package report_test

import (
	"bytes"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
	"github.com/toolgrade/toolgrade/report"
)

// res is a result with one metric "m": a score, or an error when score < 0.
func res(id string, score float64) *toolgrade.Result {
	m := toolgrade.MetricResult{Name: "m", Profile: "default", Score: score, Threshold: toolgrade.Float(0.5), Success: score >= 0.5}
	if score < 0 {
		m = toolgrade.MetricResult{Name: "m", Profile: "default", Error: "boom"}
	}
	return &toolgrade.Result{ID: id, Success: m.Verdict(), Metrics: []toolgrade.MetricResult{m}}
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

func TestComparisonText(t *testing.T) {
	c := compare(0.05,
		run{res("a", 1), res("b", 0.75), res("c", 0), res("gone", 1), res("d", 1)},
		run{res("a", 1), res("b", 0.5), res("c", 1), res("new", 0), res("d", -1)})
	var buf bytes.Buffer
	if err := report.WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", buf.Bytes())
}

// TestComparisonTrialsText: the comparison of two runs with trials, the
// new one breaking the steady case.
func TestComparisonTrialsText(t *testing.T) {
	c := &reliability.Comparison{Seed: 1}
	for _, r := range trialsFixture(t) {
		c.AddBase(r)
	}
	for _, r := range trialsFixture(t) {
		if r.ID == "steady" {
			r.Success, r.Metrics[0].Score, r.Metrics[0].Success = false, 0, false
		}
		c.AddNew(r)
	}
	var buf bytes.Buffer
	if err := report.WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare_trials.txt", buf.Bytes())
}
