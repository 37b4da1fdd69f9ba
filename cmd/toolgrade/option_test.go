package main

import (
	"strings"
	"testing"
)

// ragasSample is a MultiTurnSample line as Ragas' EvaluationDataset.to_jsonl
// writes it: the calls are made in the other order, and one argument is
// 1.0 where the reference has 1.
const ragasSample = `{"user_input": [{"content": "Weather in Paris and Tokyo?", "type": "human"}, {"content": "", "type": "ai", "tool_calls": [{"name": "get_weather", "args": {"city": "Tokyo"}}, {"name": "get_weather", "args": {"city": "Paris", "days": 1.0}}]}, {"content": "rain", "type": "tool"}, {"content": "sun", "type": "tool"}, {"content": "Sunny in Paris, rain in Tokyo.", "type": "ai"}], "reference": "Sunny in Paris, rain in Tokyo.", "reference_tool_calls": [{"name": "get_weather", "args": {"city": "Paris", "days": 1}}, {"name": "get_weather", "args": {"city": "Tokyo"}}]}` + "\n"

func TestEvalOption(t *testing.T) {
	cases := writeFile(t, "ragas.jsonl", ragasSample)
	cfg := writeFile(t, "toolgrade.yaml", "metrics:\n  - profile: ragas\n    ragas_metric: tool_call_accuracy\n")
	for _, tt := range []struct {
		name string
		args []string
		code int
		want []string // in stdout, or in stderr when code is 2
	}{
		{"profile default metric", []string{"--profile", "ragas"}, 0,
			[]string{`"name":"tool_call_accuracy"`, `"score":0,`, `argument \"days\" missing`}},
		{"string value", []string{"--profile", "ragas", "--option", "ragas_metric=tool_call_f1"}, 0,
			[]string{`"name":"tool_call_f1"`, `"score":1,`, `"tp":2`}},
		{"JSON value", []string{"--profile", "ragas", "--option", "strict_order=false"}, 0,
			[]string{`"name":"tool_call_accuracy"`, `"score":0.75`, `'1.0' vs '1'`}},
		{"repeated", []string{"--profile", "ragas", "--option", "strict_order=false", "--option", "threshold=0.8"}, 1,
			[]string{`"score":0.75`, `"threshold":0.8`, `"success":false`}},
		{"overrides the config", []string{"--config", cfg, "--option", "ragas_metric=tool_call_f1"}, 0,
			[]string{`"name":"tool_call_f1"`}},
		{"sets the profile too", []string{"--option", "profile=ragas", "--option", "ragas_metric=tool_call_f1"}, 0,
			[]string{`"profile":"ragas"`}},
		{"a quoted JSON string stays a string", []string{"--profile", "ragas", "--option", `ragas_metric="tool_call_f1"`}, 0,
			[]string{`"name":"tool_call_f1"`}},
		{"misspelled option", []string{"--profile", "ragas", "--option", "ragas_metrc=tool_call_f1"}, 2,
			[]string{`profile ragas: unknown option "ragas_metrc"`}},
		{"bad value", []string{"--profile", "ragas", "--option", "ragas_metric=tool_call_f2"}, 2,
			[]string{`ragas_metric: unknown value "tool_call_f2"`}},
		{"wrong type", []string{"--profile", "ragas", "--option", "strict_order=yes"}, 2,
			[]string{"strict_order"}},
		{"no =", []string{"--profile", "ragas", "--option", "ragas_metric"}, 2,
			[]string{`want key=value, got "ragas_metric"`}},
		{"empty key", []string{"--profile", "ragas", "--option", "=1"}, 2,
			[]string{"want key=value"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"eval", "-q"}, tt.args...)
			code, out, stderr := run(t, "", append(args, cases)...)
			if code != tt.code {
				t.Fatalf("exit code %d, want %d; stdout %s; stderr %s", code, tt.code, out, stderr)
			}
			text := out
			if code == 2 {
				text = stderr
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
		})
	}
}
