package trace_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/trace"
)

func TestMastra(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		calls []string // name and status of each call
		skips int
	}{
		{"trajectory", `{"steps":[{"stepType":"tool_call","name":"search","toolArgs":{"q":"x"},"toolResult":{"n":1},"success":true},
			{"stepType":"model_generation","name":"llm","promptTokens":3},
			{"stepType":"mcp_tool_call","name":"fetch","toolArgs":{},"success":false}],"totalDurationMs":5}`,
			[]string{"search ok", "fetch error"}, 0},
		{"children read in place", `{"steps":[{"stepType":"agent_run","name":"sub","children":[{"stepType":"tool_call","name":"a"}]},{"stepType":"tool_call","name":"b"}]}`,
			[]string{"a ", "b "}, 0},
		{"expectation without types", `{"steps":[{"name":"a"},{"name":"b","children":{"steps":[{"name":"c"}]}}],"ordering":"strict","maxSteps":4}`,
			[]string{"a ", "b ", "c "}, 0},
		{"no steps", `{"steps":[],"totalDurationMs":0}`, nil, 0},
		{"a model generation with toolArgs is no call", `{"steps":[{"stepType":"model_generation","name":"llm","toolArgs":{"x":1}}]}`, nil, 0},
		{"unknown step type and nameless tool step", `{"steps":[{"stepType":"teleport","name":"x"},{"stepType":"tool_call"}]}`, nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.in), "")
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != "mastra" {
				t.Fatalf("format %q", tr.Format)
			}
			var got []string
			for _, c := range tr.Calls {
				got = append(got, c.Name+" "+c.Status.String())
			}
			if diff := cmp.Diff(tt.calls, got); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if len(tr.Skipped) != tt.skips {
				t.Errorf("skipped %v, want %d", tr.Skipped, tt.skips)
			}
		})
	}
}

// TestMastraExpectationWithoutSteps: an expectation of budgets alone, or
// nothing, lists no calls; it is no trace of any format, detected or
// forced, rather than an empty one.
func TestMastraExpectationWithoutSteps(t *testing.T) {
	for _, in := range []string{`{}`, `{"maxSteps":3,"noRedundantCalls":true}`, `{"ordering":"strict"}`, `{"steps":null,"maxSteps":1}`} {
		for _, format := range []string{"", "mastra"} {
			if tr, err := trace.Read([]byte(in), format); err == nil {
				t.Errorf("%s (format %q): read as %s with %d calls, want an error", in, format, tr.Format, len(tr.Calls))
			}
		}
	}
}

func FuzzMastra(f *testing.F) {
	fuzzFormat(f, "mastra",
		`{"steps":[{"stepType":"tool_call","name":"a","toolArgs":{"x":1},"toolResult":2,"success":false,"children":[{"stepType":"mcp_tool_call","name":"b"}]}],"totalDurationMs":3}`,
		`{"steps":[{"name":"a","children":{"steps":[{"name":"c"}]}}],"ordering":"strict","maxSteps":2}`,
		`{"maxSteps":2}`, `{}`)
}
