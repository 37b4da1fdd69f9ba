package deepfabric_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/deepfabric"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestDeepFabricConformance runs every line of deepfabric.jsonl (the
// package's sample, and the shared corpus when present): the overall
// score DeepFabric's real pipeline gave, each of its parts, and its
// processing-error flag (or, for aggregates, its counts).
func TestDeepFabricConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "deepfabric.jsonl", Lines: 1079, More: checkDeepFabricParts})
}

// checkDeepFabricParts compares the result's components with the parts
// and counts in the line's expect.
func checkDeepFabricParts(t *testing.T, l conformance.Line, r toolgrade.MetricResult) bool {
	t.Helper()
	want := map[string]float64{}
	for _, k := range []string{"tool_selection", "parameter_accuracy", "execution_success", "response_quality", "samples_evaluated", "processing_errors"} {
		if v, ok := l.Expect.Get(k); ok {
			want[k] = jsonvalue.NumberFloat(v.(json.Number))
		}
	}
	if pe, ok := l.Expect.Get("processing_error"); ok {
		// One sample: a message when DeepFabric caught an error, else null.
		want["samples_evaluated"] = 1
		want["processing_errors"] = 0
		if pe != nil {
			want["processing_errors"] = 1
		}
	}
	ok := true
	for k, w := range want {
		got, has := toolgrade.DetailOf[toolgrade.Components](&r)[k]
		if !has || math.Abs(got-w) > 1e-9 {
			t.Errorf("%s (line %d): component %s = %v, want %v (reason: %s)", l.ID, l.Line, k, got, w, r.Reason)
			ok = false
		}
	}
	if len(toolgrade.DetailOf[toolgrade.Components](&r)) != 6 {
		t.Errorf("%s (line %d): components %v, want 6", l.ID, l.Line, toolgrade.DetailOf[toolgrade.Components](&r))
		ok = false
	}
	return ok
}

// TestDeepFabricToolConversion checks that tools given as OpenAI function
// schemas convert to the parameters DeepFabric's own conversion produced,
// for every sample of the conformance file (the package's sample, and the
// shared corpus when present) that has both forms.
func TestDeepFabricToolConversion(t *testing.T) {
	m, _ := deepfabric.New(deepfabric.Options{})
	for _, src := range conformance.Sources() {
		t.Run(src.Name, func(t *testing.T) {
			n := 0
			for _, l := range src.Load(t, "deepfabric.jsonl") {
				samples := []any{l.Case}
				if s, ok := l.Case.Get("samples"); ok {
					samples = s.([]any)
				}
				for _, s := range samples {
					s := s.(jsonvalue.Object)
					openai, _ := s.Get("available_tools_openai")
					if openai == nil {
						continue
					}
					// Grading with either form must give the same result.
					converted := gradeDeepFabric(t, m, s)
					s2 := append(jsonvalue.Object{}, s...)
					s2.Set("available_tools", openai)
					viaOpenAI := gradeDeepFabric(t, m, s2)
					if converted.Score != viaOpenAI.Score || converted.Reason != viaOpenAI.Reason {
						t.Errorf("%s: with DeepFabric's tools: %v (%s); with OpenAI tools: %v (%s)", l.ID, converted.Score, converted.Reason, viaOpenAI.Score, viaOpenAI.Reason)
					}
					n++
				}
			}
			if n == 0 {
				t.Fatal("no samples with OpenAI tools")
			}
		})
	}
}

func gradeDeepFabric(t *testing.T, m toolgrade.Metric, sample jsonvalue.Object) toolgrade.MetricResult {
	t.Helper()
	r := m.Grade(context.Background(), conformance.ParseCase(t, string(jsonvalue.Append(nil, sample))))
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	return r
}

