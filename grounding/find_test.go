package grounding_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Checks and Holds decide as the metric does: a value the metric checks
// is one it would flag, and a Source holds it as the metric would ground
// it.
func TestChecksAndHolds(t *testing.T) {
	m, err := grounding.New(grounding.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonvalue.ParseString(`{"orders": [{"id": "#W2378156", "total": "$1,299.50"}], "email": "Sara.Doe@example.com", "note": "call (555) 123-4567"}`)
	src := m.Source(v)
	for _, tt := range []struct {
		name          string
		v             any
		checks, holds bool
	}{
		{"an id", "#W2378156", true, true},
		{"an id not there", "#W9999999", true, false},
		{"an email, ignoring case", "sara.doe@example.com", true, true},
		{"a number by value", json.Number("1299.5"), true, true},
		{"a Go number", 1299.5, true, true},
		{"digits across separators", "5551234567", true, true},
		{"a small number", json.Number("12"), false, false},
		{"a boolean", true, false, false},
		{"a plain word", "Paris", false, false},
		{"a date", "2026-03-06", false, false},
		{"an object", jsonvalue.Object{{Key: "id", Value: "#W2378156"}}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.Checks(tt.v); got != tt.checks {
				t.Errorf("Checks = %v, want %v", got, tt.checks)
			}
			if got := src.Holds(tt.v); got != tt.holds {
				t.Errorf("Holds = %v, want %v", got, tt.holds)
			}
		})
	}
	strict, _ := grounding.New(grounding.Options{MinDigits: 6, MinLength: 5})
	if strict.Checks(json.Number("1234")) || !strict.Checks("Paris") {
		t.Error("Checks ignores the options")
	}
}
