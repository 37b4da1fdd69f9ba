package trace_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// A formatTest is one hand-written trace and the calls it must yield, in
// the extract JSON form. types, when set, lists each call's Type.
type formatTest struct {
	name   string
	force  string // format passed to Read; "" detects
	input  string
	format string // the format Read must report
	calls  string // the "calls" JSON
	types  []string
	// skipped, when not nil, lists the items reported skipped, as
	// "where: kind".
	skipped []string
}

func runFormatTests(t *testing.T, tests []formatTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), tt.force)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if tr.Format != tt.format {
				t.Errorf("format %q, want %q", tr.Format, tt.format)
			}
			want, err := jsonvalue.ParseString(`{"format":"` + tt.format + `","calls":` + tt.calls + `}`)
			if err != nil {
				t.Fatalf("bad want: %v", err)
			}
			if diff := cmp.Diff(want, asValue(t, tr), semantic); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if tt.skipped != nil {
				got := []string{}
				for _, s := range tr.Skipped {
					got = append(got, s.String())
				}
				if diff := cmp.Diff(tt.skipped, got); diff != "" {
					t.Errorf("skipped (-want +got):\n%s", diff)
				}
			}
			if tt.types != nil {
				var got []string
				for _, c := range tr.Calls {
					got = append(got, c.Type)
				}
				if diff := cmp.Diff(tt.types, got); diff != "" {
					t.Errorf("types (-want +got):\n%s", diff)
				}
			}
			if tt.force == "" {
				// Forcing the detected format gives the same calls.
				forced, err := trace.Read([]byte(tt.input), tt.format)
				if err != nil {
					t.Fatalf("Read(forced %s): %v", tt.format, err)
				}
				if diff := cmp.Diff(asValue(t, tr), asValue(t, forced), semantic); diff != "" {
					t.Errorf("forced %s differs (-detected +forced):\n%s", tt.format, diff)
				}
			}
		})
	}
}

func TestOpenAIChat(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "custom tool call",
		input: `[{"role":"assistant","content":null,"tool_calls":[
			{"id":"call_1","type":"custom","custom":{"name":"run_sql","input":"SELECT 1"}},
			{"id":"call_2","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"x\"}"}}]},
			{"role":"tool","tool_call_id":"call_1","content":"1"}]`,
		format: "openai_chat",
		calls: `[{"name":"run_sql","args":{"input":"SELECT 1"},"id":"call_1","output":"1"},
			{"name":"lookup","args":{"q":"x"},"id":"call_2","output":null}]`,
		types: []string{"custom", ""},
	}, {
		name: "invalid arguments keep their text",
		input: `{"messages":[{"role":"assistant","tool_calls":[
			{"id":"a","function":{"name":"f","arguments":"{\"x\": undefined}"}},
			{"id":"b","function":{"name":"g","arguments":""}},
			{"id":"c","function":{"name":"h"}}]}]}`,
		format: "openai_chat",
		calls: `[{"name":"f","args":null,"args_raw":"{\"x\": undefined}","id":"a","output":null},
			{"name":"g","args":null,"args_raw":"","id":"b","output":null},
			{"name":"h","args":null,"id":"c","output":null}]`,
	}, {
		name: "repeated ids link to the most recent unanswered call",
		input: `[{"role":"assistant","tool_calls":[{"id":"x","function":{"name":"f","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"x","content":"first"},
			{"role":"assistant","tool_calls":[{"id":"x","function":{"name":"g","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"x","content":"second"},
			{"role":"tool","tool_call_id":"x","content":"a stray repeat"}]`,
		format: "openai_chat",
		calls: `[{"name":"f","args":{},"id":"x","output":"first"},
			{"name":"g","args":{},"id":"x","output":"second"}]`,
	}, {
		name: "legacy function_call links by name",
		input: `[{"role":"assistant","function_call":{"name":"a","arguments":"{}"}},
			{"role":"assistant","function_call":{"name":"b","arguments":"{\"k\":1}"}},
			{"role":"function","name":"b","content":"B"},
			{"role":"function","name":"a","content":"A"}]`,
		format: "openai_chat",
		calls:  `[{"name":"a","args":{},"id":null,"output":"A"},{"name":"b","args":{"k":1},"id":null,"output":"B"}]`,
	}, {
		name:   "Ollama response with object arguments",
		input:  `{"model":"llama3.2","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Toronto"}}}]},"done":true}`,
		format: "openai_chat",
		calls:  `[{"name":"get_weather","args":{"city":"Toronto"},"id":null,"output":null}]`,
	}, {
		name: "stream split oddly, two calls interleaved",
		input: "data: {\"id\":\"s1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"c0\",\"type\":\"function\",\"function\":{\"name\":\"first\",\"arguments\":\"\"}}]}}]}\n\n" +
			"data: {\"id\":\"s1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\"}}]}}]}\n\n" +
			"data: {\"id\":\"s1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"c1\",\"function\":{\"name\":\"second\",\"arguments\":\"{\\\"b\\\":\"}}]}}]}\n\n" +
			"data: {\"id\":\"s1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\": [1,\"}},{\"index\":1,\"function\":{\"arguments\":\" true}\"}}]}}]}\n\n" +
			"data: {\"id\":\"s1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"2]}\"}}]}}]}\n\n" +
			"data: {\"id\":\"s1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" +
			"data: [DONE]\n\n",
		format: "openai_chat",
		calls: `[{"name":"first","args":{"a":[1,2]},"id":"c0","output":null},
			{"name":"second","args":{"b":true},"id":"c1","output":null}]`,
	}, {
		name: "stream with whole calls in one chunk each, no index",
		input: `data: {"id":"m","choices":[{"index":0,"delta":{"tool_calls":[{"id":"k1","function":{"name":"f","arguments":"{\"x\":1}"}}]}}]}
data: {"id":"m","choices":[{"index":0,"delta":{"tool_calls":[{"id":"k2","function":{"name":"g","arguments":"{}"}}]}}]}
`,
		format: "openai_chat",
		calls:  `[{"name":"f","args":{"x":1},"id":"k1","output":null},{"name":"g","args":{},"id":"k2","output":null}]`,
	}, {
		name: "stream of a truncated call keeps the raw text",
		input: `data: {"id":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"k","function":{"name":"f","arguments":"{\"x\":"}}]}}]}
`,
		format: "openai_chat",
		calls:  `[{"name":"f","args":null,"args_raw":"{\"x\":","id":"k","output":null}]`,
	}, {
		name: "stream of a custom tool call",
		input: `data: {"id":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"k","type":"custom","custom":{"name":"shell","input":"ls "}}]}}]}
data: {"id":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"input":"-la"}}]}}]}
`,
		format: "openai_chat",
		calls:  `[{"name":"shell","args":{"input":"ls -la"},"id":"k","output":null}]`,
		types:  []string{"custom"},
	}, {
		name: "legacy streamed function_call",
		input: `data: {"id":"m","choices":[{"index":0,"delta":{"function_call":{"name":"f","arguments":""}}}]}
data: {"id":"m","choices":[{"index":0,"delta":{"function_call":{"arguments":"{\"a\""}}}]}
data: {"id":"m","choices":[{"index":0,"delta":{"function_call":{"arguments":":1}"}}}]}
data: [DONE]
`,
		format: "openai_chat",
		calls:  `[{"name":"f","args":{"a":1},"id":null,"output":null}]`,
	}})
}

