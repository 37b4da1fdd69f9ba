package trace_test

import (
	"path/filepath"
	"testing"
)

func TestATIF(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "results by source_call_id, by position, and a batch's one output",
		input: `{"schema_version": "ATIF-v1.5", "session_id": "s", "agent": {"name": "a", "version": "1"}, "steps": [
			{"step_id": 1, "source": "user", "message": "go"},
			{"step_id": 2, "source": "agent", "message": "", "tool_calls": [
				{"tool_call_id": "a", "function_name": "f", "arguments": {"x": 1}}, {"tool_call_id": "b", "function_name": "g", "arguments": {}}],
				"observation": {"results": [{"source_call_id": "b", "content": "G"}, {"source_call_id": "a", "content": "F"}]}},
			{"step_id": 3, "source": "agent", "message": "", "tool_calls": [{"tool_call_id": "c", "function_name": "h", "arguments": {}}],
				"observation": {"results": [{"content": "H"}]}},
			{"step_id": 4, "source": "user", "message": "more"},
			{"step_id": 5, "source": "agent", "message": "", "tool_calls": [
				{"tool_call_id": "d", "function_name": "k", "arguments": {"keys": "ls\n"}}, {"tool_call_id": "e", "function_name": "k", "arguments": {"keys": "pwd\n"}}],
				"observation": {"results": [{"content": "$ ls\n$ pwd\n/"}]}}]}`,
		format: "atif",
		calls: `[{"name":"f","args":{"x":1},"id":"a","output":"F","turn":1},{"name":"g","args":{},"id":"b","output":"G","turn":1},
			{"name":"h","args":{},"id":"c","output":"H","turn":1},
			{"name":"k","args":{"keys":"ls\n"},"id":"d","output":null,"turn":2},{"name":"k","args":{"keys":"pwd\n"},"id":"e","output":null,"turn":2}]`,
	}, {
		name: "calls {id, name} and results as system steps before them, one failed",
		input: `{"schema_version": "1.4", "session_id": "s", "agent": {"name": "claude-code"}, "steps": [
			{"step_id": 1, "source": "system", "message": "Tool result for t2", "observation": {"type": "tool_result", "content": "denied", "result": {"success": false, "error": "denied"}}},
			{"step_id": 2, "source": "agent", "message": "", "tool_calls": [{"id": "t1", "name": "Read", "arguments": {"path": "a"}}, {"id": "t2", "name": "Write", "arguments": {"path": "b"}}]},
			{"step_id": 3, "source": "system", "message": "Tool result for t1", "observation": {"type": "tool_result", "content": "text", "result": {"success": true}}}]}`,
		format: "atif",
		calls: `[{"name":"Read","args":{"path":"a"},"id":"t1","output":"text"},
			{"name":"Write","args":{"path":"b"},"id":"t2","output":"denied","status":"error"}]`,
	}})
}

func FuzzATIF(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "atif"))
	fuzzFormat(f, "atif",
		`{"schema_version": "ATIF-v1.6", "session_id": "s", "agent": {}, "steps": [{"step_id": 1, "source": "agent", "message": "", "is_copied_context": true, "tool_calls": [{"tool_call_id": "a", "function_name": "f", "arguments": {}}]}]}`)
}
