package schema_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

const weatherTools = `[{"name": "get_weather", "inputSchema": {"type": "object",
	"properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}},
	"required": ["city"], "additionalProperties": false}},
	{"name": "get_time", "inputSchema": {"type": "object", "properties": {"tz": {"type": "string"}}}}]`

func schemaCase(t *testing.T, js string) *toolgrade.Case {
	t.Helper()
	c, err := dataset.DecodeCase(mustJSON(t, js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMetric(t *testing.T) {
	tests := []struct {
		name   string
		called string
		score  float64
		reason string
	}{
		{"all valid", `[{"name": "get_weather", "args": {"city": "Paris"}}, {"name": "get_time"}]`, 1, "2 of 2 calls valid"},
		{"no calls", `[]`, 1, "no calls to check"},
		{"unknown tool", `[{"name": "get_weather", "args": {"city": "Paris"}}, {"name": "get_news", "args": {}}]`, 0.5,
			"1 of 2 calls valid; call 1 get_news: unknown tool (available: get_weather, get_time)"},
		{"args not JSON", `[{"name": "get_weather", "arguments": "{\"city\": "}]`, 0,
			`0 of 1 calls valid; call 0 get_weather: arguments are not valid JSON: "{\"city\": "`},
		{"violations", `[{"name": "get_weather", "args": {"unit": "k", "days": 3}}]`, 0,
			"0 of 1 calls valid; call 0 get_weather: args: additional properties 'days' not allowed; " +
				"call 0 get_weather: args: missing property 'city'; call 0 get_weather: args/unit: value must be one of 'c', 'f'"},
		{"no args is an empty object", `[{"name": "get_weather"}]`, 0, "0 of 1 calls valid; call 0 get_weather: args: missing property 'city'"},
	}
	m, err := schema.New(schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Grade(context.Background(), schemaCase(t, `{"tools_called": `+tt.called+`, "available_tools": {"tools": `+weatherTools+`}}`))
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			if r.Score != tt.score || r.Reason != tt.reason {
				t.Errorf("score %v, reason %q\nwant %v, %q", r.Score, r.Reason, tt.score, tt.reason)
			}
			if r.Success != (tt.score == 1) || r.Threshold == nil || *r.Threshold != 1 {
				t.Errorf("success %v with threshold %v", r.Success, r.Threshold)
			}
			if toolgrade.DetailOf[toolgrade.Components](&r) != nil {
				t.Errorf("components %v without expected calls", toolgrade.DetailOf[toolgrade.Components](&r))
			}
		})
	}
}

func TestMetricTools(t *testing.T) {
	run, err := schema.Parse(mustJSON(t, `[{"name": "lookup", "parameters": {"type": "object", "required": ["q"]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := schema.New(schema.Options{Tools: run})
	// The run's tools serve cases without available_tools.
	r := m.Grade(context.Background(), schemaCase(t, `{"tools_called": [{"name": "lookup", "args": {}}]}`))
	if r.Error != "" || r.Score != 0 || !strings.Contains(r.Reason, "missing property 'q'") {
		t.Errorf("run tools: %+v", r)
	}
	// A case's own tools take their place.
	r = m.Grade(context.Background(), schemaCase(t, `{"tools_called": [{"name": "lookup", "args": {}}], "available_tools": [{"name": "lookup"}]}`))
	if r.Error != "" || r.Score != 1 {
		t.Errorf("case tools: %+v", r)
	}
	// Without tools there is nothing to check against.
	m, _ = schema.New(schema.Options{})
	r = m.Grade(context.Background(), schemaCase(t, `{"tools_called": [{"name": "lookup", "args": {}}]}`))
	if !strings.Contains(r.Error, "no tool definitions") {
		t.Errorf("no tools: %+v", r)
	}
	// Unreadable definitions and invalid schemas are errors of the data:
	// a case file's, as it is read, and a case's built in code, as it is
	// graded.
	for _, tools := range []string{`[{"description": "x"}]`, `[{"name": "lookup", "parameters": {"type": "object", "required": "q"}}]`} {
		js := `{"tools_called": [{"name": "lookup", "args": {}}], "available_tools": ` + tools + `}`
		if c, err := dataset.DecodeCase(mustJSON(t, js)); err == nil {
			if r = m.Grade(context.Background(), c); r.Error == "" {
				t.Errorf("%s: no error reading or grading (%+v)", tools, r)
			}
		}
		c := &toolgrade.Case{Called: []toolgrade.Call{{Name: "lookup", Args: jsonvalue.Object{}}}, Raw: mustJSON(t, js).(jsonvalue.Object)}
		if r = m.Grade(context.Background(), c); r.Error == "" {
			t.Errorf("%s: no error grading a case built in code (%+v)", tools, r)
		}
	}
}

func TestMetricComponents(t *testing.T) {
	tests := []struct {
		name, called, expected string
		weights                *schema.Weights
		want                   map[string]float64
	}{
		{"deepfabric single call, valid", `[{"name": "get_weather", "args": {"city": "P"}}]`, `[{"name": "get_weather", "args": {"city": "Paris"}}]`, nil,
			map[string]float64{"tool_selection": 1, "parameter_accuracy": 1, "execution_success": 1, "overall": 1}},
		{"right tool, invalid args", `[{"name": "get_weather", "args": {}}]`, `[{"name": "get_weather"}]`, nil,
			map[string]float64{"tool_selection": 1, "parameter_accuracy": 0, "execution_success": 0, "overall": 0.4}},
		{"wrong tool, valid args", `[{"name": "get_time", "args": {}}]`, `[{"name": "get_weather"}]`, nil,
			map[string]float64{"tool_selection": 0, "parameter_accuracy": 1, "execution_success": 0, "overall": 0.35}},
		{"nothing called", `[]`, `[{"name": "get_weather"}]`, nil,
			map[string]float64{"tool_selection": 0, "parameter_accuracy": 0, "execution_success": 0, "overall": 0}},
		{"several calls, as multisets", `[{"name": "get_weather", "args": {"city": "a"}}, {"name": "get_weather", "args": {}}, {"name": "get_time"}]`,
			`[{"name": "get_weather"}, {"name": "get_weather"}, {"name": "get_news"}]`, nil,
			map[string]float64{"tool_selection": 2.0 / 3, "parameter_accuracy": 2.0 / 3, "execution_success": 1.0 / 3, "overall": 0.4*2/3 + 0.35*2/3 + 0.25/3}},
		{"weights overridden one by one", `[{"name": "get_weather", "args": {}}]`, `[{"name": "get_weather"}]`, &schema.Weights{ToolSelection: toolgrade.Float(0.5)},
			map[string]float64{"tool_selection": 1, "parameter_accuracy": 0, "execution_success": 0, "overall": 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := schema.New(schema.Options{Weights: tt.weights})
			r := m.Grade(context.Background(), schemaCase(t, `{"tools_called": `+tt.called+`, "expected_tools": `+tt.expected+`, "available_tools": {"tools": `+weatherTools+`}}`))
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			for k, w := range tt.want {
				if g, ok := toolgrade.DetailOf[toolgrade.Components](&r)[k]; !ok || math.Abs(g-w) > 1e-12 {
					t.Errorf("%s = %v, want %v", k, g, w)
				}
			}
			if len(toolgrade.DetailOf[toolgrade.Components](&r)) != len(tt.want) {
				t.Errorf("components %v", toolgrade.DetailOf[toolgrade.Components](&r))
			}
		})
	}
}

// TestMetricFromConfig builds the metric from a config entry, with the
// run's tools and options spelled as in a config file.
func TestMetricFromConfig(t *testing.T) {
	run, _ := schema.Parse(mustJSON(t, weatherTools))
	entry := mustJSON(t, `{"metric": "schema", "threshold": 0.5, "weights": {"execution_success": 1}}`).(jsonvalue.Object)
	m, err := config.Metric(entry, &config.Env{Tools: run})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "schema" {
		t.Errorf("name %q", m.Name())
	}
	r := m.Grade(context.Background(), schemaCase(t, `{"tools_called": [{"name": "get_weather", "args": {"city": "P"}}, {"name": "x"}], "expected_tools": [{"name": "get_weather"}]}`))
	if r.Score != 0.5 || !r.Success || toolgrade.DetailOf[toolgrade.Components](&r)["overall"] != 0.4+0.35*0.5+1 {
		t.Errorf("%+v", r)
	}
	for _, bad := range []string{`{"metric": "schema", "weights": {"response_quality": 1}}`, `{"metric": "schema", "strict": true}`, `{"metric": "schema", "profile": "bfcl"}`} {
		if _, err := config.Metric(mustJSON(t, bad).(jsonvalue.Object), nil); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func BenchmarkMetric(b *testing.B) {
	m, _ := schema.New(schema.Options{})
	v, _ := jsonvalue.ParseString(`{"tools_called": [{"name": "get_weather", "args": {"city": "Paris", "unit": "k"}}, {"name": "get_time", "args": {"tz": "UTC"}}], "available_tools": {"tools": ` + weatherTools + `}}`)
	c, err := dataset.DecodeCase(v)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m.Grade(ctx, c)
	}
}