func TestOpenAIResponses(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "built-in tools each kind",
		input: `{"object":"response","output":[
			{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"weather"}},
			{"id":"fs_1","type":"file_search_call","queries":["q1"],"results":[{"file_id":"f","text":"t"}]},
			{"id":"ci_1","type":"code_interpreter_call","code":"print(1)","container_id":"c","outputs":[{"type":"logs","logs":"1"}]},
			{"id":"mcp_1","type":"mcp_call","server_label":"deepwiki","name":"ask_question","arguments":"{\"q\":\"x\"}","output":"answer","error":null},
			{"id":"cu_1","type":"computer_call","call_id":"call_c","action":{"type":"click","x":1,"y":2}},
			{"id":"ls_1","type":"local_shell_call","call_id":"call_l","action":{"type":"exec","command":["ls"]}},
			{"id":"sh_1","type":"shell_call","call_id":"call_s","action":{"commands":["pwd"]}},
			{"id":"ap_1","type":"apply_patch_call","call_id":"call_p","operation":{"type":"update_file","path":"a.go"}},
			{"id":"ct_1","type":"custom_tool_call","call_id":"call_x","name":"grammar","input":"1+1"},
			{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}]}`,
		format: "openai_responses",
		calls: `[{"name":"web_search","args":{"type":"search","query":"weather"},"id":"ws_1","output":null},
			{"name":"file_search","args":{"queries":["q1"]},"id":"fs_1","output":[{"file_id":"f","text":"t"}]},
			{"name":"code_interpreter","args":{"code":"print(1)"},"id":"ci_1","output":[{"type":"logs","logs":"1"}]},
			{"name":"ask_question","args":{"q":"x"},"id":"mcp_1","output":"answer"},
			{"name":"computer","args":{"type":"click","x":1,"y":2},"id":"call_c","output":null},
			{"name":"local_shell","args":{"type":"exec","command":["ls"]},"id":"call_l","output":null},
			{"name":"shell","args":{"commands":["pwd"]},"id":"call_s","output":null},
			{"name":"apply_patch","args":{"type":"update_file","path":"a.go"},"id":"call_p","output":null},
			{"name":"grammar","args":{"input":"1+1"},"id":"call_x","output":null}]`,
		types: []string{"web_search", "file_search", "code_interpreter", "mcp", "computer", "local_shell", "shell", "apply_patch", "custom"},
	}, {
		name: "outputs of client-run built-ins link by call_id",
		input: `[{"type":"computer_call","id":"cu","call_id":"c1","action":{"type":"screenshot"}},
			{"type":"computer_call_output","call_id":"c1","output":{"type":"computer_screenshot","image_url":"data:"}},
			{"type":"shell_call","id":"sh","call_id":"c2","action":{"commands":["ls"]}},
			{"type":"shell_call_output","id":"sho","call_id":"c2","output":[{"stdout":"a","stderr":"","outcome":{"type":"exit","exit_code":0}}]},
			{"type":"local_shell_call","id":"ls","call_id":"c3","action":{"type":"exec","command":["pwd"]}},
			{"type":"local_shell_call_output","id":"c3","output":"/"},
			{"type":"custom_tool_call","call_id":"c4","name":"g","input":"x"},
			{"type":"custom_tool_call_output","call_id":"c4","output":"y"}]`,
		format: "openai_responses",
		calls: `[{"name":"computer","args":{"type":"screenshot"},"id":"c1","output":{"type":"computer_screenshot","image_url":"data:"}},
			{"name":"shell","args":{"commands":["ls"]},"id":"c2","output":[{"stdout":"a","stderr":"","outcome":{"type":"exit","exit_code":0}}]},
			{"name":"local_shell","args":{"type":"exec","command":["pwd"]},"id":"c3","output":"/"},
			{"name":"g","args":{"input":"x"},"id":"c4","output":"y"}]`,
	}, {
		name:   "mcp_call with an error",
		input:  `[{"type":"mcp_call","id":"m1","server_label":"s","name":"t","arguments":"{}","output":null,"error":{"code":-32000,"message":"boom"}}]`,
		format: "openai_responses",
		calls:  `[{"name":"t","args":{},"id":"m1","output":{"code":-32000,"message":"boom"},"status":"error"}]`,
	}, {
		name: "streamed events",
		input: `event: response.created
data: {"type":"response.created","response":{"id":"resp_1","output":[]}}

event: response.output_item.added
data: {"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"get_weather","arguments":""}}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"city\":"}

event: response.output_item.added
data: {"type":"response.output_item.added","output_index":1,"item":{"id":"ct_1","type":"custom_tool_call","call_id":"call_2","name":"sql","input":""}}

event: response.custom_tool_call_input.delta
data: {"type":"response.custom_tool_call_input.delta","item_id":"ct_1","output_index":1,"delta":"SELECT"}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"\"Paris\"}"}

event: response.custom_tool_call_input.delta
data: {"type":"response.custom_tool_call_input.delta","item_id":"ct_1","output_index":1,"delta":" 1"}

event: response.output_item.added
data: {"type":"response.output_item.added","output_index":2,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress"}}

event: response.output_item.done
data: {"type":"response.output_item.done","output_index":2,"item":{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"q"}}}
`,
		format: "openai_responses",
		calls: `[{"name":"get_weather","args":{"city":"Paris"},"id":"call_1","output":null},
			{"name":"sql","args":{"input":"SELECT 1"},"id":"call_2","output":null},
			{"name":"web_search","args":{"type":"search","query":"q"},"id":"ws_1","output":null}]`,
	}, {
		name: "streamed events with only response.completed",
		input: `data: {"type":"response.created","response":{"id":"r"}}
data: {"type":"response.completed","response":{"id":"r","output":[{"type":"function_call","call_id":"c","name":"f","arguments":"{\"a\":1}"}]}}
`,
		format: "openai_responses",
		calls:  `[{"name":"f","args":{"a":1},"id":"c","output":null}]`,
	}, {
		name:   "request body with input items",
		input:  `{"model":"gpt-4.1","input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"ok"}]}`,
		format: "openai_responses",
		calls:  `[{"name":"f","args":{},"id":"c","output":"ok"}]`,
	}})
}

