package ragas_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/compat/ragas"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestRagasConformance runs every line of ragas.jsonl (the package's
// sample, and the shared corpus when present): the scores Ragas' real
// ToolCallAccuracy and ToolCallF1 gave, and the exceptions they raised.
func TestRagasConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "ragas.jsonl", Lines: 1300, More: namesTheException})
}

// namesTheException checks that an error result names the exception the
// peer raised.
func namesTheException(t *testing.T, l conformance.Line, r toolgrade.MetricResult) bool {
	t.Helper()
	want, _ := l.Expect.Get("error")
	if want == nil || r.Error == "" {
		return true
	}
	exc, _, _ := strings.Cut(want.(string), ":")
	if !strings.HasPrefix(r.Error, exc+": ") {
		t.Errorf("%s (line %d): error %q, want one naming %s", l.ID, l.Line, r.Error, exc)
		return false
	}
	return true
}

func strictOrder(b bool) *bool { return &b }

func TestRagasQuirks(t *testing.T) {
	acc := ragas.Options{}
	loose := ragas.Options{StrictOrder: strictOrder(false)}
	f1 := ragas.Options{RagasMetric: ragas.ToolCallF1}
	const (
		// a Ragas conversation: one ai message calling a(x=1) and b()
		conv = `"user_input":[{"content":"hi","type":"human"},{"content":"","type":"ai","tool_calls":[{"name":"a","args":{"x":1}},{"name":"b","args":{}}]},{"content":"ok","type":"tool"},{"content":"ok","type":"tool"},{"content":"done","type":"ai"}]`
	)
	for _, tt := range []struct {
		name string
		opts ragas.Options
		c    string
		want float64 // NaN: an error result
		err  string  // the exception an error result names
	}{
		{"accuracy: both empty", acc, `{"tools_called":[],"expected_tools":[]}`, 1, ""},
		{"accuracy: nothing called", acc, `{"tools_called":[],"expected_tools":[{"name":"a","args":{}}]}`, 0, ""},
		{"accuracy: empty reference", acc, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[]}`, 0, ""},
		{"accuracy: no reference asserts", acc, `{"tools_called":[{"name":"a","args":{}}]}`, math.NaN(), "AssertionError"},
		{"accuracy: null reference asserts", acc, `{"tools_called":[],"reference_tool_calls":null}`, math.NaN(), "AssertionError"},
		{"accuracy: str(1) != str(1.0)", acc, `{"tools_called":[{"name":"a","args":{"x":1.0}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, 0, ""},
		{"accuracy: str(True) == 'True'", acc, `{"tools_called":[{"name":"a","args":{"x":true}}],"expected_tools":[{"name":"a","args":{"x":"True"}}]}`, 1, ""},
		{"accuracy: nested values print as reprs", acc, `{"tools_called":[{"name":"a","args":{"x":[1,{"k":null,"s":"it's"}]}}],"expected_tools":[{"name":"a","args":{"x":"[1, {'k': None, 's': \"it's\"}]"}}]}`, 1, ""},
		{"accuracy: floats in shortest repr", acc, `{"tools_called":[{"name":"a","args":{"x":1e16,"y":1e-7,"z":100000.0}}],"expected_tools":[{"name":"a","args":{"x":"1e+16","y":"1e-07","z":"100000.0"}}]}`, 1, ""},
		{"accuracy: only the reference's keys count", acc, `{"tools_called":[{"name":"a","args":{"x":1,"extra":2}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, 1, ""},
		{"accuracy: a missing argument scores 0", acc, `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":1,"y":2}}]}`, 0.5, ""},
		{"accuracy: no reference args but some called", acc, `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{}}]}`, 0, ""},
		{"accuracy: strict order", acc, `{"tools_called":[{"name":"b","args":{}},{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`, 0, ""},
		{"accuracy: any order", loose, `{"tools_called":[{"name":"b","args":{}},{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`, 1, ""},
		{"accuracy: any order sorts by str() of the values", loose, `{"tools_called":[{"name":"a","args":{"x":2}},{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":1}},{"name":"a","args":{"x":2}}]}`, 1, ""},
		{"accuracy: any order zips sorted lists, not best pairs", loose, `{"tools_called":[{"name":"a","args":{"x":1,"y":1}},{"name":"a","args":{"x":2,"y":2}}],"expected_tools":[{"name":"a","args":{"x":1,"y":2}},{"name":"a","args":{"x":3,"y":1}}]}`, 0.25, ""},
		{"accuracy: a length difference misaligns", acc, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`, 0, ""},
		{"accuracy: partial arguments", acc, `{"tools_called":[{"name":"a","args":{"x":1,"y":"p"}},{"name":"b","args":{"z":null}}],"expected_tools":[{"name":"a","args":{"x":1,"y":"q"}},{"name":"b","args":{"z":null}}]}`, 0.75, ""},
		{"accuracy: calls from the ai messages", acc, `{` + conv + `,"reference_tool_calls":[{"name":"a","args":{"x":1}},{"name":"b","args":{}}]}`, 1, ""},
		{"accuracy: names are case-sensitive", acc, `{"tools_called":[{"name":"A","args":{}}],"expected_tools":[{"name":"a","args":{}}]}`, 0, ""},
		{"validation: content null", acc, `{"user_input":[{"content":null,"type":"human"}],"reference_tool_calls":[]}`, math.NaN(), "ValidationError"},
		{"validation: unknown message type", acc, `{"user_input":[{"content":"x","type":"system"}],"reference_tool_calls":[]}`, math.NaN(), "ValidationError"},
		{"validation: orphan tool message", acc, `{"user_input":[{"content":"x","type":"human"},{"content":"x","type":"tool"}],"reference_tool_calls":[]}`, math.NaN(), "ValidationError"},
		{"validation: tool after an ai message without calls", f1, `{"user_input":[{"content":"x","type":"ai","tool_calls":[]},{"content":"x","type":"tool"}],"reference_tool_calls":[]}`, math.NaN(), "ValidationError"},
		{"validation: tool after human", acc, `{"user_input":[{"content":"","type":"ai","tool_calls":[{"name":"a","args":{}}]},{"content":"x","type":"human"},{"content":"x","type":"tool"}],"reference_tool_calls":[]}`, math.NaN(), "ValidationError"},
		{"validation: null args", acc, `{"tools_called":[{"name":"a","args":null}],"expected_tools":[]}`, math.NaN(), "ValidationError"},
		{"validation: absent args", f1, `{"tools_called":[],"expected_tools":[{"name":"a"}]}`, math.NaN(), "ValidationError"},
		{"validation: args as a JSON string", acc, `{"tools_called":[{"name":"a","args":"{}"}],"expected_tools":[]}`, math.NaN(), "ValidationError"},
		{"validation: input not a string", acc, `{"input":["x"],"tools_called":[],"expected_tools":[]}`, math.NaN(), "ValidationError"},
		{"validation: reference not a string", acc, `{"tools_called":[],"expected_tools":[],"reference":3}`, math.NaN(), "ValidationError"},
		{"validation: integer too long for Python", acc, `{"tools_called":[{"name":"a","args":{"x":` + strings.Repeat("9", 4301) + `}}],"expected_tools":[]}`, math.NaN(), "ValueError"},
		{"f1: duplicates collapse", f1, `{"tools_called":[{"name":"a","args":{}},{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}}]}`, 1, ""},
		{"f1: 1 == 1.0 == True", f1, `{"tools_called":[{"name":"a","args":{"x":1.0,"y":true}}],"expected_tools":[{"name":"a","args":{"y":1,"x":true}}]}`, 1, ""},
		{"f1: '1' != 1", f1, `{"tools_called":[{"name":"a","args":{"x":"1"}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, 0, ""},
		{"f1: a list value is unhashable", f1, `{"tools_called":[{"name":"a","args":{"x":[1]}}],"expected_tools":[]}`, math.NaN(), "TypeError"},
		{"f1: an object value is unhashable", f1, `{"tools_called":[],"expected_tools":[{"name":"a","args":{"x":{}}}]}`, math.NaN(), "TypeError"},
		{"f1: nothing at all scores 0", f1, `{"tools_called":[],"expected_tools":[]}`, 0, ""},
		{"f1: no reference is none", f1, `{"tools_called":[{"name":"a","args":{}}]}`, 0, ""},
		{"f1: two of three", f1, `{"tools_called":[{"name":"a","args":{}},{"name":"b","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}},{"name":"c","args":{}}]}`, 0.8, ""},
		{"f1: rounded to 4 decimals", f1, `{"tools_called":[{"name":"a","args":{}},{"name":"b","args":{}},{"name":"c","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"d","args":{}},{"name":"e","args":{}},{"name":"f","args":{}}]}`, 0.2857, ""},
		{"f1: calls from the ai messages", f1, `{` + conv + `,"reference_tool_calls":[{"name":"a","args":{"x":1.0}}]}`, 0.6667, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ragas.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.c))
			if math.IsNaN(tt.want) {
				if !strings.HasPrefix(r.Error, tt.err+": ") {
					t.Fatalf("score %v, error %q; want an error naming %s", r.Score, r.Error, tt.err)
				}
				return
			}
			if r.Error != "" {
				t.Fatalf("error %s", r.Error)
			}
			if r.Score != tt.want {
				t.Errorf("score %v, want %v (reason: %s)", r.Score, tt.want, r.Reason)
			}
			if r.Threshold != nil {
				t.Errorf("threshold %v, want none (Ragas gives no verdict)", *r.Threshold)
			}
			if r.Reason == "" {
				t.Error("no reason")
			}
		})
	}
}

// TestRagasReasons checks that the reason explains the verdict in Ragas'
// terms.
func TestRagasReasons(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts ragas.Options
		c    string
		want []string
	}{
		{"str comparison", ragas.Options{}, `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":1.0}}]}`,
			[]string{`argument "x" compared as '1' vs '1.0'`, "sequence aligned"}},
		{"not aligned", ragas.Options{}, `{"tools_called":[{"name":"b","args":{}},{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`,
			[]string{"sequence not aligned: called ['b', 'a'] vs reference ['a', 'b']"}},
		{"length mismatch", ragas.Options{StrictOrder: strictOrder(false)}, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"a","args":{}}]}`,
			[]string{"sequence not aligned", "length mismatch: 1 calls made, 2 in the reference", "double penalty"}},
		{"missing argument", ragas.Options{}, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{"q":"x"}}]}`,
			[]string{`argument "q" missing`}},
		{"f1 collapses duplicates", ragas.Options{RagasMetric: ragas.ToolCallF1}, `{"tools_called":[{"name":"a","args":{}},{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}},{"name":"b","args":{}}]}`,
			[]string{"2 equal calls (tools_called[0], tools_called[1]) collapsed by F1", "1 true positives, 0 false positives, 1 false negatives", "expected_tools[1] b{} not called"}},
		{"f1 Python equality", ragas.Options{RagasMetric: ragas.ToolCallF1}, `{"tools_called":[{"name":"a","args":{"x":true}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`,
			[]string{"equals expected_tools[0] a{'x': 1} by Python's =="}},
		{"unhashable", ragas.Options{RagasMetric: ragas.ToolCallF1}, `{"tools_called":[{"name":"a","args":{"x":[1]}}],"expected_tools":[]}`,
			[]string{`TypeError: unhashable type: 'list'`, `tools_called[0].args["x"] is a list`}},
		{"validation", ragas.Options{}, `{"trajectory":[{"type":"human","content":"x"},{"type":"tool","content":"y"}],"expected_tools":[]}`,
			[]string{"ValidationError", "trajectory[1]", "preceded by an ai message"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ragas.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.c))
			text := r.Reason + r.Error
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
		})
	}
}

