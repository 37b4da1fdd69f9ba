package config

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
)

type stubJudge struct{}

func (stubJudge) Judge(context.Context, judge.Request) (judge.Verdict, error) {
	return judge.Verdict{Score: 0.5}, nil
}

type stubServer struct{}

func (stubServer) Tools(context.Context) ([]toolgrade.Tool, error) {
	return []toolgrade.Tool{{Name: "lookup"}, {Name: "cancel"}}, nil
}

func (stubServer) Session(context.Context) (toolgrade.ToolSession, error) { return stubSession{}, nil }

type stubSession struct{}

func (stubSession) Call(_ context.Context, name string, _ any) (toolgrade.ToolResult, error) {
	return toolgrade.ToolResult{Output: name, Text: name}, nil
}

func (stubSession) Close() error { return nil }

// everyMetric builds every metric and profile a config can name, with
// their default options (and DeepFabric's run on the server too).
func everyMetric(t *testing.T) map[string]toolgrade.Metric {
	t.Helper()
	env := &Env{Judge: stubJudge{}, Server: stubServer{}, AllowExecute: true}
	entries := map[string]jsonvalue.Object{}
	for _, p := range Profiles() {
		entries["profile "+p] = jsonvalue.Object{{Key: "profile", Value: p}}
	}
	entries["profile deepfabric, execution: mcp"] = jsonvalue.Object{{Key: "profile", Value: "deepfabric"}, {Key: "execution", Value: "mcp"}}
	for name := range otherMetrics {
		entries["metric "+name] = jsonvalue.Object{{Key: "metric", Value: name}}
	}
	out := map[string]toolgrade.Metric{}
	for what, e := range entries {
		m, err := Metric(e, env)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out[what] = m
	}
	return out
}

// Every metric says which case fields it reads, each a field of the case
// format or one a profile reads, and those it reads as written are among
// them.
func TestEveryMetricSaysWhatItReads(t *testing.T) {
	ms := everyMetric(t)
	for _, what := range slices.Sorted(maps.Keys(ms)) {
		m := ms[what]
		fields := toolgrade.CaseFields(m)
		if _, ok := m.(toolgrade.FieldReader); !ok || len(fields) == 0 {
			t.Errorf("%s (%T) does not say which case fields it reads", what, m)
		}
		for _, f := range fields {
			if !dataset.Known(f) {
				t.Errorf("%s reads %q, which is no case field", what, f)
			}
		}
		written := toolgrade.WrittenFields(m)
		for _, f := range written {
			if !slices.Contains(fields, f) {
				t.Errorf("%s reads %q as written, but not among its case fields %q", what, f, fields)
			}
		}
		if named := toolgrade.Named(m, "other"); !slices.Equal(toolgrade.CaseFields(named), fields) || !slices.Equal(toolgrade.WrittenFields(named), written) {
			t.Errorf("%s, renamed, reads %q (%q as written)", what, toolgrade.CaseFields(named), toolgrade.WrittenFields(named))
		}
	}
}

// sameText compares errors by their text.
var sameText = cmp.Comparer(func(a, b error) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Error() == b.Error()
})

// A metric that does not say it reads a field gives the same result
// whether a case sets it or not.
func TestMetricsReadNoOtherField(t *testing.T) {
	const calls = `"tools_called": [{"name": "lookup", "args": {"id": "A1"}, "output": {"id": "A1"}}, {"name": "cancel", "args": {"id": "A1"}}],
		"expected_tools": [{"name": "lookup", "args": {"id": "A1"}}, {"name": "cancel", "args": {"id": "A2"}}]`
	base := `{"id": "c", "input": "cancel A1", ` + calls + `}`
	variants := map[string]string{
		"process":        `{"id": "c", "input": "cancel A1", ` + calls + `, "process": [{"never": "cancel"}, "no_repeat"]}`,
		"expected_state": `{"id": "c", "input": "cancel A1", ` + calls + `, "expected_state": {"a": 1}, "final_state": {"a": 2}, "state_rules": {"$.b": {"ignore": true}}}`,
		"turns":          `{"id": "c", "turns": [{"input": "cancel A1", ` + calls + `}]}`,
	}
	read := func(text string) *toolgrade.Case {
		v, err := jsonvalue.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		c, err := dataset.DecodeCase(v)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return c
	}
	ms := everyMetric(t)
	for _, what := range slices.Sorted(maps.Keys(ms)) {
		m := ms[what]
		want := m.Grade(context.Background(), read(base))
		for _, field := range slices.Sorted(maps.Keys(variants)) {
			if slices.Contains(toolgrade.CaseFields(m), field) {
				continue
			}
			got := m.Grade(context.Background(), read(variants[field]))
			if diff := cmp.Diff(want, got, sameText); diff != "" {
				t.Errorf("%s does not read %s, but its result changes with it (-without +with):\n%s", what, field, diff)
			}
		}
	}
}