func TestAnthropic(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "mcp_tool_use, server tools and is_error",
		input: `{"model":"claude","messages":[
			{"role":"user","content":"go"},
			{"role":"assistant","content":[
				{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"q"}},
				{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"u"}]},
				{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","server_name":"s","input":{"text":"hi"}},
				{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"hi"}]},
				{"type":"tool_use","id":"toolu_1","name":"divide","input":{"a":1,"b":0}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"division by zero"}]}]}`,
		format: "anthropic_messages",
		calls: `[{"name":"web_search","args":{"query":"q"},"id":"srvtoolu_1","output":[{"type":"web_search_result","url":"u"}]},
			{"name":"echo","args":{"text":"hi"},"id":"mcptoolu_1","output":[{"type":"text","text":"hi"}]},
			{"name":"divide","args":{"a":1,"b":0},"id":"toolu_1","output":{"content":"division by zero","is_error":true},"status":"error"}]`,
		types: []string{"web_search", "mcp", ""},
	}, {
		name:   "a response message",
		input:  `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t","name":"f","input":{}}],"stop_reason":"tool_use"}`,
		format: "anthropic_messages",
		calls:  `[{"name":"f","args":{},"id":"t","output":null}]`,
	}, {
		name: "stream with no input pieces means {}",
		input: `event: message_start
data: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[]}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"now","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"s1","name":"web_search","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"go"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"s1","content":[]}}

event: content_block_start
data: {"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"t2","name":"cut","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"a\": tru"}}
`,
		format: "anthropic_messages",
		calls: `[{"name":"now","args":{},"id":"t1","output":null},
			{"name":"web_search","args":{"query":"go"},"id":"s1","output":[]},
			{"name":"cut","args":null,"args_raw":"{\"a\": tru","id":"t2","output":null}]`,
	}})
}

