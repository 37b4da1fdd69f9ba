package agentevals_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/agentevals"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestAgentevalsConformance runs every line of agentevals.jsonl (the
// package's sample, and the shared corpus when present) through the
// profile, built from the line's config as a config file would build it.
func TestAgentevalsConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "agentevals.jsonl", Lines: 1512})
}

// chatTrajectory builds a trajectory of one user message and one
// assistant message per group of calls; each call is "name args-text".
func chatTrajectory(groups ...[]string) []any {
	msgs := []any{jsonvalue.Object{{Key: "role", Value: "user"}, {Key: "content", Value: "hi"}}}
	for _, g := range groups {
		var calls []any
		for i, c := range g {
			name, args, _ := strings.Cut(c, " ")
			calls = append(calls, jsonvalue.Object{
				{Key: "id", Value: fmt.Sprint("call_", i)},
				{Key: "type", Value: "function"},
				{Key: "function", Value: jsonvalue.Object{{Key: "name", Value: name}, {Key: "arguments", Value: args}}},
			})
		}
		msg := jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: ""}}
		if g != nil {
			msg = append(msg, jsonvalue.Member{Key: "tool_calls", Value: calls})
		}
		msgs = append(msgs, msg)
	}
	return msgs
}

func TestAgentevalsQuirks(t *testing.T) {
	type calls = []string
	tests := []struct {
		name     string
		opts     agentevals.Options
		out, ref []any
		want     bool
		err      string // a substring of the error, if one is wanted
		reason   string // a substring of the reason
	}{
		{
			name: "strict: same calls in another order within a message",
			out:  chatTrajectory(calls{`a {"x":1}`, `b {}`}),
			ref:  chatTrajectory(calls{`b {}`, `a {"x":1.0}`}),
			want: true,
		},
		{
			name:   "strict: empty tool_calls differs from none",
			out:    chatTrajectory(calls{}),
			ref:    chatTrajectory(nil),
			reason: "empty list counts as present",
		},
		{
			name:   "strict: calls grouped into other messages",
			out:    chatTrajectory(calls{`a {}`, `b {}`}),
			ref:    chatTrajectory(calls{`a {}`}, calls{`b {}`}),
			reason: "2 messages, the reference 3",
		},
		{
			name: "exact: true is not 1",
			opts: agentevals.Options{TrajectoryMatchMode: "unordered"},
			out:  chatTrajectory(calls{`a {"f":true}`}),
			ref:  chatTrajectory(calls{`a {"f":1}`}),
		},
		{
			name: "exact: an array equals an object with its index keys",
			opts: agentevals.Options{TrajectoryMatchMode: "unordered"},
			out:  chatTrajectory(calls{`a {"l":["en","fr"]}`}),
			ref:  chatTrajectory(calls{`a {"l":{"1":"fr","0":"en"}}`}),
			want: true,
		},
		{
			name: "exact: null differs from a missing key",
			opts: agentevals.Options{TrajectoryMatchMode: "unordered"},
			out:  chatTrajectory(calls{`a {"x":null}`}),
			ref:  chatTrajectory(calls{`a {}`}),
		},
		{
			name: "superset: extra calls allowed",
			opts: agentevals.Options{TrajectoryMatchMode: "superset"},
			out:  chatTrajectory(calls{`a {}`, `b {}`}),
			ref:  chatTrajectory(calls{`a {}`}),
			want: true,
		},
		{
			name:   "subset: an extra call fails",
			opts:   agentevals.Options{TrajectoryMatchMode: "subset"},
			out:    chatTrajectory(calls{`a {}`, `b {}`}),
			ref:    chatTrajectory(calls{`a {}`}),
			reason: "trajectory call #1 b({})",
		},
		{
			name: "subset mode swaps the matcher's arguments",
			opts: agentevals.Options{TrajectoryMatchMode: "subset", ToolArgsMatchMode: "superset"},
			out:  chatTrajectory(calls{`a {"x":1}`}),
			ref:  chatTrajectory(calls{`a {"x":1,"y":2}`}),
			want: true,
		},
		{
			name: "superset mode passes the matcher's arguments in order",
			opts: agentevals.Options{TrajectoryMatchMode: "superset", ToolArgsMatchMode: "superset"},
			out:  chatTrajectory(calls{`a {"x":1,"y":2}`}),
			ref:  chatTrajectory(calls{`a {"x":1}`}),
			want: true,
		},
		{
			name:   "first-fit pairing misses a pairing that exists",
			opts:   agentevals.Options{TrajectoryMatchMode: "superset", ToolArgsMatchMode: "superset"},
			out:    chatTrajectory(calls{`a {"x":1,"y":2}`, `a {"x":1}`}),
			ref:    chatTrajectory(calls{`a {"x":1}`, `a {"x":1,"y":2}`}),
			reason: "one-to-one pairing",
		},
		{
			name: "override by mode",
			opts: agentevals.Options{TrajectoryMatchMode: "unordered", ToolArgsMatchOverrides: map[string]agentevals.Override{"a": {Mode: "ignore"}}},
			out:  chatTrajectory(calls{`a {"x":1}`}),
			ref:  chatTrajectory(calls{`a {"x":2}`}),
			want: true,
		},
		{
			name: "key paths follow array indices",
			opts: agentevals.Options{ToolArgsMatchOverrides: map[string]agentevals.Override{"a": {Keys: []string{"p.1.n"}}}},
			out:  chatTrajectory(calls{`a {"p":[{"n":1},{"n":2}],"z":1}`}),
			ref:  chatTrajectory(calls{`a {"p":[{"n":9},{"n":2}]}`}),
			want: true,
		},
		{
			name: "key paths: undefined equals null",
			opts: agentevals.Options{ToolArgsMatchOverrides: map[string]agentevals.Override{"a": {Keys: []string{"w.d"}}}},
			out:  chatTrajectory(calls{`a {"w":{"d":null}}`}),
			ref:  chatTrajectory(calls{`a {"w":"text"}`}),
			want: true,
		},
		{
			name: "no key paths match anything",
			opts: agentevals.Options{ToolArgsMatchOverrides: map[string]agentevals.Override{"a": {Keys: []string{}}}},
			out:  chatTrajectory(calls{`a {"x":1}`}),
			ref:  chatTrajectory(calls{`a {"x":2}`}),
			want: true,
		},
		{
			name: "flattened modes parse every call",
			opts: agentevals.Options{TrajectoryMatchMode: "superset"},
			out:  chatTrajectory(calls{`a {}`, `b not json`}),
			ref:  chatTrajectory(calls{`a {}`}),
			err:  "not valid JSON",
		},
		{
			name:   "strict parses only the calls it reaches",
			out:    chatTrajectory(calls{`a {"x":1}`}, calls{`b not json`}),
			ref:    chatTrajectory(calls{`a {"x":2}`}, calls{`b {}`}),
			reason: "matches no unused reference call",
		},
		{
			name: "strict: a reached bad call is an error",
			out:  chatTrajectory(calls{`a {"x":1}`}, calls{`b not json`}),
			ref:  chatTrajectory(calls{`a {"x":1}`}, calls{`b {}`}),
			err:  "JSON.parse threw",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := agentevals.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), &toolgrade.Case{Trajectory: tt.out, ExpectedTrajectory: tt.ref})
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q (reason %s)", r.Error, tt.err, r.Reason)
				}
				return
			}
			if r.Error != "" {
				t.Fatalf("unexpected error %s", r.Error)
			}
			if r.Success != tt.want || r.Score != map[bool]float64{true: 1}[tt.want] {
				t.Errorf("success %v score %v, want %v (reason: %s)", r.Success, r.Score, tt.want, r.Reason)
			}
			if !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("reason %q lacks %q", r.Reason, tt.reason)
			}
		})
	}
}