func TestDeepFabricQuirks(t *testing.T) {
	const (
		tools = `"available_tools":[{"name":"get","parameters":[{"name":"city","type":"str","required":true},{"name":"n","type":"int","required":false},{"name":"x","type":"float","required":false}]}]`
	)
	for _, tt := range []struct {
		name      string
		multiTurn bool
		c         string
		// tool selection, parameter accuracy, execution success, response
		// quality, processing errors
		want [5]float64
	}{
		{"single: first calls only", false,
			`{"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}],"tools_called":[{"name":"a","args":{}},{"name":"c","args":{}}]}`,
			[5]float64{1, 1, 1, 0, 0}},
		{"single: nothing expected is skipped", false, `{"expected_tools":[],"tools_called":[]}`, [5]float64{0, 0, 0, 0, 0}},
		{"single: values case-insensitive and stripped", false,
			`{"expected_tools":[{"name":"a","args":{"q":"ΟΔΟΣ\u00a0","n":1}}],"tools_called":[{"name":"a","args":{"q":" \u03bf\u03b4\u03bf\u03c2","n":true}}]}`,
			[5]float64{1, 1, 1, 0, 0}},
		{"single: zero width space is not whitespace", false,
			`{"expected_tools":[{"name":"a","args":{"q":"x"}}],"tools_called":[{"name":"a","args":{"q":"x\u200b"}}]}`,
			[5]float64{1, 0, 0, 0, 0}},
		{"single: numbers within 1e-6", false,
			`{"expected_tools":[{"name":"a","args":{"n":1}}],"tools_called":[{"name":"a","args":{"n":1.0000005}}]}`,
			[5]float64{1, 1, 1, 0, 0}},
		{"single: schema check ignores values", false,
			`{"expected_tools":[{"name":"get","args":{"city":"Paris"}}],"tools_called":[{"name":"get","args":{"city":"Rome","extra":null}}],` + tools + `}`,
			[5]float64{1, 1, 1, 0, 0}},
		{"single: schema of the called tool, not the expected one", false,
			`{"expected_tools":[{"name":"other","args":{"q":"x"}}],"tools_called":[{"name":"get","args":{"city":"Rome"}}],` + tools + `}`,
			[5]float64{0, 1, 0, 0, 0}},
		{"single: required parameter missing", false,
			`{"expected_tools":[{"name":"get","args":{"city":"Paris"}}],"tools_called":[{"name":"get","args":{"n":2}}],` + tools + `}`,
			[5]float64{1, 0, 0, 0, 0}},
		{"single: int wants an integer literal", false,
			`{"expected_tools":[{"name":"get","args":{"city":"Paris"}}],"tools_called":[{"name":"get","args":{"city":"Paris","n":2.0}}],` + tools + `}`,
			[5]float64{1, 0, 0, 0, 0}},
		{"single: float accepts an integer", false,
			`{"expected_tools":[{"name":"get","args":{"city":"Paris"}}],"tools_called":[{"name":"get","args":{"city":"Paris","x":2}}],` + tools + `}`,
			[5]float64{1, 1, 1, 0, 0}},
		{"single: empty args pass before the schema", false,
			`{"expected_tools":[{"name":"get","args":{}}],"tools_called":[{"name":"get","args":{}}],` + tools + `}`,
			[5]float64{1, 1, 1, 0, 0}},
		{"single: null predicted args", false,
			`{"expected_tools":[{"name":"a","args":{}}],"tools_called":[{"name":"a","args":null}]}`,
			[5]float64{0, 0, 0, 0, 1}},
		{"empty-string expected arg", false,
			`{"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{"q":""}}],"tools_called":[{"name":"a","args":{}}]}`,
			[5]float64{0, 0, 0, 0, 1}},
		{"multi: names as sets, keys of the first expected call", true,
			`{"expected_tools":[{"name":"a","args":{"k":1}},{"name":"a","args":{"z":1}},{"name":"b","args":{}}],"tools_called":[{"name":"a","args":{"k":"other"}},{"name":"a","args":{"k":2,"m":3}}],"final_response":""}`,
			[5]float64{0, 1, 1, 0.5, 0}},
		{"multi: nothing expected nor called", true, `{"expected_tools":[],"tools_called":[],"final_response":" "}`, [5]float64{1, 1, 1, 1, 0}},
		{"multi: null predicted args have no keys", true,
			`{"expected_tools":[{"name":"a","args":{"k":1}}],"tools_called":[{"name":"a","args":null}],"final_response":""}`,
			[5]float64{1, 0, 1, 1, 0}},
		{"multi: no call and no final response", true,
			`{"expected_tools":[{"name":"a","args":{}}],"tools_called":[],"final_response":""}`,
			[5]float64{0, 1, 0, 0, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := deepfabric.New(deepfabric.Options{MultiTurn: tt.multiTurn})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.c))
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			got := [5]float64{toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"], toolgrade.DetailOf[toolgrade.Components](&r)["parameter_accuracy"],
				toolgrade.DetailOf[toolgrade.Components](&r)["execution_success"], toolgrade.DetailOf[toolgrade.Components](&r)["response_quality"], toolgrade.DetailOf[toolgrade.Components](&r)["processing_errors"]}
			if got != tt.want {
				t.Errorf("parts %v, want %v (reason: %s)", got, tt.want, r.Reason)
			}
			if r.Threshold != nil {
				t.Errorf("threshold %v, want none", *r.Threshold)
			}
		})
	}
}

