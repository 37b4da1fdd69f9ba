package openevals_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/agentevals"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/compat/openevals"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestOpenevalsConformance runs every line of openevals.jsonl (the
// package's sample, and the shared corpus when present) through the
// profile, built from the line's config as a config file would build it.
func TestOpenevalsConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "openevals.jsonl", Lines: 1722})
}

// message is an assistant message with one call of a with the given
// argument text.
func message(args string) string {
	return fmt.Sprintf(`{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":%q}}]}`, args)
}

// TestOpenevalsChanges checks what openevals changed from agentevals
// 0.0.7, each against the agentevals profile's verdict on the same case.
func TestOpenevalsChanges(t *testing.T) {
	list := func(args string) string { return `[{"role":"user","content":"hi"},` + message(args) + `]` }
	tests := []struct {
		name            string
		opts            openevals.Options
		out, ref        string
		want, agentWant bool
		err             string // a substring of openevals' error, if one is wanted
	}{
		{name: "an array is not an object", out: list(`{"l":["en","fr"]}`), ref: list(`{"l":{"0":"en","1":"fr"}}`), agentWant: true},
		{name: "[] is not {}", out: list(`{"l":[]}`), ref: list(`{"l":{}}`), agentWant: true},
		{name: "null equals null", out: list(`{"x":null}`), ref: list(`{"x":null}`), want: true, agentWant: true},
		{name: "numbers by value", out: list(`{"x":1,"y":-0}`), ref: list(`{"y":0,"x":1.0}`), want: true, agentWant: true},
		{
			name: "a key path missing on both sides fails",
			opts: openevals.Options{ToolArgsMatchOverrides: map[string]openevals.Override{"a": {Keys: []string{"when.date"}}}},
			out:  list(`{"q":1}`), ref: list(`{"q":1}`), agentWant: true,
		},
		{
			name: "a key path missing on one side is not null",
			opts: openevals.Options{ToolArgsMatchOverrides: map[string]openevals.Override{"a": {Keys: []string{"w.d"}}}},
			out:  list(`{"w":{"d":null}}`), ref: list(`{"w":"text"}`), agentWant: true,
		},
		{
			name: "a key present with null equals null",
			opts: openevals.Options{ToolArgsMatchOverrides: map[string]openevals.Override{"a": {Keys: []string{"w.d"}}}},
			out:  list(`{"w":{"d":null}}`), ref: list(`{"w":{"d":null},"z":1}`), want: true, agentWant: true,
		},
		{
			name: "array indices and length in key paths",
			opts: openevals.Options{ToolArgsMatchOverrides: map[string]openevals.Override{"a": {Keys: []string{"p.1.n", "p.length"}}}},
			out:  list(`{"p":[{"n":1},{"n":2}]}`), ref: list(`{"p":[{"n":9},{"n":2}]}`), want: true, agentWant: true,
		},
		{name: "a single message object", out: message(`{"x":1}`), ref: list(`{"x":1}`), want: false, err: ""},
		{
			name: "a single message object, flattened",
			opts: openevals.Options{TrajectoryMatchMode: "unordered"},
			out:  message(`{"x":1}`), ref: list(`{"x":1}`), want: true,
		},
		{
			name: "a message's messages member that is no list",
			opts: openevals.Options{TrajectoryMatchMode: "superset"},
			out:  strings.Replace(message(`{"x":1}`), `"role"`, `"messages":"x","role"`, 1), ref: list(`{"x":1}`), want: true,
		},
		{name: "an object that is no message", out: `{"content":"hi"}`, ref: list(`{}`), err: "needs a messages list"},
		{name: "null trajectory", out: `null`, ref: list(`{}`), err: "missing"},
		{name: "arguments that are not JSON", opts: openevals.Options{TrajectoryMatchMode: "subset"}, out: list(`{`), ref: list(`{}`), err: "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := openevals.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			c := &toolgrade.Case{Trajectory: parse(t, tt.out), ExpectedTrajectory: parse(t, tt.ref)}
			r := m.Grade(context.Background(), c)
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || r.Success != tt.want || r.Score != map[bool]float64{true: 1}[tt.want] {
				t.Errorf("success %v score %v error %q, want %v (reason: %s)", r.Success, r.Score, r.Error, tt.want, r.Reason)
			}
			if strings.HasPrefix(tt.out, "[") {
				a, err := agentevals.New(tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				if ar := a.Grade(context.Background(), c); ar.Success != tt.agentWant {
					t.Errorf("agentevals: success %v, want %v (reason: %s)", ar.Success, tt.agentWant, ar.Reason)
				}
			}
		})
	}
}

func parse(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOpenevalsOptions(t *testing.T) {
	for _, tt := range []struct {
		opts openevals.Options
		err  string
	}{
		{openevals.Options{TrajectoryMatchMode: "STRICT"}, "trajectory_match_mode"},
		{openevals.Options{ToolArgsMatchMode: "fuzzy"}, "tool_args_match_mode"},
		{openevals.Options{ToolArgsMatchOverrides: map[string]openevals.Override{"a": {Mode: "loose"}}}, "tool_args_match_overrides.a"},
	} {
		if _, err := openevals.New(tt.opts); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%+v: error %v, want %q", tt.opts, err, tt.err)
		}
	}
}

func ExampleNew() {
	m, err := openevals.New(openevals.Options{
		TrajectoryMatchMode: openevals.TrajectorySuperset,
		ToolArgsMatchOverrides: map[string]openevals.Override{
			"get_weather": {Keys: []string{"city", "unit"}}, // compare only these
		},
	})
	if err != nil {
		panic(err)
	}
	call := func(args string) any {
		return jsonvalue.MustFrom(map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{
			"type": "function", "function": map[string]any{"name": "get_weather", "arguments": args},
		}}})
	}
	c := &toolgrade.Case{ // one message object each: openevals reads it as a trajectory
		Trajectory:         call(`{"city": "Paris"}`),
		ExpectedTrajectory: call(`{"city": "Paris"}`),
	}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score, r.Success)
	// Output:
	// 0 false
}
