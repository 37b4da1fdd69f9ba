package mastra_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/compat/mastra"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestMastraConformance runs every line of mastra.jsonl (the package's
// sample, and the shared corpus when present) through the profile, built
// from the line's config as a config file would build it.
func TestMastraConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "mastra.jsonl", Lines: 1332})
}

// msg is one stored assistant message with tool-invocation parts, each
// "name" or "name state" (state result by default).
func msg(parts ...string) string {
	var ps []string
	for i, p := range parts {
		name, state, ok := strings.Cut(p, " ")
		if !ok {
			state = "result"
		}
		ps = append(ps, fmt.Sprintf(`{"type":"tool-invocation","toolInvocation":{"toolCallId":"c%d-%s","toolName":%q,"args":{},"state":%q}}`, i, name, name, state))
	}
	return `{"id":"m","role":"assistant","content":{"format":2,"parts":[` + strings.Join(ps, ",") + `]}}`
}

const input = `"input_messages":[{"id":"u","role":"user","content":{"format":2,"parts":[{"type":"text","text":"hi"}]}}]`

func TestMastraQuirks(t *testing.T) {
	tests := []struct {
		name string
		opts mastra.Options
		cs   string
		want float64
		err  string
	}{
		{
			name: "order: only each name's first occurrence counts",
			opts: mastra.Options{Scorer: mastra.ToolCallAccuracy, ExpectedToolOrder: []string{"b", "a"}},
			cs:   `{` + input + `,"output":[` + msg("a", "b", "a") + `]}`,
			want: 0,
		},
		{
			name: "order: a name listed twice never passes",
			opts: mastra.Options{Scorer: mastra.ToolCallAccuracy, ExpectedToolOrder: []string{"a", "a"}},
			cs:   `{` + input + `,"output":[` + msg("a", "a") + `]}`,
			want: 0,
		},
		{
			name: "the check is a true subsequence",
			opts: mastra.Options{Scorer: mastra.ToolOrder, ExpectedOrder: []string{"b", "a"}},
			cs:   `{"output":[` + msg("a", "b", "a") + `]}`,
			want: 1,
		},
		{
			name: "partial calls do not count, output errors do",
			opts: mastra.Options{Scorer: mastra.MaxToolCalls, Max: toolgrade.Float(1)},
			cs:   `{"output":[` + msg("a partial-call", "b output-error", "c call") + `]}`,
			want: 0,
		},
		{
			name: "a legacy entry whose id a part has is dropped",
			opts: mastra.Options{Scorer: mastra.CalledTool, ToolName: ptr("a"), Times: toolgrade.Float(2)},
			cs: `{"output":[{"id":"m","role":"assistant","content":{"format":2,
				"parts":[{"type":"tool-invocation","toolInvocation":{"toolCallId":"x","toolName":"a","state":"result"}}],
				"toolInvocations":[{"toolCallId":"x","toolName":"a","state":"result"}]}}]}`,
			want: 0,
		},
		{
			name: "empty input messages are an error",
			opts: mastra.Options{Scorer: mastra.ToolCallAccuracy, ExpectedTool: "a"},
			cs:   `{"input_messages":[],"output":[` + msg("a") + `]}`,
			err:  "cannot be null or empty",
		},
		{
			name: "step data compares by JSON.stringify text: key order matters",
			opts: mastra.Options{Scorer: mastra.TrajectoryAccuracy},
			cs: `{"trajectory":{"steps":[{"stepType":"tool_call","name":"a","toolArgs":{"x":1,"y":2}}]},
				"expected_trajectory":{"steps":[{"stepType":"tool_call","name":"a","toolArgs":{"y":2,"x":1}}]}}`,
			want: 0,
		},
		{
			name: "but 1.0 is 1, and integer-like keys move first",
			opts: mastra.Options{Scorer: mastra.TrajectoryAccuracy},
			cs: `{"trajectory":{"steps":[{"stepType":"tool_call","name":"a","toolArgs":{"b":1,"1":2}}]},
				"expected_trajectory":{"steps":[{"stepType":"tool_call","name":"a","toolArgs":{"1":2.0,"b":1e0}}]}}`,
			want: 1,
		},
		{
			name: "no stepType: matched on the name alone",
			opts: mastra.Options{Scorer: mastra.TrajectoryAccuracy},
			cs: `{"trajectory":{"steps":[{"stepType":"tool_call","name":"a","toolArgs":{"x":1}}]},
				"expected_trajectory":{"steps":[{"name":"a","toolArgs":{"x":2}}]}}`,
			want: 1,
		},
		{
			name: "strict: a nameless step past the end counts as a match",
			opts: mastra.Options{Scorer: mastra.TrajectoryAccuracy, ComparisonOptions: &mastra.ComparisonOptions{Ordering: ptr("strict")}},
			cs: `{"trajectory":{"steps":[{"stepType":"tool_call","name":"b"},{"stepType":"tool_call","name":"a"},{"stepType":"tool_call"}]},
				"expected_trajectory":{"steps":[{"stepType":"tool_call","name":"a"},{"stepType":"tool_call","name":"b"}]}}`,
			want: 0.25,
		},
		{
			name: "repeats cost 0.1 per name, rounded to two decimals",
			opts: mastra.Options{Scorer: mastra.TrajectoryAccuracy, ComparisonOptions: &mastra.ComparisonOptions{AllowRepeatedSteps: ptr(false)}},
			cs: `{"trajectory":{"steps":[{"stepType":"tool_call","name":"a"},{"stepType":"tool_call","name":"a"},{"stepType":"tool_call","name":"b"}]},
				"expected_trajectory":{"steps":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`,
			want: 0.57,
		},
		{
			name: "a blacklisted tool makes the whole score 0",
			opts: mastra.Options{Scorer: mastra.Trajectory, Defaults: &mastra.Expectation{BlacklistedTools: []string{"rm"}}},
			cs:   `{"trajectory":{"steps":[{"stepType":"tool_call","name":"rm"}]},"expected_trajectory":{"steps":[{"name":"rm"}]}}`,
			want: 0,
		},
		{
			name: "a token budget without model generations is an error",
			opts: mastra.Options{Scorer: mastra.Trajectory, Defaults: &mastra.Expectation{MaxTotalTokens: toolgrade.Float(10)}},
			cs:   `{"trajectory":{"steps":[{"stepType":"tool_call","name":"a"}]}}`,
			err:  "token budget",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mastra.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.cs))
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want one containing %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || r.Score != tt.want {
				t.Errorf("score %v error %q, want %v (reason: %s)", r.Score, r.Error, tt.want, r.Reason)
			}
			if r.Threshold != nil {
				t.Errorf("threshold %v: Mastra scorers give no verdict", *r.Threshold)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestMastraOptions(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts mastra.Options
		err  string
	}{
		{"unknown scorer", mastra.Options{Scorer: "code-tool-call"}, "scorer"},
		{"an option of another scorer", mastra.Options{Scorer: mastra.UsedNoTools, ToolName: ptr("a")}, "tool_name"},
		{"neither expected tool nor order", mastra.Options{Scorer: mastra.ToolCallAccuracy}, "expected_tool_order"},
		{"a static expectation without steps", mastra.Options{ExpectedTrajectory: []byte(`{"ordering":"strict"}`)}, "expected_trajectory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mastra.New(tt.opts)
			var oe *toolgrade.OptionError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want an OptionError naming %s", err, tt.err)
			}
		})
	}
}