func TestDeepFabricWeights(t *testing.T) {
	c := `{"expected_tools":[{"name":"a","args":{"q":1}}],"tools_called":[{"name":"a","args":{"q":2}}]}`
	for _, tt := range []struct {
		weights map[deepfabric.Part]float64
		want    float64
	}{
		{nil, 0.4},
		{map[deepfabric.Part]float64{}, 0},
		{map[deepfabric.Part]float64{"tool_selection": 2, "execution_success": -1, "foo": 5}, 2},
	} {
		m, _ := deepfabric.New(deepfabric.Options{MetricWeights: tt.weights})
		if r := m.Grade(context.Background(), conformance.ParseCase(t, c)); r.Score != tt.want {
			t.Errorf("weights %v: score %v, want %v", tt.weights, r.Score, tt.want)
		}
	}
}

func TestDeepFabricBadInput(t *testing.T) {
	m, _ := deepfabric.New(deepfabric.Options{})
	for _, c := range []string{
		`{"samples":{}}`,
		`{"samples":[1]}`,
		`{"samples":[{"tools_called":[{"args":{}}]}]}`,
		`{"samples":[{"tools_called":[],"available_tools":[{"name":1}]}]}`,
		`{"samples":[{"tools_called":[],"available_tools":[{"name":"a","parameters":[{"name":"x"}]}]}]}`,
		`{"tools_called":[],"expected_tools":[],"available_tools":[{"name":"a","parameters":[{"name":"x"}]}]}`,
	} {
		if r := m.Grade(context.Background(), conformance.ParseCase(t, c)); r.Error == "" {
			t.Errorf("%s: no error (score %v)", c, r.Score)
		}
	}
	// Tools of the case itself are checked as it is read.
	for _, c := range []string{
		`{"tools_called":[],"expected_tools":[],"available_tools":[{"name":1}]}`,
		`{"tools_called":[],"expected_tools":[],"available_tools":"get_weather"}`,
	} {
		v, _ := jsonvalue.ParseString(c)
		if _, err := dataset.DecodeCase(v); err == nil || !strings.Contains(err.Error(), "available_tools") {
			t.Errorf("%s: error %v, want one naming available_tools", c, err)
		}
	}
}

func ExampleNew() {
	m, err := deepfabric.New(deepfabric.Options{})
	if err != nil {
		panic(err)
	}
	c := &toolgrade.Case{
		Expected: []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris"})}},
		Called:   []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": " paris"})}},
	}
	r := m.Grade(context.Background(), c)
	fmt.Printf("%.2f %v %v\n", r.Score, toolgrade.DetailOf[toolgrade.Components](&r)["parameter_accuracy"], r.Threshold == nil)
	// Output:
	// 1.00 1 true
}

// Single-turn DeepFabric looks at the first calls only, and says so when
// a sample has more.
func TestReasonSaysOnlyFirstCallCompared(t *testing.T) {
	const clause = "only the first expected and the first called call compared (multi_turn: false)"
	for _, tt := range []struct {
		name  string
		multi bool
		c     string
		want  bool
	}{
		{"two expected, single-turn", false, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`, true},
		{"two expected, multi-turn", true, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`, false},
		{"one of each", false, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}}]}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := deepfabric.New(deepfabric.Options{MultiTurn: tt.multi})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.c))
			if got := strings.Contains(r.Reason, clause); got != tt.want {
				t.Errorf("reason %q: clause present = %v, want %v", r.Reason, got, tt.want)
			}
		})
	}
}
