package dataset_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"pgregory.net/rapid"
)

// grade reads text as a case file through a Checker and grades it with the
// native metric.
func grade(t interface {
	Helper()
	Fatal(...any)
}, name, text string, ch *dataset.Checker) []*toolgrade.Result {
	t.Helper()
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*toolgrade.Result
	err = toolgrade.Evaluate(context.Background(), dataset.Reader(name, strings.NewReader(text), dataset.Auto),
		[]toolgrade.Metric{m}, func(r *toolgrade.Result) error { out = append(out, r); return nil }, toolgrade.CheckCases(ch.CheckCase))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCheckFields(t *testing.T) {
	for _, tt := range []struct {
		name, record string
		wantErr      []string // "" for a result without error
	}{
		{"misspelled called", `{"id":"a","tool_called":[],"expected_tools":[]}`, []string{"cases.jsonl:1: unknown field `tool_called`; did you mean `tools_called`?"}},
		{"misspelled expected", `{"tools_called":[],"expected_tool":[{"name":"f"}]}`, []string{"unknown field `expected_tool`; did you mean `expected_tools`?"}},
		{"misspelled args of an expected call", `{"tools_called":[{"name":"f","args":{"a":2}}],"expected_tools":[{"name":"f","agrs":{"a":1}}]}`,
			[]string{`field expected_tools[0].agrs: not a field of a call; if it gives the call's arguments, name them "args"`}},
		{"arg for args", `{"tools_called":[{"name":"f"}],"expected_tools":[{"name":"f","arg":{"a":1}}]}`,
			[]string{`field expected_tools[0].arg: not a field of a call; if it gives the call's arguments, name them "args"`}},
		{"Llama's parameters are the arguments", `{"tools_called":[{"name":"f","args":{"a":2}}],"expected_tools":[{"name":"f","parameters":{"a":1}}]}`, nil},
		{"arguments under a key no format uses", `{"tools_called":[{"name":"f","args":{"a":2}}],"expected_tools":[{"name":"f","params":{"a":1}}]}`,
			[]string{`field expected_tools[0].params: not a field of a call; if it gives the call's arguments, name them "args"`}},
		{"call metadata is an error", `{"tools_called":[{"name":"f","args":{},"latency_ms":3}],"expected_tools":[{"name":"f","args":{}}]}`,
			[]string{`field tools_called[0].latency_ms: not a field of a call; a call has "name", "args"`}},
		{"garbage trajectory beside the calls", `{"tools_called":[{"name":"f","args":{}}],"trajectory":"garbage","expected_tools":[{"name":"f","args":{}}]}`,
			[]string{`field trajectory: not a trace toolgrade reads (the calls graded are tools_called's): unrecognized trace`}},
		{"number as a trajectory beside the calls", `{"tools_called":[{"name":"f","args":{}}],"agent_trajectory":42,"expected_tools":[{"name":"f","args":{}}]}`,
			[]string{`field agent_trajectory: not a trace toolgrade reads`}},
		{"garbage expected trajectory beside the calls", `{"tools_called":[{"name":"f","args":{}}],"expected_tools":[{"name":"f","args":{}}],"expected_trajectory":{"x":1}}`,
			[]string{`field expected_trajectory: not a trace toolgrade reads (the calls graded are expected_tools's)`}},
		{"a run file's trajectory beside its calls", `{"tools_called":[{"name":"f","args":{"a":1}}],"trajectory":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}],"expected_tools":[{"name":"f","args":{"a":1}}]}`, nil},
		{"input a number", `{"input":42,"tools_called":[],"expected_tools":[]}`, []string{"field input: want the user's query: text, or a list of content parts or messages; got integer"}},
		{"input an object", `{"query":{"q":"x"},"tools_called":[],"expected_tools":[]}`, []string{"field query: want the user's query"}},
		{"input parts", `{"input":[{"type":"text","text":"hi"},3],"tools_called":[],"expected_tools":[]}`, []string{"field input[1]: want a content part or a message (an object), got integer"}},
		{"a turn's input", `{"turns":[{"input":true,"expected_tools":[],"tools_called":[]}]}`, []string{"field turns[0].input: want the user's query"}},
		{"available_tools a string", `{"tools_called":[],"expected_tools":[],"available_tools":"get_weather"}`, []string{"field available_tools: want tool definitions, got a string that is not JSON"}},
		{"available_tools a number", `{"tools_called":[],"expected_tools":[],"tools":7}`, []string{"field tools:"}},
		{"expected arguments not JSON", `{"tools_called":[{"name":"f","args":{"a":1}}],"expected_tools":[{"name":"f","arguments":"{a: 1}"}]}`,
			[]string{`field expected_tools[0]: arguments are not valid JSON ("{a: 1}")`}},
		{"expected arguments not JSON in a trajectory", `{"tools_called":[],"expected_trajectory":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{a: 1}"}}]}]}`,
			[]string{`expected call 1 (f): arguments are not valid JSON ("{a: 1}")`}},
		{"an empty expected name", `{"tools_called":[{"name":"x"}],"expected_tools":[{"name":""}]}`, []string{"field expected_tools[0].name: empty: a call names the tool it calls"}},
		{"an empty called name", `{"tools_called":[{"name":""}],"expected_tools":[{"name":"x"}]}`, []string{"field tools_called[0].name: empty"}},
		{"an empty name in an expected trajectory", `{"tools_called":[{"name":"x"}],"expected_trajectory":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"","arguments":"{}"}}]}]}`,
			[]string{"expected call 1 (): names no tool"}},
		{"DeepEval's call metadata is known", `{"tools_called":[{"name":"f","input_parameters":{},"description":"d","reasoning":"r"}],"expected_tools":[{"name":"f","args":{}}]}`, nil},
		{"camel case", `{"ToolsCalled":[],"expected_tools":[]}`, []string{"did you mean `tools_called`?"}},
		{"a synonym", `{"tool_calls":[],"expected_tools":[]}`, []string{"unknown field `tool_calls`; did you mean `tools_called`?"}},
		{"metadata is kept", `{"tools_called":[],"expected_tools":[],"category":"x"}`, nil},
		{"nothing to grade", `{"id":"a","input":"hi"}`, []string{"nothing to grade", "expected_tools", "tools_called"}},
		{"null calls are nothing", `{"tools_called":null,"expected_tools":null}`, []string{"nothing to grade: `tools_called`, `expected_tools` are null"}},
		{"empty lists are something", `{"tools_called":[],"expected_tools":[]}`, nil},
		{"a chat message", `{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
			[]string{"a trace (openai_chat format), not a case", "agent_trajectory", "toolgrade extract"}},
		{"a response body", `{"id":"x","object":"chat.completion","choices":[{"message":{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`,
			[]string{"not a case", "toolgrade extract"}},
		{"Ragas single-turn query alone", `{"user_input":"hi","response":"hello"}`, []string{"nothing to grade"}},
		{"Ragas multi-turn", `{"user_input":[{"type":"human","content":"hi"}],"reference_tool_calls":[]}`, nil},
		{"ADK", `{"invocations":[]}`, nil},
		{"DeepFabric", `{"samples":[]}`, nil},
		{"BFCL answer", `{"id":"simple_0","possible_answer":[]}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := grade(t, "cases.jsonl", tt.record+"\n", &dataset.Checker{})
			if len(rs) != 1 {
				t.Fatalf("%d results, want 1", len(rs))
			}
			if tt.wantErr == nil {
				if rs[0].Error != "" {
					t.Fatalf("error %q, want none", rs[0].Error)
				}
				return
			}
			if rs[0].Success {
				t.Error("the case passed")
			}
			got := rs[0].Error
			for _, m := range rs[0].Metrics {
				got += m.Error
			}
			t.Log(got)
			if got == "" {
				t.Error("no error")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(got, w) {
					t.Errorf("error %q lacks %q", got, w)
				}
			}
		})
	}
}

// TestCalledMistakesAreFailures: what is an error in an expected call, the
// agent's call may do: it matches nothing, and the case fails.
func TestCalledMistakesAreFailures(t *testing.T) {
	for _, record := range []string{
		`{"tools_called":[{"name":"f","arguments":"{a: 1}"}],"expected_tools":[{"name":"f","args":{"a":1}}]}`,
		`{"trajectory":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"","arguments":"{}"}}]}],"expected_tools":[{"name":"f","args":{}}]}`,
	} {
		rs := grade(t, "cases.jsonl", record+"\n", &dataset.Checker{})
		if len(rs) != 1 || rs[0].Success || rs[0].Error != "" || rs[0].Metrics[0].Error != "" || rs[0].Metrics[0].Score != 0 {
			t.Errorf("%s: %+v, want a failure scored 0", record, rs[0].Metrics[0])
		}
	}
}

func TestCheckerIgnoredAndStrict(t *testing.T) {
	text := `{"tools_called":[],"expected_tools":[],"category":"a","notes":"x"}
{"tools_called":[],"expected_tools":[],"category":"b"}
{"tools_called":[],"expected_tools":[]}
`
	ch := &dataset.Checker{}
	for _, r := range grade(t, "c.jsonl", text, ch) {
		if !r.Success {
			t.Errorf("%s: %s", r.ID, r.Error)
		}
	}
	got := ch.Ignored()
	want := []dataset.FieldCount{{Field: "category", Cases: 2}, {Field: "notes", Cases: 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Ignored() = %v, want %v", got, want)
	}

	rs := grade(t, "c.jsonl", text, &dataset.Checker{StrictFields: true})
	if rs[0].Success || !strings.Contains(rs[0].Error, "c.jsonl:1: unknown field `category`") || !strings.Contains(rs[0].Error, "--strict-fields") {
		t.Errorf("strict: %+v", rs[0])
	}
	if !rs[2].Success {
		t.Errorf("strict, no unknown field: %s", rs[2].Error)
	}
}

// TestConformanceCasesPassTheChecks: every case of the peers' conformance
// samples and the examples is a gradeable case with no misspelled field,
// so the checks change none of their results.
func TestConformanceCasesPassTheChecks(t *testing.T) {
	files, _ := filepath.Glob("../compat/*/testdata/*.jsonl")
	shared, _ := filepath.Glob("../testdata/shared/conformance/*.jsonl")
	examples, _ := filepath.Glob("../examples/*/cases.jsonl")
	files = append(append(files, shared...), examples...)
	if len(files) == 0 {
		t.Fatal("no conformance samples found")
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(f)))+"/"+filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ch := &dataset.Checker{}
			for i, line := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(line) == "" {
					continue
				}
				v, err := jsonvalue.ParseString(line)
				if err != nil {
					t.Fatal(err)
				}
				obj := v.(jsonvalue.Object)
				wantErr := false
				if c, ok := obj.Get("case"); ok && strings.Contains(f, "testdata") {
					expect, _ := obj.Get("expect")
					e, _ := expect.(jsonvalue.Object).Get("error")
					wantErr = e != nil
					obj = c.(jsonvalue.Object)
				}
				rs := grade(t, f, string(jsonvalue.Append(nil, obj))+"\n", ch)
				if !wantErr && rs[0].Error != "" && (strings.Contains(rs[0].Error, "unknown field") || strings.Contains(rs[0].Error, "nothing to grade")) {
					t.Fatalf("line %d: %s", i+1, rs[0].Error)
				}
			}
		})
	}
}

