package report

import (
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
)

func metricResult(name string, score float64) toolgrade.MetricResult {
	th := 0.5
	return toolgrade.MetricResult{Name: name, Profile: "default", Score: score, Success: score >= th, Threshold: &th}
}

// TestTrialsMetricBlocks adds a metric to an earlier case's later trial:
// the case's metrics move, and no other case's change.
func TestTrialsMetricBlocks(t *testing.T) {
	var tr trials
	tr.add(&toolgrade.Result{ID: "a", Success: true, Metrics: []toolgrade.MetricResult{metricResult("m1", 1), metricResult("m2", 1)}})
	tr.add(&toolgrade.Result{ID: "b", Metrics: []toolgrade.MetricResult{metricResult("m1", 0), metricResult("m2", 0)}})
	tr.add(&toolgrade.Result{ID: "a", Metrics: []toolgrade.MetricResult{metricResult("m1", 0), metricResult("m2", 1), metricResult("m3", 1)}})
	rel := tr.reliability(0.95, nil)
	got := map[string]string{}
	for _, c := range rel.PerCase {
		for _, m := range c.Metrics {
			got[c.ID+"/"+m.Name] = strconv.Itoa(m.Passed) + "/" + strconv.Itoa(m.Trials)
		}
	}
	want := map[string]string{"a/m1": "1/2", "a/m2": "2/2", "a/m3": "1/2", "b/m1": "0/1", "b/m2": "0/1"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], v, got)
		}
	}
}

// TestTrialsCap checks that cases past the cap are counted and said to
// be left out, and a repeat among them is noticed.
func TestTrialsCap(t *testing.T) {
	var tr trials
	r := toolgrade.Result{Metrics: []toolgrade.MetricResult{metricResult("m", 1)}}
	for i := range maxTrackedCases + 2 {
		r.ID = strconv.Itoa(i)
		tr.add(&r)
	}
	tr.add(&r) // the last case again, right after
	rel := tr.reliability(0.95, nil)
	if rel == nil || rel.Untracked != 3 || !rel.UntrackedRepeat || rel.Cases != maxTrackedCases {
		t.Fatalf("untracked %d repeat %v cases %d", rel.Untracked, rel.UntrackedRepeat, rel.Cases)
	}
	if untrackedNote(rel) == "" {
		t.Error("no note for the cases left out")
	}
}
