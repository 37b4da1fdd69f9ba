package trace_test

import (
	"os"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/trace"
)

// Failure signals: every way a format records that a tool call failed
// marks the call "status": "error"; a result without one is ok (extract
// prints no status then).
func TestFailureSignals(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "tau-bench tool that raised",
		input: `{"task_id":0,"reward":0,"info":{},"traj":[
			{"role":"user","content":"book it"},
			{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"book","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"c","name":"book","content":"Error: payment amount does not add up"},
			{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"book","arguments":"{\"pay\":5}"}}]},
			{"role":"tool","tool_call_id":"c","name":"book","content":"{\"ok\": true, \"note\": \"Error: none\"}"}]}`,
		format: "tau_bench",
		calls: `[{"name":"book","args":{},"id":"c","output":"Error: payment amount does not add up","status":"error"},
			{"name":"book","args":{"pay":5},"id":"c","output":"{\"ok\": true, \"note\": \"Error: none\"}"}]`,
	}, {
		name: "anthropic server tool error",
		input: `{"role":"assistant","content":[
			{"type":"server_tool_use","id":"s1","name":"web_search","input":{"query":"q"}},
			{"type":"web_search_tool_result","tool_use_id":"s1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}]}`,
		format: "anthropic_messages",
		calls:  `[{"name":"web_search","args":{"query":"q"},"id":"s1","output":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"},"status":"error"}]`,
	}, {
		name: "gemini error response and failed code execution",
		input: `{"contents":[
			{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"executableCode":{"language":"PYTHON","code":"1/0"}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"error":"no such city","output":null}}},
				{"codeExecutionResult":{"outcome":"OUTCOME_FAILED","output":"ZeroDivisionError"}}]},
			{"role":"model","parts":[{"functionCall":{"name":"g","args":{}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"g","response":{"output":"fine"}}}]}]}`,
		format: "gemini",
		calls: `[{"name":"f","args":{},"id":null,"output":{"error":"no such city","output":null},"status":"error"},
			{"name":"code_execution","args":{"language":"PYTHON","code":"1/0"},"id":null,"output":{"outcome":"OUTCOME_FAILED","output":"ZeroDivisionError"},"status":"error"},
			{"name":"g","args":{},"id":null,"output":{"output":"fine"}}]`,
	}, {
		name: "ADK status error",
		input: `[{"invocationId":"i","author":"agent","content":{"role":"model","parts":[{"functionCall":{"id":"a","name":"f","args":{}}}]}},
			{"invocationId":"i","author":"agent","content":{"role":"user","parts":[{"functionResponse":{"id":"a","name":"f","response":{"status":"error","error_message":"bad city"}}}]}}]`,
		format: "adk_events",
		calls:  `[{"name":"f","args":{},"id":"a","output":{"status":"error","error_message":"bad city"},"status":"error"}]`,
	}, {
		name: "responses built-in and shell failures",
		input: `[{"type":"web_search_call","id":"ws","status":"failed","action":{"type":"search","query":"q"}},
			{"type":"shell_call","call_id":"c1","action":{"commands":["false"]}},
			{"type":"shell_call_output","call_id":"c1","output":[{"stdout":"","stderr":"","outcome":{"type":"exit","exit_code":1}}]},
			{"type":"shell_call","call_id":"c2","action":{"commands":["sleep 99"]}},
			{"type":"shell_call_output","call_id":"c2","output":[{"stdout":"","stderr":"","outcome":{"type":"timeout"}}]},
			{"type":"apply_patch_call","call_id":"c3","operation":{"type":"update_file","path":"a"}},
			{"type":"apply_patch_call_output","call_id":"c3","status":"failed","output":"no such file"},
			{"type":"function_call","call_id":"c4","name":"f","arguments":"{}"},
			{"type":"function_call_output","call_id":"c4","output":"error: nothing found"}]`,
		format: "openai_responses",
		calls: `[{"name":"web_search","args":{"type":"search","query":"q"},"id":"ws","output":null,"status":"error"},
			{"name":"shell","args":{"commands":["false"]},"id":"c1","output":[{"stdout":"","stderr":"","outcome":{"type":"exit","exit_code":1}}],"status":"error"},
			{"name":"shell","args":{"commands":["sleep 99"]},"id":"c2","output":[{"stdout":"","stderr":"","outcome":{"type":"timeout"}}],"status":"error"},
			{"name":"apply_patch","args":{"type":"update_file","path":"a"},"id":"c3","output":"no such file","status":"error"},
			{"name":"f","args":{},"id":"c4","output":"error: nothing found"}]`,
	}, {
		name: "codex exit codes",
		input: `{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"false\"]}","call_id":"a"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"a","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.0}}"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"true\"]}","call_id":"b"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"b","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"x","call_id":"c"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c","output":"Exit code: 1\nWall time: 0 seconds\nOutput:\nbad patch"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"d"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"d","output":"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nls: x: No such file"}}`,
		format: "codex_rollout",
		calls: `[{"name":"shell","args":{"command":["false"]},"id":"a","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.0}}","status":"error"},
			{"name":"shell","args":{"command":["true"]},"id":"b","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"},
			{"name":"apply_patch","args":{"input":"x"},"id":"c","output":"Exit code: 1\nWall time: 0 seconds\nOutput:\nbad patch","status":"error"},
			{"name":"exec_command","args":{"cmd":"ls"},"id":"d","output":"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nls: x: No such file","status":"error"}]`,
	}, {
		name: "openhands error observation and exit code",
		input: `[{"id":1,"source":"agent","action":"run","args":{"command":"false"}},
			{"id":2,"source":"agent","observation":"run","cause":1,"content":"","extras":{"command":"false","metadata":{"exit_code":1}}},
			{"id":3,"source":"agent","action":"run","args":{"command":"true"}},
			{"id":4,"source":"agent","observation":"run","cause":3,"content":"","extras":{"command":"true","metadata":{"exit_code":0}}},
			{"id":5,"source":"agent","action":"read","args":{"path":"/x"}},
			{"id":6,"source":"agent","observation":"error","cause":5,"content":"File not found"}]`,
		format: "openhands_trajectory",
		calls: `[{"name":"run","args":{"command":"false"},"id":null,"output":"","status":"error"},
			{"name":"run","args":{"command":"true"},"id":null,"output":""},
			{"name":"read","args":{"path":"/x"},"id":null,"output":"File not found","status":"error"}]`,
	}, {
		name: "otel execute_tool span with ERROR status",
		input: `[{"name":"execute_tool f","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"f","gen_ai.tool.call.id":"a","gen_ai.tool.call.arguments":"{}"},"status":{"code":2,"message":"timeout"}},
			{"name":"execute_tool g","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"g","gen_ai.tool.call.id":"b","error.type":"ValueError","gen_ai.tool.call.result":"bad"}},
			{"name":"execute_tool h","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"h","gen_ai.tool.call.id":"c","gen_ai.tool.call.result":"ok"},"status":{"code":"STATUS_CODE_OK"}}]`,
		format: "otel_genai",
		calls: `[{"name":"f","args":{},"id":"a","output":null,"status":"error"},
			{"name":"g","args":null,"id":"b","output":"bad","status":"error"},
			{"name":"h","args":null,"id":"c","output":"ok"}]`,
	}, {
		name:   "langfuse ToolMessage with error status",
		input:  `{"id":"t","observations":[{"id":"o","traceId":"t","type":"TOOL","name":"f","startTime":"1","input":{"x":1},"output":{"type":"tool","content":"boom","tool_call_id":"c","status":"error"}}]}`,
		format: "langfuse",
		calls:  `[{"name":"f","args":{"x":1},"id":"c","output":{"content":"boom","is_error":true},"status":"error"}]`,
	}, {
		name: "an output that only mentions an error is ok",
		input: `[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"grep","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"a","content":"{\"error\": \"none\"}"}]`,
		format: "openai_chat",
		calls:  `[{"name":"grep","args":{},"id":"a","output":"{\"error\": \"none\"}"}]`,
	}})
}