func TestAgentevalsOptionsJSON(t *testing.T) {
	tests := []struct {
		in, err string
	}{
		{`{"trajectory_match_mode":"subset","tool_args_match_overrides":{"a":"ignore","b":["x.y"],"c":[]}}`, ""},
		{`{"trajectory_match_mode":"fuzzy"}`, "trajectory_match_mode"},
		{`{"tool_args_match_mode":"partial"}`, "tool_args_match_mode"},
		{`{"tool_args_match_overrides":{"a":"loose"}}`, "tool_args_match_overrides.a"},
		{`{"tool_args_match_overrides":{"a":3}}`, "key paths"},
		{`{"tool_args_match_overrides":{"a":null}}`, "got null"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var o agentevals.Options
			err := json.Unmarshal([]byte(tt.in), &o)
			if err == nil {
				_, err = agentevals.New(o)
			}
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if err != nil {
				return
			}
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var back agentevals.Options
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if b2, _ := json.Marshal(back); string(b2) != string(b) {
				t.Errorf("%s read back as %s", b, b2)
			}
		})
	}
}

func TestAgentevalsBadTrajectories(t *testing.T) {
	m, err := agentevals.New(agentevals.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ok := chatTrajectory([]string{"a {}"})
	for _, tt := range []struct {
		name     string
		out, ref any
		err      string
	}{
		{"missing", nil, ok, "trajectory: missing"},
		{"not a list", "hello", ok, "want a list of chat messages"},
		{"message not an object", []any{"hi"}, ok, "trajectory[0]"},
		{"tool_calls not a list", []any{jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "tool_calls", Value: "x"}}}, ok, "tool_calls"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Grade(context.Background(), &toolgrade.Case{Trajectory: tt.out, ExpectedTrajectory: tt.ref})
			if !strings.Contains(r.Error, tt.err) {
				t.Errorf("error %q, want %q", r.Error, tt.err)
			}
		})
	}
}

func ExampleNew() {
	m, err := agentevals.New(agentevals.Options{
		TrajectoryMatchMode: "superset",
		ToolArgsMatchOverrides: map[string]agentevals.Override{
			"get_weather": {Keys: []string{"city"}}, // compare only the city
		},
	})
	if err != nil {
		panic(err)
	}
	trajectory := func(args string) any {
		return jsonvalue.MustFrom([]any{
			map[string]any{"role": "user", "content": "Weather in Paris?"},
			map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
				"type": "function", "function": map[string]any{"name": "get_weather", "arguments": args},
			}}},
		})
	}
	c := &toolgrade.Case{
		Trajectory:         trajectory(`{"city": "Paris", "unit": "C"}`),
		ExpectedTrajectory: trajectory(`{"city": "Paris"}`),
	}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score, r.Success, r.Reason)
	// Output:
	// 1 true all 1 reference calls are matched by trajectory calls
}
