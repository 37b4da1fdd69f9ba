package main

import (
	"context"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/match"
)

// TestRightCallsGradeRight: the fake model's right answer to every case
// of the example suite is graded right by toolgrade's strictest default
// (threshold 1, exact arguments, in order), rule-only arguments
// included, so that the suite scores as a model right 85% of the time
// would.
func TestRightCallsGradeRight(t *testing.T) {
	var all []*toolgrade.Case
	for rec, err := range dataset.Files("../../agent/cases.jsonl") {
		if err != nil {
			t.Fatal(err)
		}
		c, err := rec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, c)
	}
	metric, err := match.New(match.Options{Order: match.OrderInOrder})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		t.Run(c.ID, func(t *testing.T) {
			answer := &toolgrade.Case{ID: c.ID, Expected: c.Expected}
			for _, call := range rightCalls(c, all) {
				answer.Called = append(answer.Called, toolgrade.Call{Name: call.Name, Args: call.Args})
			}
			if r := toolgrade.Grade(context.Background(), answer, metric); !r.Success {
				t.Errorf("the right answer %v fails: %s", answer.Called, r.Metrics[0].Reason)
			}
		})
	}
}