func TestGemini(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "streamed chunks, CRLF",
		input: "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"a\",\"args\": {\"x\": 1}}}],\"role\": \"model\"}}]}\r\n\r\n" +
			"data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"b\",\"args\": {}}}],\"role\": \"model\"},\"finishReason\": \"STOP\"}]}\r\n\r\n",
		format: "gemini",
		calls:  `[{"name":"a","args":{"x":1},"id":null,"output":null},{"name":"b","args":{},"id":null,"output":null}]`,
	}, {
		name:   "streamGenerateContent array",
		input:  `[{"candidates":[{"content":{"role":"model","parts":[{"text":"x"}]}}]},{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f"}}]}}]}]`,
		format: "gemini",
		calls:  `[{"name":"f","args":null,"id":null,"output":null}]`,
	}, {
		name: "ids, snake_case and code execution",
		input: `{"contents":[
			{"role":"model","parts":[{"function_call":{"id":"1","name":"f","args":{"q":1}}},{"functionCall":{"id":"2","name":"f","args":{"q":2}}}]},
			{"role":"user","parts":[{"functionResponse":{"id":"2","name":"f","response":{"r":2}}},{"function_response":{"id":"1","name":"f","response":{"r":1}}}]},
			{"role":"model","parts":[{"executableCode":{"language":"PYTHON","code":"print(2)"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"2\n"}}]}]}`,
		format: "gemini",
		calls: `[{"name":"f","args":{"q":1},"id":"1","output":{"r":1}},
			{"name":"f","args":{"q":2},"id":"2","output":{"r":2}},
			{"name":"code_execution","args":{"language":"PYTHON","code":"print(2)"},"id":null,"output":{"outcome":"OUTCOME_OK","output":"2\n"}}]`,
		types: []string{"", "", "code_execution"},
	}, {
		name:   "contents without roles",
		input:  `[{"parts":[{"text":"hi"}]},{"parts":[{"functionCall":{"name":"f","args":{}}}]}]`,
		format: "gemini",
		calls:  `[{"name":"f","args":{},"id":null,"output":null}]`,
	}})
}

func TestBedrock(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "request with results, one failed",
		input: `{"modelId":"m","messages":[
			{"role":"user","content":[{"text":"go"}]},
			{"role":"assistant","content":[{"toolUse":{"toolUseId":"a","name":"f","input":{"x":1}}},{"toolUse":{"toolUseId":"b","name":"g","input":{}}}]},
			{"role":"user","content":[{"toolResult":{"toolUseId":"b","content":[{"json":{"ok":true}}]}},{"toolResult":{"toolUseId":"a","status":"error","content":[{"text":"bad"}]}}]}]}`,
		format: "bedrock_converse",
		calls: `[{"name":"f","args":{"x":1},"id":"a","output":{"content":[{"text":"bad"}],"is_error":true},"status":"error"},
			{"name":"g","args":{},"id":"b","output":[{"json":{"ok":true}}]}]`,
	}, {
		name: "ConverseStream events",
		input: `[{"messageStart":{"role":"assistant"}},
			{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"t","name":"f"}},"contentBlockIndex":1}},
			{"contentBlockDelta":{"delta":{"toolUse":{"input":"{\"a\":"}},"contentBlockIndex":1}},
			{"contentBlockDelta":{"delta":{"toolUse":{"input":"2}"}},"contentBlockIndex":1}},
			{"contentBlockStop":{"contentBlockIndex":1}},
			{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"u","name":"g"}},"contentBlockIndex":2}},
			{"contentBlockStop":{"contentBlockIndex":2}},
			{"messageStop":{"stopReason":"tool_use"}}]`,
		format: "bedrock_converse",
		calls:  `[{"name":"f","args":{"a":2},"id":"t","output":null},{"name":"g","args":{},"id":"u","output":null}]`,
	}})
}

