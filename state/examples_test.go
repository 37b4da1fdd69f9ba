package state_test

import (
	"context"
	"slices"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/state"
)

// exampleMetric builds the metric of examples/state/toolgrade.yaml as the
// command line does.
func exampleMetric(t *testing.T) *state.Metric {
	t.Helper()
	cfg, err := config.Load("../examples/state/toolgrade.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Metrics) != 1 {
		t.Fatalf("%d metric entries, want 1", len(cfg.Metrics))
	}
	m, err := config.Metric(cfg.Metrics[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	sm, ok := m.(*state.Metric)
	if !ok {
		t.Fatalf("metric %T, want *state.Metric", m)
	}
	return sm
}

// The cases of examples/state grade as its README says.
func TestExampleCases(t *testing.T) {
	want := map[string]struct {
		score float64
		diffs []string
	}{
		"cancelled-right-order": {1, []string{}},
		"modified-wrong-item": {25.0 / 33, []string{
			`$.orders["#W4817420"].items[0].item_id`,
			`$.orders["#W4817420"].items[0].options.color`,
			`$.orders["#W4817420"].items[0].price`,
			`$.orders["#W4817420"].items[1].item_id`,
			`$.orders["#W4817420"].items[1].options.color`,
			`$.orders["#W4817420"].items[1].price`,
			`$.orders["#W4817420"].payment_history[1].transaction_type`,
			`$.orders["#W4817420"].payment_history[1].amount not within 0.01 of 14.73`,
		}},
		"cancelled-other-order": {28.0 / 38, []string{
			`$.orders["#W2378156"].status`,
			`$.orders["#W2378156"].payment_history[1] missing`,
			`$.orders["#W2378156"].cancel_reason missing`,
			`$.orders["#W4817420"].status`,
			`$.orders["#W4817420"].payment_history[1] unexpected`,
			`$.orders["#W4817420"].cancel_reason unexpected`,
		}},
	}
	m := exampleMetric(t)
	seen := 0
	for rec, err := range dataset.File("../examples/state/cases.jsonl") {
		if err != nil {
			t.Fatal(err)
		}
		c, err := rec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[c.ID]
		if !ok {
			t.Errorf("unexpected case %q", c.ID)
			continue
		}
		seen++
		r := m.Grade(context.Background(), c)
		if got := diffText(toolgrade.DetailOf[toolgrade.Diffs](&r)); r.Error != "" || abs(r.Score-w.score) > 1e-9 || !slices.Equal(got, w.diffs) {
			t.Errorf("%s: score %v, diffs %q, error %q; want %v, %q (reason: %s)", c.ID, r.Score, got, r.Error, w.score, w.diffs, r.Reason)
		}
		if r.Success != (w.score == 1) {
			t.Errorf("%s: success %v", c.ID, r.Success)
		}
	}
	if seen != len(want) {
		t.Errorf("read %d cases, want %d", seen, len(want))
	}
}