func TestRagasOptions(t *testing.T) {
	bad := 1.5
	for _, opts := range []ragas.Options{
		{RagasMetric: "tool_call_recall"},
		{RagasMetric: ragas.ToolCallF1, StrictOrder: strictOrder(true)},
		{Threshold: &bad},
	} {
		if _, err := ragas.New(opts); err == nil {
			t.Errorf("New(%+v) accepted", opts)
		}
	}
	entry := func(kv ...any) jsonvalue.Object {
		o := jsonvalue.Object{{Key: "profile", Value: "ragas"}}
		for i := 0; i < len(kv); i += 2 {
			o = append(o, jsonvalue.Member{Key: kv[i].(string), Value: kv[i+1]})
		}
		return o
	}
	for _, tt := range []struct {
		name  string
		entry jsonvalue.Object
		want  string // metric name, or "" for an error
	}{
		{"default metric", entry(), "tool_call_accuracy"},
		{"f1", entry("ragas_metric", "tool_call_f1"), "tool_call_f1"},
		{"strict_order", entry("ragas_metric", "tool_call_accuracy", "strict_order", false), "tool_call_accuracy"},
		{"misspelled option", entry("ragas_metrc", "tool_call_f1"), ""},
		{"strict_order not a bool", entry("strict_order", "no"), ""},
		{"another peer's option", entry("strict", true), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := config.Metric(tt.entry, nil)
			switch {
			case tt.want == "" && err == nil:
				t.Errorf("accepted as %s", m.Name())
			case tt.want != "" && err != nil:
				t.Error(err)
			case tt.want != "" && (m.Name() != tt.want || m.Profile() != "ragas"):
				t.Errorf("built %s/%s, want %s/ragas", m.Name(), m.Profile(), tt.want)
			}
		})
	}
}