func TestLangChain(t *testing.T) {
	const want = `[{"name":"search","args":{"q":"x"},"id":"c1","output":"found"}]`
	runFormatTests(t, []formatTest{{
		name: "type form with duplicate views dropped by id",
		input: `[{"type":"human","content":"find x"},
			{"type":"ai","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"c1","name":"search","input":{"q":"x"}}],
			 "additional_kwargs":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":\"x\"}"}}]},
			 "tool_calls":[{"name":"search","args":{"q":"x"},"id":"c1","type":"tool_call"}],"invalid_tool_calls":[]},
			{"type":"tool","content":"found","tool_call_id":"c1","name":"search"}]`,
		format: "langchain",
		calls:  want,
	}, {
		name: "role form",
		input: `[{"role":"user","content":"find x"},
			{"role":"assistant","content":"","tool_calls":[{"id":"c1","name":"search","args":{"q":"x"}}]},
			{"role":"tool","content":"found","tool_call_id":"c1"}]`,
		format: "langchain",
		calls:  want,
	}, {
		name: "messages_to_dict form",
		input: `[{"type":"human","data":{"content":"find x","type":"human"}},
			{"type":"ai","data":{"content":"","type":"ai","tool_calls":[{"name":"search","args":{"q":"x"},"id":"c1","type":"tool_call"}]}},
			{"type":"tool","data":{"content":"found","type":"tool","tool_call_id":"c1"}}]`,
		format: "langchain",
		calls:  want,
	}, {
		name: "lc constructor form in a LangGraph state",
		input: `{"messages":[
			{"lc":1,"type":"constructor","id":["langchain","schema","messages","HumanMessage"],"kwargs":{"content":"find x"}},
			{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessageChunk"],"kwargs":{"content":"","tool_calls":[{"name":"search","args":{"q":"x"},"id":"c1","type":"tool_call"}]}},
			{"lc":1,"type":"constructor","id":["langchain","schema","messages","ToolMessage"],"kwargs":{"content":"found","tool_call_id":"c1"}}]}`,
		format: "langchain",
		calls:  want,
	}, {
		name: "invalid_tool_calls, error status and legacy views",
		input: `[{"type":"ai","content":"","tool_calls":[],"invalid_tool_calls":[{"name":"search","args":"{\"q\": ","id":"c9","error":"bad json","type":"invalid_tool_call"}],
			  "additional_kwargs":{"tool_calls":[{"id":"c9","type":"function","function":{"name":"search","arguments":"{\"q\": "}}]}},
			{"type":"ai","content":"","additional_kwargs":{"function_call":{"name":"legacy","arguments":"{}"}}},
			{"type":"ai","content":"","tool_calls":[{"name":"f","args":{},"id":"c2"}]},
			{"type":"tool","content":"boom","tool_call_id":"c2","status":"error"}]`,
		format: "langchain",
		calls: `[{"name":"search","args":null,"args_raw":"{\"q\": ","id":"c9","output":null},
			{"name":"legacy","args":{},"id":null,"output":null},
			{"name":"f","args":{},"id":"c2","output":{"content":"boom","is_error":true},"status":"error"}]`,
	}})
}

func TestOTelGenAI(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "deprecated flattened gen_ai.prompt.N and gen_ai.completion.N",
		input: `{"gen_ai.system":"openai","gen_ai.request.model":"gpt-4o",
			"gen_ai.prompt.0.role":"user","gen_ai.prompt.0.content":"weather?",
			"gen_ai.prompt.1.role":"assistant",
			"gen_ai.prompt.1.tool_calls.0.id":"c1","gen_ai.prompt.1.tool_calls.0.name":"get_weather","gen_ai.prompt.1.tool_calls.0.arguments":"{\"city\":\"Paris\"}",
			"gen_ai.prompt.2.role":"tool","gen_ai.prompt.2.tool_call_id":"c1","gen_ai.prompt.2.content":"rain",
			"gen_ai.completion.0.role":"assistant","gen_ai.completion.0.finish_reason":"tool_calls",
			"gen_ai.completion.0.tool_calls.0.id":"c2","gen_ai.completion.0.tool_calls.0.name":"get_time","gen_ai.completion.0.tool_calls.0.arguments":"{}"}`,
		format: "otel_genai",
		calls: `[{"name":"get_weather","args":{"city":"Paris"},"id":"c1","output":"rain"},
			{"name":"get_time","args":{},"id":"c2","output":null}]`,
	}, {
		name: "spans ordered by start time, execute_tool with arguments and result",
		input: `[{"name":"execute_tool f","startTimeUnixNano":"300","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"f","gen_ai.tool.call.id":"c1","gen_ai.tool.call.arguments":"{\"a\":1}","gen_ai.tool.call.result":"{\"ok\":true}"}},
			{"name":"chat","startTimeUnixNano":"100","attributes":{"gen_ai.operation.name":"chat","gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"f\",\"arguments\":{\"a\":1}}]}]"}},
			{"name":"execute_tool g","startTimeUnixNano":"400","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"g","gen_ai.tool.call.arguments":"not json"}}]`,
		format: "otel_genai",
		calls: `[{"name":"f","args":{"a":1},"id":"c1","output":"{\"ok\":true}"},
			{"name":"g","args":null,"args_raw":"not json","id":null,"output":null}]`,
	}, {
		name: "server tool call parts",
		input: `{"gen_ai.output.messages":[{"role":"assistant","parts":[
			{"type":"server_tool_call","id":"s1","name":"web_search","server_tool_call":{"type":"web_search","query":"q"}},
			{"type":"server_tool_call_response","id":"s1","server_tool_call_response":{"type":"web_search","results":[]}}]}]}`,
		format: "otel_genai",
		calls:  `[{"name":"web_search","args":{"type":"web_search","query":"q"},"id":"s1","output":{"type":"web_search","results":[]}}]`,
		types:  []string{"web_search"},
	}, {
		// pydantic-ai and Logfire keep a chat span's events as JSON in
		// its "events" attribute, each event's attributes merged in.
		name: "events attribute",
		input: `{"name":"chat gpt-4o","attributes":{"gen_ai.operation.name":"chat","gen_ai.system":"openai",
			"events":"[{\"content\":\"weather in Paris?\",\"role\":\"user\",\"gen_ai.message.index\":0,\"event.name\":\"gen_ai.user.message\"},{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}],\"gen_ai.message.index\":1,\"event.name\":\"gen_ai.assistant.message\"},{\"content\":\"rain\",\"role\":\"tool\",\"id\":\"call_1\",\"name\":\"get_weather\",\"gen_ai.message.index\":2,\"event.name\":\"gen_ai.tool.message\"},{\"index\":0,\"message\":{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"get_time\",\"arguments\":\"{}\"}}]},\"event.name\":\"gen_ai.choice\"}]"}}`,
		format: "otel_genai",
		calls: `[{"name":"get_weather","args":{"city":"Paris"},"id":"call_1","output":"rain"},
			{"name":"get_time","args":{},"id":"call_2","output":null}]`,
	}, {
		name: "log record whose body is JSON text",
		input: `{"resourceLogs":[{"scopeLogs":[{"logRecords":[
			{"timeUnixNano":"1","attributes":[{"key":"event.name","value":{"stringValue":"gen_ai.choice"}}],
			 "body":{"stringValue":"{\"index\":0,\"message\":{\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":{\"a\":1}}}]}}"}}]}]}]}`,
		format: "otel_genai",
		calls:  `[{"name":"f","args":{"a":1},"id":"c1","output":null}]`,
	}, {
		name:   "a bare list of GenAI messages",
		input:  `[{"role":"assistant","parts":[{"type":"tool_call","id":"x","name":"f","arguments":{"k":"v"}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"x","response":{"r":1}}]}]`,
		format: "otel_genai",
		calls:  `[{"name":"f","args":{"k":"v"},"id":"x","output":{"r":1}}]`,
	}})
}

