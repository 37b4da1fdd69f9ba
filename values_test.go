package toolgrade_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/state"
)

// A case built in code with plain Go values scores as the same case
// decoded from a file: Go maps, ints and structs are converted first.
func TestGradeGoValues(t *testing.T) {
	type booking struct {
		Guests int    `json:"guests"`
		Room   string `json:"room"`
	}
	decoded := jsonvalue.MustFrom(map[string]any{"x": 1, "when": map[string]any{"day": "mon"}})
	for _, tt := range []struct {
		name      string
		want, got any
		score     float64
	}{
		{"map[string]any", map[string]any{"x": 1, "when": map[string]any{"day": "mon"}}, map[string]any{"when": map[string]any{"day": "mon"}, "x": 1}, 1},
		{"map against decoded", decoded, map[string]any{"x": 1.0, "when": map[string]string{"day": "mon"}}, 1},
		{"struct", booking{2, "double"}, map[string]any{"guests": 2, "room": "double"}, 1},
		{"json.RawMessage", json.RawMessage(`{"b":[1,2]}`), map[string]any{"b": []int{1, 2}}, 1},
		{"different values", map[string]any{"x": 1}, map[string]any{"x": 2}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := match.New(match.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := &toolgrade.Case{
				Expected: []toolgrade.Call{{Name: "f", Args: tt.want}},
				Called:   []toolgrade.Call{{Name: "f", Args: tt.got}},
			}
			before := c.Called[0].Args
			r := toolgrade.Grade(context.Background(), c, m)
			if r.Error != "" || r.Metrics[0].Score != tt.score {
				t.Errorf("score %v (error %q, reason %s), want %v", r.Metrics[0].Score, r.Error, r.Metrics[0].Reason, tt.score)
			}
			if _, ok := c.Called[0].Args.(jsonvalue.Object); ok && !jsonvalue.InModel(before) {
				t.Error("Grade changed the caller's case")
			}
		})
	}
}

// A value with no JSON form is an error result naming the field, and the
// error is a *toolgrade.FieldError for Go callers.
func TestGradeRefusesValuesWithoutJSONForm(t *testing.T) {
	m, _ := match.New(match.Options{})
	for _, tt := range []struct {
		name string
		c    toolgrade.Case
		path string
	}{
		{"args", toolgrade.Case{ID: "a", Called: []toolgrade.Call{{Name: "f", Args: map[string]any{"x": make(chan int)}}}}, "tools_called[0].args"},
		{"expected output", toolgrade.Case{ID: "b", Expected: []toolgrade.Call{{Name: "f"}, {Name: "g", Output: func() {}}}}, "expected_tools[1].output"},
		{"input", toolgrade.Case{ID: "c", Input: complex(1, 1)}, "input"},
		{"final state", toolgrade.Case{ID: "d", Raw: jsonvalue.Object{{Key: "final_state", Value: map[string]any{"db": make(chan int)}}}}, "final_state"},
		{"turn input", toolgrade.Case{ID: "e", Turns: []toolgrade.Turn{{Input: "hi"}, {Input: func() {}}}}, "turns[1].input"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := toolgrade.Grade(context.Background(), &tt.c, m)
			var fe *toolgrade.FieldError
			if !errors.As(r.Err, &fe) || fe.Path != tt.path {
				t.Fatalf("Err = %v, want a *FieldError at %s", r.Err, tt.path)
			}
			if r.ID != tt.c.ID || r.Success || !errors.As(r.Metrics[0].Err, &fe) || r.Metrics[0].Error != r.Error {
				t.Errorf("result %+v: want the error on the case and its metric", r)
			}
		})
	}
}

// State built in code compares as the same state decoded from a file.
func TestGradeGoState(t *testing.T) {
	m, err := state.New(state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type order struct {
		ID    string `json:"id"`
		Items int    `json:"items"`
	}
	raw := jsonvalue.Object{
		{Key: "expected_state", Value: map[string]any{"orders": []order{{"A1", 2}}}},
		{Key: "final_state", Value: map[string]any{"orders": []map[string]any{{"items": 2.0, "id": "A1"}}}},
	}
	c := &toolgrade.Case{Raw: raw}
	r := toolgrade.Grade(context.Background(), c, m)
	if r.Error != "" || r.Metrics[0].Score != 1 {
		t.Errorf("score %v (error %q, reason %s), want 1", r.Metrics[0].Score, r.Error, r.Metrics[0].Reason)
	}
	if _, isMap := raw[0].Value.(map[string]any); !isMap || r.Case == c {
		t.Errorf("the case built in code was changed, or not copied")
	}
}

// Evaluate converts cases given as records the same way.
func TestEvaluateGoValues(t *testing.T) {
	m, _ := match.New(match.Options{})
	cases := []*toolgrade.Case{
		{ID: "ok", Expected: []toolgrade.Call{{Name: "f", Args: map[string]int{"n": 1}}}, Called: []toolgrade.Call{{Name: "f", Args: map[string]any{"n": 1.0}}}},
		{ID: "bad", Called: []toolgrade.Call{{Name: "f", Args: make(chan int)}}},
	}
	var got []string
	err := toolgrade.Evaluate(context.Background(), toolgrade.Records(cases), []toolgrade.Metric{m}, func(r *toolgrade.Result) error {
		got = append(got, r.ID+":"+r.Error)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ok:", "bad:field tools_called[0].args: a chan int has no JSON form"}
	if !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
}

// Arguments given as JSON text, as SDKs give them, are read as a case
// file reads them: `{"x":1}` is the object, not a string; text that does
// not parse makes the call invalid; other strings are string values.
func TestGradeArgsAsJSONText(t *testing.T) {
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		expected, args any
		pass           bool
	}{
		{"object text against a map", map[string]any{"x": 1}, `{"x":1}`, true},
		{"object text against object text", `{"x": 1.0}`, ` {"x":1}`, true},
		{"array text", []any{1, 2}, "[1,2]", true},
		{"text of another object", map[string]any{"x": 1}, `{"x":2}`, false},
		{"broken text", map[string]any{"x": 1}, `{"x":`, false},
		{"a plain string stays a string", "Paris", "Paris", true},
		{"a plain string is not an object", map[string]any{"x": 1}, "x=1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &toolgrade.Case{ID: "c",
				Expected: []toolgrade.Call{{Name: "f", Args: tc.expected}},
				Called:   []toolgrade.Call{{Name: "f", Args: tc.args}}}
			r := toolgrade.Grade(context.Background(), c, m)
			if r.Success != tc.pass {
				t.Errorf("passed %v, want %v: %s", r.Success, tc.pass, r.Metrics[0].Reason)
			}
			if c.Called[0].Args != tc.args {
				t.Error("Grade changed the case given")
			}
		})
	}
	// Broken text is an invalid call, and the reason says so.
	rec := toolgrade.Grade(context.Background(), &toolgrade.Case{ID: "c",
		Expected: []toolgrade.Call{{Name: "f", Args: map[string]any{"x": 1}}},
		Called:   []toolgrade.Call{{Name: "f", Args: `{"x":`}}}, m)
	if reason := rec.Metrics[0].Reason; !strings.Contains(reason, "not valid JSON") {
		t.Errorf("broken text: the reason does not say so: %s", reason)
	}
}