// TestNothingToGradeNeverPasses: a record with none of the fields a
// metric grades is an error result, whatever else it holds.
func TestNothingToGradeNeverPasses(t *testing.T) {
	names := []string{"id", "input", "query", "actual_output", "expected_output", "reference", "response",
		"available_tools", "tools", "messages", "role", "content", "choices", "model", "category", "metadata",
		"tool_called", "expected_tool", "tool_calls", "function", "bfcl_id", "final_response", "run", "user_input"}
	value := rapid.OneOf(
		rapid.Just[any](nil), rapid.Just[any](true),
		rapid.Map(rapid.Int(), func(n int) any { return json.Number(strconv.Itoa(n)) }),
		rapid.Map(rapid.String(), func(s string) any { return s }),
		rapid.Just[any]([]any{}),
		rapid.Just[any](jsonvalue.Object{{Key: "name", Value: "f"}}),
		rapid.Just[any]([]any{jsonvalue.Object{{Key: "name", Value: "f"}}}),
	)
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfDistinct(rapid.OneOf(rapid.SampledFrom(names), rapid.StringMatching(`[a-z_]{1,12}`)), rapid.ID).Draw(t, "keys")
		var obj jsonvalue.Object
		for _, k := range keys {
			v := value.Draw(t, k)
			if k == "user_input" {
				v = "a query" // a list would be a conversation to grade
			}
			obj = append(obj, jsonvalue.Member{Key: k, Value: v})
		}
		if dataset.Gradeable(obj) {
			t.Skip("drew a gradeable field")
		}
		rs := grade(t, "p.jsonl", string(jsonvalue.Append(nil, obj))+"\n", &dataset.Checker{})
		if len(rs) != 1 || rs[0].Success || rs[0].Error == "" {
			t.Fatalf("%s: %+v", jsonvalue.Append(nil, obj), rs)
		}
		if rs[0].Err != nil && !errors.Is(rs[0].Err, dataset.ErrNothingToGrade) && !strings.Contains(rs[0].Error, "unknown field") {
			t.Logf("error: %s", rs[0].Error)
		}
	})
}