func TestOpenInference(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "LLM span then TOOL span, one call",
		input: `{"resourceSpans":[{"scopeSpans":[{"spans":[
			{"name":"ChatCompletion","startTimeUnixNano":"1","attributes":[
				{"key":"openinference.span.kind","value":{"stringValue":"LLM"}},
				{"key":"llm.output_messages.0.message.role","value":{"stringValue":"assistant"}},
				{"key":"llm.output_messages.0.message.tool_calls.0.tool_call.id","value":{"stringValue":"c1"}},
				{"key":"llm.output_messages.0.message.tool_calls.0.tool_call.function.name","value":{"stringValue":"lookup"}},
				{"key":"llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments","value":{"stringValue":"{\"id\":7}"}}]},
			{"name":"lookup","startTimeUnixNano":"2","attributes":[
				{"key":"openinference.span.kind","value":{"stringValue":"TOOL"}},
				{"key":"tool.name","value":{"stringValue":"lookup"}},
				{"key":"tool_call.id","value":{"stringValue":"c1"}},
				{"key":"input.value","value":{"stringValue":"{\"id\":7}"}},
				{"key":"output.value","value":{"stringValue":"seven"}}]},
			{"name":"other","startTimeUnixNano":"3","attributes":[
				{"key":"openinference.span.kind","value":{"stringValue":"TOOL"}},
				{"key":"tool.name","value":{"stringValue":"solo"}},
				{"key":"input.value","value":{"stringValue":"{}"}},
				{"key":"output.value","value":{"stringValue":"done"}}]}]}]}]}`,
		format: "openinference",
		calls: `[{"name":"lookup","args":{"id":7},"id":"c1","output":"seven"},
			{"name":"solo","args":{},"id":null,"output":"done"}]`,
	}, {
		name: "input.value fallback with chat messages, index order 10 after 2",
		input: `[{"attributes":{"openinference.span.kind":"LLM","input.value":"{\"messages\":[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},{\"role\":\"tool\",\"tool_call_id\":\"a\",\"content\":\"A\"}]}"}},
			{"attributes":{"openinference.span.kind":"LLM",
				"llm.output_messages.10.message.role":"assistant","llm.output_messages.10.message.tool_calls.0.tool_call.function.name":"late",
				"llm.output_messages.2.message.role":"assistant","llm.output_messages.2.message.tool_calls.0.tool_call.function.name":"early"}}]`,
		format: "openinference",
		calls: `[{"name":"f","args":{},"id":"a","output":"A"},
			{"name":"early","args":null,"id":null,"output":null},
			{"name":"late","args":null,"id":null,"output":null}]`,
	}})
}

func TestMCP(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "isError results, error responses and other requests",
		input: `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"f","arguments":{"x":1}}}
{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}
{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"nope"}],"isError":true}}
{"jsonrpc":"2.0","id":7,"result":{"role":"assistant"}}
{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"g"}}
{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Unknown tool: g"}}
[{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"h","arguments":{}}},{"jsonrpc":"2.0","method":"notifications/progress"}]
`,
		format: "mcp",
		calls: `[{"name":"f","args":{"x":1},"id":"a","output":{"content":[{"type":"text","text":"nope"}],"isError":true},"status":"error"},
			{"name":"g","args":null,"id":"8","output":{"code":-32602,"message":"Unknown tool: g"},"status":"error"},
			{"name":"h","args":{},"id":"9","output":null}]`,
	}})
}