func TestNotGraded(t *testing.T) {
	const (
		process = "no metric checks process rules (add a metric entry with metric: tool_process)"
		states  = "no metric compares states (add a metric entry with metric: state_match)"
		turns   = "only the default profile's tool_correctness grades turn by turn; the turns' calls are graded as one list"
		output  = "only the mastra and promptfoo profiles read a raw output (add a metric entry with profile: mastra or promptfoo)"
		input   = "only the mastra profile's tool-call accuracy scorer reads a run's input messages"
		promptf = "only the promptfoo profile reads an assertion's value and trace (add a metric entry with profile: promptfoo)"
	)
	all := map[string]string{"process": process, "expected_state": states, "final_state": states, "state_rules": states, "turns": turns,
		"output": output, "input_messages": input, "value": promptf, "trace": promptf}
	without := func(fields ...string) map[string]string {
		m := maps.Clone(all)
		for _, f := range fields {
			delete(m, f)
		}
		return m
	}
	tests := []struct {
		name    string
		entries string
		judge   bool
		want    map[string]string
	}{
		{"the default metric", `[{}]`, false, without("turns")},
		{"the default metric with a judge", `[{}]`, true, without("turns")},
		{"a profile", `[{"profile": "deepeval"}]`, false, all},
		{"process rules", `[{"profile": "axion"}, {"metric": "tool_process", "name": "policy"}]`, false, without("process")},
		{"states", `[{"metric": "state_match"}]`, false, without("expected_state", "final_state", "state_rules")},
		{"grounding", `[{"metric": "grounding"}, {"metric": "schema"}]`, false, without("turns")},
		{"mastra's agent scorers", `[{"profile": "mastra", "scorer": "code-tool-call-accuracy-scorer", "expected_tool": "a"}]`, false, without("output", "input_messages")},
		{"mastra's checks", `[{"profile": "mastra", "scorer": "check-used-no-tools"}]`, false, without("output")},
		{"promptfoo", `[{"profile": "promptfoo", "type": "trajectory:tool-used"}, {"profile": "promptfoo"}]`, false, without("output", "value", "trace")},
		{"everything", `[{"metric": "tool_process"}, {"metric": "state_match"}, {"profile": "default", "order": "exact"},
			{"profile": "mastra", "scorer": "code-tool-call-accuracy-scorer", "expected_tool": "a"}, {"profile": "promptfoo", "type": "not-trajectory:tool-used"}]`, false, map[string]string{}},
		{"no metric", `[]`, false, all},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &Env{}
			if tt.judge {
				env.Judge = stubJudge{}
			}
			v, err := jsonvalue.ParseString(tt.entries)
			if err != nil {
				t.Fatal(err)
			}
			var ms []toolgrade.Metric
			for _, e := range v.([]any) {
				m, err := Metric(e.(jsonvalue.Object), env)
				if err != nil {
					t.Fatal(err)
				}
				ms = append(ms, m)
			}
			if diff := cmp.Diff(tt.want, NotGraded(ms)); diff != "" {
				t.Errorf("NotGraded (-want +got):\n%s", diff)
			}
		})
	}
}