// TestCheckerNotGraded: a case gets a warning for each field it sets
// (not null) that NotGraded names, in order, and for no other.
func TestCheckerNotGraded(t *testing.T) {
	keys := []string{"process", "expected_state", "final_state", "turns", "output", "input_messages", "value", "trace", "snapshot", "x", "id", "y2", "metadata", "actual_output", "input"}
	rapid.Check(t, func(t *rapid.T) {
		notGraded := map[string]string{}
		for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom(keys), rapid.ID).Draw(t, "not graded") {
			notGraded[k] = "why " + k
		}
		obj := jsonvalue.Object{{Key: "tools_called", Value: []any{}}}
		var want []string
		for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom(keys), rapid.ID).Draw(t, "set") {
			var v any = "v"
			if rapid.Bool().Draw(t, "null") {
				v = nil
			}
			obj = append(obj, jsonvalue.Member{Key: k, Value: v})
			if why, ok := notGraded[k]; ok && v != nil {
				want = append(want, "field "+k+" is not graded: "+why)
			}
		}
		ch := &dataset.Checker{NotGraded: notGraded}
		c := &toolgrade.Case{Raw: obj}
		if err := ch.Check(c); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Warnings, want) {
			t.Fatalf("warnings %q, want %q", c.Warnings, want)
		}
	})
}

// BenchmarkCheck checks a small generated case as toolgrade eval does
// with its default metric, which leaves eight fields not graded.
func BenchmarkCheck(b *testing.B) {
	v, err := jsonvalue.ParseString(`{"id":"case-0","input":"Case 0: please invoice budget table","tools_called":[{"name":"book_flight","args":{"to":"north"}}],"expected_tools":[{"name":"book_flight","args":{"to":"north"}}],"actual_output":"Booked."}`)
	if err != nil {
		b.Fatal(err)
	}
	c, err := dataset.DecodeCase(v)
	if err != nil {
		b.Fatal(err)
	}
	ch := &dataset.Checker{NotGraded: map[string]string{}}
	for _, k := range []string{"process", "expected_state", "final_state", "state_rules", "output", "input_messages", "value", "trace"} {
		ch.NotGraded[k] = "not graded"
	}
	for b.Loop() {
		if err := ch.CheckCase(c); err != nil {
			b.Fatal(err)
		}
	}
}