// Scores are in [0, 1] whatever the trajectories.
func TestMastraScoreRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		step := rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprintf(`{"stepType":%q,"name":%q,"success":%v,"toolArgs":{"x":%d}}`,
				rapid.SampledFrom([]string{"tool_call", "mcp_tool_call", "model_generation"}).Draw(t, "type"),
				rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "name"), rapid.Bool().Draw(t, "ok"), rapid.IntRange(0, 2).Draw(t, "x"))
		})
		steps := func(label string) string {
			return strings.Join(rapid.SliceOfN(step, 0, 6).Draw(t, label), ",")
		}
		cs := `{"trajectory":{"steps":[` + steps("actual") + `]},"expected_trajectory":{"steps":[` + steps("expected") + `],"ordering":` +
			strconv.Quote(rapid.SampledFrom([]string{"strict", "relaxed", "unordered"}).Draw(t, "ordering")) + `,"allowRepeatedSteps":` +
			strconv.FormatBool(rapid.Bool().Draw(t, "repeats")) + `,"noRedundantCalls":true,"maxSteps":3}}`
		for _, s := range []mastra.Scorer{mastra.TrajectoryAccuracy, mastra.Trajectory} {
			m, _ := mastra.New(mastra.Options{Scorer: s})
			v, err := jsonvalue.ParseString(cs)
			if err != nil {
				t.Fatal(err)
			}
			c, err := dataset.DecodeCase(v)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), c)
			if r.Error != "" || r.Score < 0 || r.Score > 1 {
				t.Fatalf("%s: score %v error %q", s, r.Score, r.Error)
			}
		}
	})
}

// FuzzMastraMessages feeds stored messages of any shape to every agent
// scorer: no panic, and a score of 0 or 1 or an error.
func FuzzMastraMessages(f *testing.F) {
	f.Add(`[` + msg("a", "b partial-call") + `]`)
	f.Add(`[{"content":{"parts":[{"type":"tool-invocation","toolInvocation":null}],"toolInvocations":[{"toolCallId":"x","toolName":"a","state":"call"},null]}}]`)
	f.Add(`[{"content":{"parts":"x"}}]`)
	f.Add(`{"length":1}`)
	f.Fuzz(func(t *testing.T, output string) {
		v, err := jsonvalue.ParseString(output)
		if err != nil {
			return
		}
		c := &toolgrade.Case{Raw: jsonvalue.Object{{Key: "output", Value: v}, {Key: "input_messages", Value: []any{"m"}}}}
		for _, o := range []mastra.Options{
			{Scorer: mastra.ToolCallAccuracy, ExpectedToolOrder: []string{"a", "b"}},
			{Scorer: mastra.NoToolErrors}, {Scorer: mastra.UsedNoTools},
		} {
			m, _ := mastra.New(o)
			r := m.Grade(context.Background(), c)
			if r.Error == "" && r.Score != 0 && r.Score != 1 {
				t.Fatalf("score %v", r.Score)
			}
		}
	})
}

func ExampleMetric() {
	m, _ := mastra.New(mastra.Options{Scorer: mastra.ToolCallAccuracy, ExpectedToolOrder: []string{"search", "book"}})
	v, _ := jsonvalue.ParseString(`{
		"input_messages": [{"role": "user", "content": {"format": 2, "parts": [{"type": "text", "text": "book a flight"}]}}],
		"output": [{"role": "assistant", "content": {"format": 2, "parts": [
			{"type": "tool-invocation", "toolInvocation": {"toolCallId": "1", "toolName": "book", "state": "result"}},
			{"type": "tool-invocation", "toolInvocation": {"toolCallId": "2", "toolName": "search", "state": "result"}},
			{"type": "tool-invocation", "toolInvocation": {"toolCallId": "3", "toolName": "book", "state": "result"}}]}}]}`)
	c, _ := dataset.DecodeCase(v)
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score)
	// Output: 0
}
