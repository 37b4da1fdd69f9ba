package trace_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/trace"
)

func TestADKEvalSet(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "one eval case: tool uses answered by id, a failed response, a call in an invocation event",
		input: `{"eval_id": "c1", "conversation": [
			{"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": "hi", "function_call": null}]},
			 "intermediate_data": {"tool_uses": [{"id": "a", "name": "f", "args": {"x": 1}}, {"id": "b", "name": "g", "args": null}],
				"tool_responses": [{"id": "b", "name": "g", "response": {"error": "down"}}, {"id": "a", "name": "f", "response": {"ok": true}}]}},
			{"invocation_id": "i2", "user_content": {"role": "user", "parts": [{"text": "again"}]},
			 "intermediate_data": {"invocation_events": [{"author": "agent", "content": {"role": "model", "parts": [{"function_call": {"id": "c", "name": "h", "args": {}}}]}}]}}],
			"session_input": {"app_name": "app", "user_id": "u", "state": {"tool": "f", "args": {}}}}`,
		format: "adk_evalset",
		calls: `[{"name":"f","args":{"x":1},"id":"a","output":{"ok":true},"turn":1},
			{"name":"g","args":null,"id":"b","output":{"error":"down"},"status":"error","turn":1},
			{"name":"h","args":{},"id":"c","output":null,"turn":2}]`,
	}, {
		name: "one eval case's result: the actual calls, not the expected ones",
		input: `{"eval_id": "c1", "final_eval_status": 2, "eval_metric_result_per_invocation": [{
			"actual_invocation": {"user_content": {"parts": [{"text": "q"}]}, "intermediate_data": {"tool_uses": [{"name": "wrong", "args": {}}]}},
			"expected_invocation": {"user_content": {"parts": [{"text": "q"}]}, "intermediate_data": {"tool_uses": [{"name": "right", "args": {}}]}},
			"eval_metric_results": [{"metric_name": "tool_trajectory_avg_score", "score": 0.0}]}], "session_id": "s"}`,
		format: "adk_evalset",
		calls:  `[{"name":"wrong","args":{},"id":null,"output":null}]`,
	}, {
		name:   "old rows, a mock tool output",
		input:  `[{"query": "q1", "expected_tool_use": [], "reference": "r"}, {"query": "q2", "expected_tool_use": [{"tool_name": "f", "tool_input": {"a": 1}, "mock_tool_output": "out"}], "reference": "r"}]`,
		format: "adk_evalset",
		calls:  `[{"name":"f","args":{"a":1},"id":null,"output":"out","turn":2}]`,
	}})
}

// Named sets of old rows are records; a row that is none is skipped.
func TestADKEvalSetNamedSets(t *testing.T) {
	tr, err := trace.Read([]byte(`[{"name": "a", "data": [{"query": "q", "expected_tool_use": [{"tool_name": "f", "tool_input": {}}]}, {"what": 1}], "initial_session": {"state": {"name": "f", "args": {}}}},
		{"name": "b", "data": []}]`), "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	var calls []int
	for _, r := range tr.Records {
		ids, calls = append(ids, r.ID), append(calls, len(r.Calls))
	}
	if !cmp.Equal(ids, []string{"a", "b"}) || !cmp.Equal(calls, []int{1, 0}) {
		t.Errorf("records %v with %v calls, want a and b with 1 and 0", ids, calls)
	}
	if want := []trace.Skip{{Where: "[0].data[1]", Kind: `row that is no {"query", "expected_tool_use"}`}}; !cmp.Equal(tr.Skipped, want) {
		t.Errorf("skipped %v, want %v", tr.Skipped, want)
	}
}

func FuzzADKEvalSet(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "adk_evalset"))
	fuzzFormat(f, "adk_evalset",
		`{"evalCases": [{"evalId": "x", "conversation": [{"userContent": {"parts": [{"text": "q"}]}, "intermediateData": {"toolUses": [{"name": "f", "args": {}}]}}]}]}`)
}