// Turns: a user message opens a turn; a message that only carries tool
// results, and context the agent injects as a user message, do not.
func TestTurnBoundaries(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "openai chat",
		input: `[{"role":"system","content":"s"},{"role":"user","content":"a"},
			{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"1","content":"x"},
			{"role":"assistant","tool_calls":[{"id":"2","type":"function","function":{"name":"g","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"2","content":"y"},
			{"role":"user","content":"b"},
			{"role":"assistant","tool_calls":[{"id":"3","type":"function","function":{"name":"h","arguments":"{}"}}]}]`,
		format: "openai_chat",
		calls: `[{"name":"f","args":{},"id":"1","output":"x","turn":1},{"name":"g","args":{},"id":"2","output":"y","turn":1},
			{"name":"h","args":{},"id":"3","output":null,"turn":2}]`,
	}, {
		name: "anthropic: tool_result-only user messages open no turn",
		input: `{"messages":[{"role":"user","content":"a"},
			{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"x"}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"2","name":"g","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"2","content":"y"},{"type":"text","text":"now b"}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"3","name":"h","input":{}}]}]}`,
		format: "anthropic_messages",
		calls: `[{"name":"f","args":{},"id":"1","output":"x","turn":1},{"name":"g","args":{},"id":"2","output":"y","turn":1},
			{"name":"h","args":{},"id":"3","output":null,"turn":2}]`,
	}, {
		name: "gemini: functionResponse-only contents open no turn",
		input: `{"contents":[{"role":"user","parts":[{"text":"a"}]},
			{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"x"}}}]},
			{"role":"model","parts":[{"text":"done"}]},
			{"role":"user","parts":[{"text":"b"}]},
			{"role":"model","parts":[{"functionCall":{"name":"g","args":{}}}]}]}`,
		format: "gemini",
		calls:  `[{"name":"f","args":{},"id":null,"output":{"output":"x"},"turn":1},{"name":"g","args":{},"id":null,"output":null,"turn":2}]`,
	}, {
		name: "bedrock",
		input: `{"messages":[{"role":"user","content":[{"text":"a"}]},
			{"role":"assistant","content":[{"toolUse":{"toolUseId":"1","name":"f","input":{}}}]},
			{"role":"user","content":[{"toolResult":{"toolUseId":"1","content":[{"text":"x"}]}}]},
			{"role":"user","content":[{"text":"b"}]},
			{"role":"assistant","content":[{"toolUse":{"toolUseId":"2","name":"g","input":{}}}]}]}`,
		format: "bedrock_converse",
		calls:  `[{"name":"f","args":{},"id":"1","output":[{"text":"x"}],"turn":1},{"name":"g","args":{},"id":"2","output":null,"turn":2}]`,
	}, {
		name: "claude code: meta, command and tool result lines open no turn",
		input: `{"type":"user","uuid":"u1","isSidechain":false,"message":{"role":"user","content":"a"}}
{"type":"assistant","uuid":"u2","isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"1","name":"Bash","input":{"command":"false"}}]}}
{"type":"user","uuid":"u3","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"Exit code 1","is_error":true}]}}
{"type":"user","uuid":"u4","isSidechain":false,"isMeta":true,"message":{"role":"user","content":"Caveat: The messages below were generated by the user while running local commands."}}
{"type":"user","uuid":"u5","isSidechain":false,"message":{"role":"user","content":"<command-name>/clear</command-name>"}}
{"type":"user","uuid":"u6","isSidechain":true,"message":{"role":"user","content":"subagent task"}}
{"type":"user","uuid":"u7","isSidechain":false,"message":{"role":"user","content":[{"type":"text","text":"b"}]}}
{"type":"assistant","uuid":"u8","isSidechain":false,"message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"2","name":"Read","input":{}}]}}`,
		format: "claude_code",
		calls: `[{"name":"Bash","args":{"command":"false"},"id":"1","output":{"content":"Exit code 1","is_error":true},"status":"error","turn":1},
			{"name":"Read","args":{},"id":"2","output":null,"turn":2}]`,
	}, {
		name: "codex: environment context is no turn",
		input: `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"a"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"1"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"1","output":"x"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"b"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"g","arguments":"{}","call_id":"2"}}`,
		format: "codex_rollout",
		calls:  `[{"name":"f","args":{},"id":"1","output":"x","turn":1},{"name":"g","args":{},"id":"2","output":null,"turn":2}]`,
	}, {
		name: "inspect: a user message carrying a tool's output is no turn",
		input: `{"messages":[{"role":"user","content":"a"},
			{"role":"assistant","content":"","tool_calls":[{"id":"1","function":"f","arguments":{}}]},
			{"role":"tool","tool_call_id":"1","function":"f","content":"","error":{"type":"timeout","message":"timed out"}},
			{"role":"user","content":[{"type":"image","image":"data:"}],"tool_call_id":["1"]},
			{"role":"user","content":"b"},
			{"role":"assistant","content":"","tool_calls":[{"id":"2","function":"g","arguments":{}}]}]}`,
		format: "inspect_ai",
		calls: `[{"name":"f","args":{},"id":"1","output":{"content":"timed out","is_error":true},"status":"error","turn":1},
			{"name":"g","args":{},"id":"2","output":null,"turn":2}]`,
	}, {
		name: "pydantic-ai user prompts",
		input: `[{"kind":"request","parts":[{"part_kind":"user-prompt","content":"a"}]},
			{"kind":"response","parts":[{"part_kind":"tool-call","tool_name":"f","args":"{}","tool_call_id":"1"}]},
			{"kind":"request","parts":[{"part_kind":"retry-prompt","tool_name":"f","content":"bad args","tool_call_id":"1"}]},
			{"kind":"request","parts":[{"part_kind":"user-prompt","content":"b"}]},
			{"kind":"response","parts":[{"part_kind":"tool-call","tool_name":"g","args":"{}","tool_call_id":"2"}]}]`,
		format: "pydantic_ai",
		calls: `[{"name":"f","args":{},"id":"1","output":{"content":"bad args","is_error":true},"status":"error","turn":1},
			{"name":"g","args":{},"id":"2","output":null,"turn":2}]`,
	}, {
		name: "τ²-bench: user turns, and a user's own tool call",
		input: `{"messages":[{"role":"user","content":"a","turn_idx":0},
			{"role":"assistant","content":null,"tool_calls":[{"id":"1","name":"f","arguments":{},"requestor":"assistant"}]},
			{"role":"tool","id":"1","content":"bad","requestor":"assistant","error":true},
			{"role":"user","content":"b"},
			{"role":"user","content":null,"tool_calls":[{"id":"2","name":"toggle","arguments":{},"requestor":"user"}]},
			{"role":"tool","id":"2","content":"on","requestor":"user","error":false}]}`,
		force:  "tau2_bench",
		format: "tau2_bench",
		calls: `[{"name":"f","args":{},"id":"1","output":{"content":"bad","is_error":true},"status":"error","turn":1},
			{"name":"toggle","args":{},"id":"2","output":"on","turn":2}]`,
	}, {
		name: "otel spans repeat the history: each user message is one turn",
		input: `[{"name":"chat","startTimeUnixNano":"1","attributes":{"gen_ai.operation.name":"chat","gen_ai.input.messages":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\"}]}]","gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"1\",\"name\":\"f\",\"arguments\":{}}]}]"}},
			{"name":"chat","startTimeUnixNano":"2","attributes":{"gen_ai.operation.name":"chat","gen_ai.input.messages":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\"}]},{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"1\",\"name\":\"f\",\"arguments\":{}}]},{\"role\":\"user\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"1\",\"response\":\"x\"}]},{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"b\"}]}]","gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"2\",\"name\":\"g\",\"arguments\":{}}]}]"}}]`,
		format: "otel_genai",
		calls:  `[{"name":"f","args":{},"id":"1","output":"x","turn":1},{"name":"g","args":{},"id":"2","output":null,"turn":2}]`,
	}, {
		name: "sharegpt",
		input: `{"conversations":[{"from":"human","value":"a"},{"from":"function_call","value":"{\"name\":\"f\",\"arguments\":{}}"},
			{"from":"observation","value":"x"},{"from":"gpt","value":"ok"},{"from":"human","value":"b"},
			{"from":"function_call","value":"{\"name\":\"g\",\"arguments\":{}}"}]}`,
		format: "sharegpt",
		calls:  `[{"name":"f","args":{},"id":null,"output":"x","turn":1},{"name":"g","args":{},"id":null,"output":null,"turn":2}]`,
	}, {
		name: "openhands user messages",
		input: `[{"id":0,"source":"user","action":"message","args":{"content":"a"}},
			{"id":1,"source":"agent","action":"run","args":{"command":"ls"}},
			{"id":2,"source":"agent","observation":"run","cause":1,"content":"x","extras":{"metadata":{"exit_code":0}}},
			{"id":3,"source":"user","action":"message","args":{"content":"b"}},
			{"id":4,"source":"agent","action":"finish","args":{}}]`,
		format: "openhands_trajectory",
		calls:  `[{"name":"run","args":{"command":"ls"},"id":null,"output":"x","turn":1},{"name":"finish","args":{},"id":null,"output":null,"turn":2}]`,
	}})
}