// TestRagasThreshold: Ragas has no pass mark, but one can be set.
func TestRagasThreshold(t *testing.T) {
	th := 0.8
	m, _ := ragas.New(ragas.Options{RagasMetric: ragas.ToolCallF1, Threshold: &th})
	r := m.Grade(context.Background(), conformance.ParseCase(t, `{"tools_called":[{"name":"a","args":{}},{"name":"b","args":{}}],"expected_tools":[{"name":"a","args":{}}]}`))
	if r.Threshold == nil || *r.Threshold != 0.8 || r.Success || r.Score != 0.6667 {
		t.Errorf("score %v, threshold %v, success %v; want 0.6667 failing 0.8", r.Score, r.Threshold, r.Success)
	}
}

// TestRagasCaseInCode: a case built in Go without JSON; nil Expected is
// Ragas' None, an empty one its [].
func TestRagasCaseInCode(t *testing.T) {
	m, _ := ragas.New(ragas.Options{})
	if r := m.Grade(context.Background(), &toolgrade.Case{}); !strings.HasPrefix(r.Error, "AssertionError: ") {
		t.Errorf("nil Expected: %+v, want an AssertionError", r)
	}
	if r := m.Grade(context.Background(), &toolgrade.Case{Expected: []toolgrade.Call{}}); r.Error != "" || r.Score != 1 {
		t.Errorf("empty Expected: %+v, want 1", r)
	}
	c := &toolgrade.Case{Called: []toolgrade.Call{{Name: "a"}}, Expected: []toolgrade.Call{{Name: "a", Args: jsonvalue.Object{}}}}
	if r := m.Grade(context.Background(), c); r.Error != "" || r.Score != 1 {
		t.Errorf("absent args in code: %+v, want {} and 1", r)
	}
}

func ExampleNew() {
	m, err := ragas.New(ragas.Options{RagasMetric: ragas.ToolCallAccuracy})
	if err != nil {
		panic(err)
	}
	c := &toolgrade.Case{
		Expected: []toolgrade.Call{
			{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris", "days": 1})},
		},
		Called: []toolgrade.Call{
			{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris", "days": 1.0})},
		},
	}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Name, r.Score)
	fmt.Println(r.Reason)
	// Output:
	// tool_call_accuracy 0.5
	// sequence aligned: 1 calls compared in order (strict_order); score = summed argument accuracy / 1 reference calls = 0.5; tools_called[0] vs expected_tools[0]: argument "days" compared as '1.0' vs '1' (called vs reference, as Python's str() prints them) (argument accuracy 0.5)
}
