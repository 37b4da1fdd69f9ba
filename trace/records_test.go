package trace_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/trace"
)

// A file of several records gives each its id, place, calls, inputs and
// skipped items, its turns counted from 1; the whole file's calls count
// the turns across records; a result links to its own record's calls
// only.
func TestRecordsOfAFile(t *testing.T) {
	const input = `{"id": "a", "result": [[[{"f": "{}"}], []], [[{"g": "{}"}]]], "inference_log": [{"begin_of_turn_query": "q1", "step_0": [{"role": "tool", "content": "F"}]}, {"begin_of_turn_query": "q2"}]}

{"id": 7, "result": [[[{"h": "{\"x\": 1}"}]]], "inference_log": [{"begin_of_turn_query": "q3", "step_0": [{"role": "tool", "content": "H"}, {"role": "tool", "content": "extra"}]}]}
{"id": "c", "result": 3}`
	tr, err := trace.Read([]byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	type call struct {
		Name   string
		Output any
		Turn   int
	}
	calls := func(cs []trace.Record) [][]call {
		var out [][]call
		for _, r := range cs {
			var l []call
			for _, c := range r.Calls {
				l = append(l, call{c.Name, c.Output, c.Turn})
			}
			out = append(out, l)
		}
		return out
	}
	type place struct {
		ID, Where string
		Line      int
		Inputs    []any
		Skipped   []trace.Skip
	}
	var places []place
	for _, r := range tr.Records {
		places = append(places, place{r.ID, r.Where, r.Line, r.Inputs, r.Skipped})
	}
	wantPlaces := []place{
		{"a", "line 1", 1, []any{"q1", "q2"}, []trace.Skip{}},
		{"7", "line 3", 3, []any{"q3"}, []trace.Skip{{Where: "line 3 inference_log[0].step_0.1", Kind: "tool result that answers no call"}}},
		{"c", "line 4", 4, []any{}, []trace.Skip{{Where: "line 4 result", Kind: "result that is neither Python call text nor {name: arguments} but integer"}}},
	}
	if diff := cmp.Diff(wantPlaces, places); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	wantCalls := [][]call{{{"f", "F", 1}, {"g", nil, 2}}, {{"h", "H", 1}}, nil}
	if diff := cmp.Diff(wantCalls, calls(tr.Records)); diff != "" {
		t.Errorf("records' calls (-want +got):\n%s", diff)
	}
	whole := calls([]trace.Record{{Calls: tr.Calls}})[0]
	if diff := cmp.Diff([]call{{"f", "F", 1}, {"g", nil, 2}, {"h", "H", 3}}, whole); diff != "" {
		t.Errorf("the file's calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{"q1", "q2", "q3"}, tr.Inputs); diff != "" {
		t.Errorf("the file's inputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tr.Records, tr.Runs()); diff != "" {
		t.Errorf("Runs of a file of records (-want +got):\n%s", diff)
	}
}

// A trace that is one run has no records, and Runs gives it as one.
func TestRunsOfOneTrace(t *testing.T) {
	tr, err := trace.Read([]byte(`{"id": "a", "result": [{"f": "{}"}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Records != nil {
		t.Errorf("records %v, want none", tr.Records)
	}
	runs := tr.Runs()
	if len(runs) != 1 || runs[0].ID != "" || len(runs[0].Calls) != 1 || runs[0].Calls[0].Name != "f" {
		t.Errorf("Runs() = %+v, want the trace as one run", runs)
	}
}

func FuzzBFCLResult(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "bfcl_result"))
	fuzzFormat(f, "bfcl_result",
		`{"id":"a","result":"[f(a=1)]"}`+"\n"+`{"id":2,"result":[[[{"g":"{}"}]]],"inference_log":[{"step_0":[{"role":"tool","content":"Error during execution: x"}]}]}`,
		`[{"id":"a","result":"`+"```json\\n[{\\\"f\\\": {}}]\\n```"+`"},{"result":null}]`)
}

// The runs of an Inspect eval log (its samples) and of a τ²-bench results
// file (its simulations) are records: ids that repeat across runs are
// each run's own.
func TestRecordsOfRunFiles(t *testing.T) {
	for _, tt := range []struct {
		name, input string
		ids         []string
	}{
		{"inspect eval log", `{"eval": {"task": "t"}, "samples": [
			{"id": "s1", "epoch": 1, "messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": "f", "arguments": {}}]}, {"role": "tool", "tool_call_id": "c1", "function": "f", "content": "A"}]},
			{"id": "s2", "epoch": 1, "messages": [{"role": "user", "content": "b"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": "f", "arguments": {}}]}, {"role": "tool", "tool_call_id": "c1", "function": "f", "content": "B"}]}]}`,
			[]string{"s1", "s2"}},
		{"τ²-bench results", `{"tasks": [], "simulations": [
			{"id": "sim-1", "task_id": "0", "messages": [{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]}, {"role": "tool", "id": "c1", "content": "A"}]},
			{"id": "sim-2", "task_id": "0", "messages": [{"role": "user", "content": "b"}, {"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]}, {"role": "tool", "id": "c1", "content": "B"}]}]}`,
			[]string{"sim-1", "sim-2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), "")
			if err != nil {
				t.Fatal(err)
			}
			var ids, outputs []string
			for _, r := range tr.Records {
				ids = append(ids, r.ID)
				for _, c := range r.Calls {
					o, _ := c.Output.(string)
					outputs = append(outputs, o)
				}
			}
			if !cmp.Equal(ids, tt.ids) || !cmp.Equal(outputs, []string{"A", "B"}) {
				t.Errorf("records %v with outputs %v, want %v with A and B", ids, outputs, tt.ids)
			}
		})
	}
}
