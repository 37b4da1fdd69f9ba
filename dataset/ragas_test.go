package dataset

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Ragas' samples are cases as Ragas writes them (EvaluationDataset.to_jsonl:
// model_dump without the None fields): a MultiTurnSample's user_input is
// the conversation, its ai messages' tool_calls the calls made,
// reference_tool_calls the expected calls and reference the expected
// answer; a SingleTurnSample's user_input is the query.
func TestRagasSamples(t *testing.T) {
	const multi = `{"user_input": [{"content": "Weather in Paris?", "type": "human"}, {"content": "", "type": "ai", "tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}, {"content": "sunny", "type": "tool"}, {"content": "Checking more.", "type": "ai", "tool_calls": [{"name": "get_forecast", "args": {"city": "Paris", "days": 2}}]}, {"content": "rain", "type": "tool"}, {"content": "Sunny now, rain later.", "type": "ai"}], "reference": "Sunny, then rain.", "reference_tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}`
	for _, tt := range []struct {
		name, line         string
		called, expected   []string
		input, expOut, out any
		trajectory         bool
	}{
		{"multi-turn sample", multi, []string{`get_weather({"city":"Paris"})`, `get_forecast({"city":"Paris","days":2})`},
			[]string{`get_weather({"city":"Paris"})`}, nil, "Sunny, then rain.", nil, true},
		{"single-turn sample", `{"user_input": "What is 2+2?", "response": "4", "reference": "4"}`, nil, nil, "What is 2+2?", "4", "4", false},
		{"no reference", `{"user_input": [{"content": "hi", "type": "human"}, {"content": "hello", "type": "ai"}]}`, nil, nil, nil, nil, nil, true},
		{"toolgrade's own fields win", `{"input": "q", "user_input": "ignored", "expected_tools": [{"name": "a"}], "reference_tool_calls": [{"name": "b", "args": {}}]}`,
			nil, []string{"a()"}, "q", nil, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			c, err := DecodeCase(v)
			if err != nil {
				t.Fatal(err)
			}
			if got := callStrings(c.Called); strings.Join(got, " ") != strings.Join(tt.called, " ") {
				t.Errorf("called %v, want %v", got, tt.called)
			}
			if got := callStrings(c.Expected); strings.Join(got, " ") != strings.Join(tt.expected, " ") {
				t.Errorf("expected %v, want %v", got, tt.expected)
			}
			if c.Input != tt.input || c.ExpectedOutput != tt.expOut || c.ActualOutput != tt.out {
				t.Errorf("input %v, expected output %v, output %v; want %v, %v, %v", c.Input, c.ExpectedOutput, c.ActualOutput, tt.input, tt.expOut, tt.out)
			}
			if (c.Trajectory != nil) != tt.trajectory {
				t.Errorf("trajectory %v, want one: %v", c.Trajectory, tt.trajectory)
			}
		})
	}
}

// TestRagasEvaluationDataset reads an EvaluationDataset saved as JSONL as
// a case file, one case per sample; a broken sample names its line and
// field.
func TestRagasEvaluationDataset(t *testing.T) {
	const file = `{"user_input": [{"content": "a", "type": "human"}, {"content": "", "type": "ai", "tool_calls": [{"name": "f", "args": {"x": 1}}]}, {"content": "ok", "type": "tool"}], "reference_tool_calls": [{"name": "f", "args": {"x": 1}}]}
{"user_input": [{"content": "b", "type": "human"}], "reference_tool_calls": []}
{"user_input": [{"content": "c", "type": "human"}], "reference_tool_calls": [{"name": 7, "args": {}}]}
`
	var got []string
	for rec, err := range Reader("ragas.jsonl", strings.NewReader(file), Auto) {
		if err != nil {
			t.Fatal(err)
		}
		c, err := rec.Decode()
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, c.ID+": "+strings.Join(callStrings(c.Called), ",")+" / "+strings.Join(callStrings(c.Expected), ","))
	}
	want := []string{`line-1: f({"x":1}) / f({"x":1})`, `line-2:  / `, `ragas.jsonl:3: field reference_tool_calls[0].name`}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("case %d: %q, want %q...", i, got[i], want[i])
		}
	}
}

func callStrings(calls []toolgrade.Call) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.String())
	}
	return out
}