// Trace.Inputs holds the contents of the user messages that open turns,
// and each call's Turn says which it followed.
func TestInputs(t *testing.T) {
	tr, err := trace.Read([]byte(`[{"role":"user","content":"a"},
		{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"1","content":"x"},
		{"role":"user","content":[{"type":"text","text":"b"}]}]`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Inputs) != 2 || tr.Inputs[0] != "a" {
		t.Errorf("Inputs = %v, want [a [{text b}]]", tr.Inputs)
	}
	if c := tr.Calls[0]; c.Turn != 1 || c.Status != toolgrade.StatusOK {
		t.Errorf("call %v: turn %d, status %q; want 1, ok", c.Name, c.Turn, c.Status)
	}
}

// Shared real-world transcripts: results marked "is_error": false are ok
// (none of the shared fixtures has a failed result; the project's own
// samples do, see testdata/claude_code_stream_json), the user's prompts
// are turns and tool-result lines and a subagent's prompt are not.
func TestRealWorldStatusAndTurns(t *testing.T) {
	data, err := os.ReadFile(shared.Path(t, "fixtures", "realworld", "claude_code", "daaain_representative_messages.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.Read(data, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Inputs) != 4 {
		t.Errorf("%d turns, want 4 (the user's prompts): %v", len(tr.Inputs), tr.Inputs)
	}
	for _, c := range tr.Calls {
		// Both results say "is_error": false.
		if c.Status != toolgrade.StatusOK {
			t.Errorf("%s: status %q, want ok", c.Name, c.Status)
		}
	}
	if data, err = os.ReadFile(shared.Path(t, "fixtures", "realworld", "claude_code_stream_json", "harness-claude-code__subagent-step-stream.json")); err != nil {
		t.Fatal(err)
	}
	if tr, err = trace.Read(data, ""); err != nil {
		t.Fatal(err)
	}
	if len(tr.Inputs) != 0 {
		t.Errorf("a subagent's prompt read as a user turn: %v", tr.Inputs)
	}
}
