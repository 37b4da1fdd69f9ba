package grounding_test

import (
	"context"
	"slices"
	"testing"

	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/grounding"
)

// The cases of examples/grounding grade as its README says.
func TestExampleCases(t *testing.T) {
	want := map[string]struct {
		score float64
		paths []string
	}{
		"looked-up-then-cancelled": {1, []string{}},
		"invented-order-and-email": {0, []string{"#0 cancel_order.order_id", "#1 send_email.to"}},
		"asked-before-told":        {0.5, []string{"#0 track_package.tracking_number"}},
	}
	// The metric of examples/grounding/toolgrade.yaml, built as the
	// command line builds it.
	cfg, err := config.Load("../examples/grounding/toolgrade.yaml")
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
	if _, ok := m.(*grounding.Metric); !ok {
		t.Fatalf("metric %T, want *grounding.Metric", m)
	}
	seen := 0
	for rec, err := range dataset.File("../examples/grounding/cases.jsonl") {
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
		if got := diffPaths(r); r.Score != w.score || !slices.Equal(got, w.paths) {
			t.Errorf("%s: score %v, diffs %q; want %v, %q (reason: %s)", c.ID, r.Score, got, w.score, w.paths, r.Reason)
		}
	}
	if seen != len(want) {
		t.Errorf("read %d cases, want %d", seen, len(want))
	}
}