func TestRecords(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "ToolBench answer file",
		input: `{"win":false,"tree":{},"forward_args":{},"compare_candidates":[],"answer_generation":{"valid_data":true,"train_messages":[
			[{"role":"system","content":"s"}],
			[{"role":"system","content":"s"},{"role":"assistant","content":null,"function_call":{"name":"search_for_x","arguments":"{\"q\": \"a\"}"}},
			 {"role":"function","name":"search_for_x","content":"{\"error\": \"\", \"response\": \"r\"}"},
			 {"role":"assistant","content":null,"function_call":{"name":"Finish","arguments":"{\"return_type\": \"give_up_and_restart\"}"}}]]}}`,
		format: "toolbench",
		calls: `[{"name":"search_for_x","args":{"q":"a"},"id":null,"output":"{\"error\": \"\", \"response\": \"r\"}"},
			{"name":"Finish","args":{"return_type":"give_up_and_restart"},"id":null,"output":null}]`,
	}, {
		name:   "When2Call tool_call record",
		input:  `{"question":"q","correct_answer":"tool_call","answers":{"direct":"d","tool_call":"{\"name\": \"f\", \"arguments\": {\"a\": [1, 2]}}","request_for_info":"r","cannot_answer":"c"},"tools":[]}`,
		format: "when2call",
		calls:  `[{"name":"f","args":{"a":[1,2]},"id":null,"output":null}]`,
	}, {
		name:   "When2Call request_for_info record",
		input:  `{"question":"q","correct_answer":"request_for_info","answers":{"tool_call":"{\"name\": \"f\", \"arguments\": {}}"}}`,
		format: "when2call",
		calls:  `[]`,
	}, {
		name:   "Confident AI golden, camelCase",
		input:  `{"input":"q","actualOutput":"a","toolsCalled":[{"name":"f","inputParameters":{"a":1},"output":"o"},{"name":"g"}],"expectedTools":[{"name":"f"}]}`,
		format: "deepeval",
		calls:  `[{"name":"f","args":{"a":1},"id":null,"output":"o"},{"name":"g","args":null,"id":null,"output":null}]`,
	}, {
		name:   "DeepEval golden with only expected tools",
		input:  `{"input":"q","expected_tools":[{"name":"f","input_parameters":{"a":1}}]}`,
		format: "deepeval",
		calls:  `[]`,
	}, {
		name: "DeepEval trace: span without toolsCalled, trace-level toolsCalled",
		input: `{"uuid":"u","toolSpans":[
			{"name":"b","startTime":"2026-01-01T00:00:02Z","input":{"k":2},"output":"B"},
			{"name":"execute_tool a","startTime":"2026-01-01T00:00:01Z","output":"A","toolsCalled":[{"name":"a","inputParameters":{"k":1}}]}],
			"toolsCalled":[{"name":"c","output":"C"}]}`,
		format: "deepeval",
		calls: `[{"name":"a","args":{"k":1},"id":null,"output":"A"},
			{"name":"b","args":{"k":2},"id":null,"output":"B"},
			{"name":"c","args":null,"id":null,"output":"C"}]`,
	}, {
		name:   "a bare list of DeepEval tool calls",
		input:  `[{"name":"f","input_parameters":{"a":1},"output":2}]`,
		format: "deepeval",
		calls:  `[{"name":"f","args":{"a":1},"id":null,"output":2}]`,
	}, {
		name:   "BFCL multi-turn with a nested call",
		input:  `{"id":"x","ground_truth":[["f(a=[1, (2, 3)], b={'k': None})","g(h(1))"]]}`,
		format: "bfcl",
		calls: `[{"name":"f","args":{"a":[1,[2,3]],"b":{"k":null}},"id":null,"output":null},
			{"name":"g","args":null,"args_raw":"h(1)","id":null,"output":null}]`,
	}})
}

