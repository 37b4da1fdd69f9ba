package trace_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

func TestStableToolBench(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "one converted query: a failed call, a branch, Finish without a response",
		input: `{"query": "q", "available_tools": [{"name": "f_for_x", "parameters": {"type": "object", "properties": {}}}],
			"answer": {"method": "DFS_woFilter_w2", "total_steps": 5, "final_answer": "", "answer_details": [
			{"role": "system", "message": "", "next": [{"role": "user", "message": "", "next": [
				{"role": "tool", "message": {"name": "f_for_x", "arguments": "{\"a\": 1}", "response": "{\"error\": \"Rate limit\", \"response\": \"\"}"}, "next": [
					{"role": "assistant", "message": "retry", "next": [
						{"role": "tool", "message": {"name": "f_for_x", "arguments": "{\"a\": 2", "response": "{\"error\": \"\", \"response\": \"ok\"}"}, "next": []}]},
					{"role": "tool", "message": {"name": "Finish", "arguments": "{\"return_type\": \"give_answer\", \"final_answer\": \"done\"}", "response": ""}, "next": []}]}]}]}]}}`,
		format: "stabletoolbench",
		calls: `[{"name":"f_for_x","args":{"a":1},"id":null,"output":"{\"error\": \"Rate limit\", \"response\": \"\"}","status":"error"},
			{"name":"f_for_x","args":null,"args_raw":"{\"a\": 2","id":null,"output":"{\"error\": \"\", \"response\": \"ok\"}"},
			{"name":"Finish","args":{"return_type":"give_answer","final_answer":"done"},"id":null,"output":null}]`,
	}, {
		name: "ToolBench answer without train_messages: the DFS tree",
		input: `{"win": false, "answer_generation": {"valid_data": false, "train_messages": [], "chain": [], "query": "q"},
			"tree": {"size": 5, "tree": {"node_type": "Action Input", "description": "", "children": [
				{"node_type": "Thought", "description": "look", "children": [
				{"node_type": "Action", "description": "f_for_x", "children": [
					{"node_type": "Action Input", "description": "{\"a\": 1}", "observation": "{\"error\": \"\", \"response\": \"r\"}", "observation_code": 0, "children": [
						{"node_type": "Action", "description": "g_for_x", "children": []}]},
					{"node_type": "Action Input", "description": "{\"a\": 2}", "observation": "{\"error\": \"No such function\", \"response\": \"\"}", "children": []}]}]}]}}}`,
		format: "toolbench",
		calls: `[{"name":"f_for_x","args":{"a":1},"id":null,"output":"{\"error\": \"\", \"response\": \"r\"}"},
			{"name":"g_for_x","args":null,"id":null,"output":null},
			{"name":"f_for_x","args":{"a":2},"id":null,"output":"{\"error\": \"No such function\", \"response\": \"\"}","status":"error"}]`,
	}, {
		name: "ToolBench answer without train_messages: every try's chain",
		input: `{"win": false, "try_count": 2, "answer_generation": {"valid_data": false, "train_messages": []},
			"trys": [{"chain": [{"node_type": "Thought", "description": "t"}, {"node_type": "Action", "description": "f_for_x"},
				{"node_type": "Action Input", "description": "{}", "observation": "{\"error\": \"\", \"response\": 1}"}]},
				{"chain": [{"node_type": "Action", "description": "Finish"}]}]}`,
		format: "toolbench",
		calls: `[{"name":"f_for_x","args":{},"id":null,"output":"{\"error\": \"\", \"response\": 1}"},
			{"name":"Finish","args":null,"id":null,"output":null}]`,
	}})
}

// A predictions file: a record per query, its query the turn; a tool node
// kept as cut Python text is read as far as it goes, with a note; other
// nodes and entries are skipped.
func TestStableToolBenchFile(t *testing.T) {
	const input = `{"7": {"query": "first", "available_tools": [], "answer": {"answer_details": [{"role": "user", "message": "", "next": [
			{"role": "tool", "message": "{'name': 'f_for_x', 'arguments': '{\\n  \"a\": 1\\n}', 'response': '{\"error\": \"\", \"respon", "next": [
			{"role": "tool", "message": "{'name': 'g_for_x', 'arguments': '{\\n  \"b\": [1,", "next": [
			{"role": "Action Input", "message": {"description": "{}"}, "next": [
			{"role": "tool", "message": "{'name': 'Finish', 'arguments': '{}', 'response': ''}", "next": []}]}]}]}]}]}},
		"8": {"query": "second", "answer": {"answer_details": []}},
		"note": "not a query"}`
	tr, err := trace.Read([]byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	type record struct {
		ID     string
		Calls  []string // name and raw arguments
		Inputs []any
	}
	var got []record
	for _, r := range tr.Records {
		rec := record{ID: r.ID, Inputs: r.Inputs}
		for _, c := range r.Calls {
			rec.Calls = append(rec.Calls, c.Name+" "+string(appendArgs(c)))
		}
		got = append(got, rec)
	}
	want := []record{
		{"7", []string{`f_for_x {"a":1}`, `g_for_x '{\n  "b": [1,`, `Finish {}`}, []any{"first"}},
		{"8", nil, []any{"second"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	wantSkipped := []trace.Skip{
		{Where: "7.answer.answer_details[0].next[0].next[0].next[0]", Kind: `node of role "Action Input"`},
		{Where: "note", Kind: `entry that is no query {"query", "answer": {"answer_details"}}`},
	}
	if diff := cmp.Diff(wantSkipped, tr.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	wantNotes := []string{"2 tool nodes are kept as Python text cut short: their calls are read as far as the text goes, their responses lost"}
	if diff := cmp.Diff(wantNotes, tr.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// appendArgs is a call's arguments as JSON, or its raw text when they did
// not parse.
func appendArgs(c toolgrade.Call) []byte {
	if c.Invalid {
		return []byte(c.ArgsRaw)
	}
	return jsonvalue.Append(nil, c.Args)
}

func FuzzStableToolBench(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "stabletoolbench"))
	seedDir(f, filepath.Join("testdata", "toolbench"))
	fuzzFormat(f, "stabletoolbench",
		`{"1": {"query": "q", "answer": {"answer_details": [{"role": "tool", "message": "{'name': 'f', 'arguments': '{}'", "next": [{"role": "tool", "message": {"name": "g", "arguments": "{}", "response": "{\"error\": \"e\"}"}, "next": []}]}]}}}`)
}