func TestTextFormats(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "Hermes Python-dict bodies, system examples skipped",
		input: `<|im_start|>system
You are a function calling AI model. For each function call return a json object within <tool_call></tool_call> tags:
<tool_call>
{"arguments": <args-dict>, "name": <function-name>}
</tool_call><|im_end|>
<|im_start|>user
Two things<|im_end|>
<|im_start|>assistant
<tool_call>
{'name': 'get_price', 'arguments': {'symbol': 'TSLA', 'live': True, 'limit': None}}
</tool_call>
<tool_call>
{"name": "get_news", "arguments": "{\"topic\": \"cars\"}"}
</tool_call><|im_end|>
<|im_start|>tool
<tool_response>
{"name": "get_news", "content": "n"}
</tool_response>
<tool_response>
{'name': 'get_price', 'content': 1.5}
</tool_response>
<|im_end|>
<|im_start|>assistant
<tool_call>
{"name": "broken", "arguments": {"a": }
<|im_end|>`,
		format: "hermes",
		calls: `[{"name":"get_price","args":{"symbol":"TSLA","live":true,"limit":null},"id":null,"output":"{'name': 'get_price', 'content': 1.5}"},
			{"name":"get_news","args":{"topic":"cars"},"id":null,"output":"{\"name\": \"get_news\", \"content\": \"n\"}"},
			{"name":"broken","args":null,"args_raw":"{\"name\": \"broken\", \"arguments\": {\"a\": }","id":null,"output":null}]`,
	}, {
		name:   "pythonic call list",
		input:  `[get_weather(city='Paris', days=3), convert(amount=1_000.5, to="EUR", exact=False)]`,
		format: "pythonic",
		calls: `[{"name":"get_weather","args":{"city":"Paris","days":3},"id":null,"output":null},
			{"name":"convert","args":{"amount":1000.5,"to":"EUR","exact":false},"id":null,"output":null}]`,
	}, {
		name:   "pythonic single call with positional arguments",
		input:  `math.hypot(3, 4)`,
		format: "pythonic",
		calls:  `[{"name":"math.hypot","args":null,"args_raw":"3, 4","id":null,"output":null}]`,
	}, {
		name:   "NexusRaven style",
		input:  "Call: get_weather(city_name=get_city(name='Paris'))<bot_end>\nThought: the weather",
		format: "pythonic",
		calls:  `[{"name":"get_weather","args":null,"args_raw":"city_name=get_city(name='Paris')","id":null,"output":null}]`,
	}, {
		name: "glaive functioncall",
		input: `SYSTEM: You are a helpful assistant with access to the following functions. Use them if required -
{
    "name": "get_news_headlines",
    "parameters": {"type": "object", "properties": {"country": {"type": "string"}}}
}


USER: Can you get me the latest news headlines for the United States?


ASSISTANT: <functioncall> {"name": "get_news_headlines", "arguments": '{"country": "United States"}'} <|endoftext|>


FUNCTION RESPONSE: {"headlines": ["a", "b"]}


ASSISTANT: Here are the headlines. <|endoftext|>


USER: And again, badly


ASSISTANT: <functioncall> {"name": "get_news_headlines", "arguments": '{"country": } <|endoftext|>
`,
		format: "glaive",
		calls: `[{"name":"get_news_headlines","args":{"country":"United States"},"id":null,"output":"{\"headlines\": [\"a\", \"b\"]}"},
			{"name":"get_news_headlines","args":null,"args_raw":"{\"name\": \"get_news_headlines\", \"arguments\": '{\"country\": }","id":null,"output":null}]`,
	}})
}

// TestForcedPythonicList reads a JSON list of Python-call strings.
func TestForcedPythonicList(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name:   "list of strings",
		input:  `["f(a=1)", "g()"]`,
		format: "pythonic",
		calls:  `[{"name":"f","args":{"a":1},"id":null,"output":null},{"name":"g","args":{},"id":null,"output":null}]`,
	}})
}

// TestErrors checks that unknown shapes and bad input are clear errors,
// never an empty list.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, input, force, want string
	}{
		{"unknown object", `{"foo": 1, "bar": 2}`, "", `unrecognized trace: a JSON object with keys "foo", "bar"`},
		{"unknown array", `[1, 2]`, "", `unrecognized trace: a JSON array of 2 items (integer)`},
		{"plain text", `hello there`, "", `unrecognized trace: text starting "hello there"`},
		{"empty", "  \n", "", "empty trace"},
		{"bad JSON", `{"messages": [`, "", "invalid JSON at line 1"},
		{"bad JSON Lines", "{\"jsonrpc\":\"2.0\"}\n{oops}\n", "", "line 2: invalid JSON"},
		{"bad event", "data: {\"a\":1}\n\ndata: {nope}\n\n", "", "event at line 3: invalid JSON"},
		{"unknown format", `[]`, "nope", `unknown trace format "nope"`},
		{"list of plain strings", `["hello", "world"]`, "", "unrecognized trace: a JSON array of 2 items (string)"},
		{"toolgrade results", "{\"id\":\"a\",\"success\":true,\"metrics\":[]}\n{\"id\":\"b\",\"success\":false,\"metrics\":[]}\n", "",
			"unrecognized trace: a toolgrade results file (a result: id, success, metrics), which holds grades, not the calls of a run"},
		{"toolgrade config", `{"metrics": [{"name": "tool_correctness"}]}`, "", "unrecognized trace: a toolgrade config (keys metrics), not a trace"},
		{"event stream without data", "event: ping\n\ndata: [DONE]\n", "", "a text/event-stream without JSON data"},
		{"wrong forced format", `{"foo": 1}`, "gemini", `gemini: want a generateContent request, response, content list or stream chunks, got a JSON object with keys "foo"`},
		{"text for a JSON format", `hello`, "mcp", "mcp: want JSON"},
		{"missing name", `[{"role":"assistant","tool_calls":[{"id":"a","function":{"arguments":"{}"}}]}]`, "", "field [0].tool_calls[0].function.name: missing"},
		{"bad pythonic", `f(a=1`, "pythonic", "unclosed '('"},
		{"bad when2call", `{"correct_answer":"tool_call","answers":{"tool_call":"not json at all"}}`, "", "field answers.tool_call: not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), tt.force)
			if err == nil {
				t.Fatalf("no error; got %s", tr.AppendJSON(nil))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestFormats(t *testing.T) {
	got := trace.Formats()
	for _, want := range []string{"openai_chat", "openai_responses", "anthropic_messages", "gemini", "bedrock_converse",
		"openinference", "otel_genai", "mcp", "bfcl", "tau_bench", "toolbench", "when2call", "hermes", "langchain",
		"deepeval", "pythonic", "glaive"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("Formats() lacks %q", want)
		}
	}
	got[0] = "changed"
	if trace.Formats()[0] == "changed" {
		t.Error("Formats returns its own slice")
	}
}
