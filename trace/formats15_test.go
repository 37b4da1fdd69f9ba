package trace_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// formats15 are the provider, dataset and observability formats added for
// real-world traces, each with a small trace in its shape and the calls
// read from it ("name args id output" per call, args and output as JSON).
var formats15 = []struct {
	format, name, input string
	want                []string
}{
	{"cohere_v2", "response with null arguments",
		`{"id":"r","message":{"role":"assistant","tool_plan":"p","tool_calls":[{"id":"t1","type":"function","function":{"name":"now","arguments":"null"}}]},"finish_reason":"TOOL_CALL"}`,
		[]string{`now {} t1 null`}},
	{"cohere_v2", "stream",
		"{\"type\":\"message-start\",\"delta\":{\"message\":{\"role\":\"assistant\"}}}\n{\"type\":\"tool-call-start\",\"index\":0,\"delta\":{\"message\":{\"tool_calls\":{\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"w\",\"arguments\":\"\"}}}}}\n{\"type\":\"tool-call-delta\",\"index\":0,\"delta\":{\"message\":{\"tool_calls\":{\"function\":{\"arguments\":\"{\\\"x\\\":\"}}}}}\n{\"type\":\"tool-call-delta\",\"index\":0,\"delta\":{\"message\":{\"tool_calls\":{\"function\":{\"arguments\":\"1}\"}}}}}\n{\"type\":\"tool-call-end\",\"index\":0}\n{\"type\":\"message-end\",\"delta\":{\"finish_reason\":\"TOOL_CALL\"}}",
		[]string{`w {"x":1} a null`}},
	{"cohere_v2", "request with tool result",
		`{"messages":[{"role":"assistant","tool_plan":"p","tool_calls":[{"id":"a","type":"function","function":{"name":"w","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":[{"type":"document","document":{"data":"sunny"}}]}]}`,
		[]string{`w {} a [{"type":"document","document":{"data":"sunny"}}]`}},
	{"gemini_interactions", "steps with result",
		`{"object":"interaction","steps":[{"type":"thought"},{"type":"function_call","id":"c1","name":"f","arguments":{"a":1}},{"type":"function_result","call_id":"c1","name":"f","result":"ok"}]}`,
		[]string{`f {"a":1} c1 "ok"`}},
	{"gemini_interactions", "built-in search",
		`{"outputs":[{"type":"google_search_call","id":"g1","arguments":{"queries":["q"]}},{"type":"google_search_result","call_id":"g1","result":[]}]}`,
		[]string{`google_search {"queries":["q"]} g1 []`}},
	{"gemini", "partialArgs with nested paths",
		"{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"book\",\"willContinue\":true}}]}}]}\n{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.trip.city\",\"stringValue\":\"New \",\"willContinue\":true}],\"willContinue\":true}}]}}]}\n{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.trip.city\",\"stringValue\":\"York\"},{\"jsonPath\":\"$.guests[1]\",\"numberValue\":2},{\"jsonPath\":\"$['ok']\",\"boolValue\":true}],\"willContinue\":true}}]}}]}\n{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{}}]}}]}",
		[]string{`book {"trip":{"city":"New York"},"guests":[null,2],"ok":true} null null`}},
	{"otel_genai", "span events with gen_ai.event.content",
		`{"name":"chat","startTimeUnixNano":"1","attributes":{"gen_ai.operation.name":"chat"},"events":[{"name":"gen_ai.choice","timeUnixNano":"2","attributes":{"gen_ai.event.content":"{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}}]}}"}},{"name":"gen_ai.tool.message","timeUnixNano":"3","attributes":{"id":"c","content":"done"}}]}`,
		[]string{`f {"a":1} c "done"`}},
	{"openai_responses", "mcp approval then call",
		`{"output":[{"type":"mcp_approval_request","id":"mcpr_1","name":"search","server_label":"s","arguments":"{\"q\":\"x\"}"},{"type":"mcp_approval_response","approval_request_id":"mcpr_1","approve":true},{"type":"mcp_call","id":"mcp_1","approval_request_id":"mcpr_1","name":"search","server_label":"s","arguments":"{\"q\":\"x\"}","output":"found"}]}`,
		[]string{`search {"q":"x"} mcp_1 "found"`}},
	{"openai_responses", "mcp approval denied",
		`{"input":[{"type":"mcp_approval_request","id":"r1","name":"rm","server_label":"s","arguments":"{}"},{"type":"mcp_approval_response","approval_request_id":"r1","approve":false}]}`,
		[]string{`rm {} r1 {"content":{"approved":false},"is_error":true}`}},
	{"openai_responses", "program with output",
		`{"output":[{"type":"program","id":"cm_1","call_id":"p1","code":"x()"},{"type":"function_call","call_id":"c2","name":"x","arguments":"{}","caller":{"type":"program","caller_id":"p1"}},{"type":"function_call_output","call_id":"c2","output":"1"},{"type":"program_output","call_id":"p1","result":"done"}]}`,
		[]string{`program {"code":"x()"} p1 "done"`, `x {} c2 "1"`}},
	{"sharegpt", "function_call and observation",
		`{"conversations":[{"from":"human","value":"hi"},{"from":"function_call","value":"{\"name\":\"f\",\"arguments\":{\"a\":1}}"},{"from":"observation","value":"{\"r\":2}"},{"from":"gpt","value":"ok"}],"tools":"[]"}`,
		[]string{`f {"a":1} null "{\"r\":2}"`}},
	{"xlam", "answers as JSON text",
		`{"id":1,"query":"q","tools":"[]","answers":"[{\"name\":\"f\",\"arguments\":{\"a\":1}},{\"name\":\"g\",\"arguments\":{}}]"}`,
		[]string{`f {"a":1} null null`, `g {} null null`}},
	{"seal_tools", "calling",
		`{"id":"d","query":"q","calling":[{"api":"f","parameters":{"a":"b"},"responses":["API_call_0"]}]}`,
		[]string{`f {"a":"b"} null null`}},
	{"nexusraven", "python calls",
		`{"dataset":"d","query":"q","python_function_calls":["f(a=1)"]}`,
		[]string{`f {"a":1} null null`}},
	{"nexusraven", "standardized query",
		`{"dataset":"emailrep","prompt":"q","python_function_name":"emailrep_post","python_args_dict":"{\"email\": \"a@b.c\"}","context_functions":["emailrep_post"]}`,
		[]string{`emailrep_post {"email":"a@b.c"} null null`}},
	{"nexusraven", "raw query with reference",
		`{"query":"q","reference":"r = nvdlib.searchCVE(cpeName=\"x\", limit=2)"}`,
		[]string{`searchCVE {"cpeName":"x","limit":2} null null`}},
	{"nexusraven", "raw query under query_dict",
		`{"dataset":"emailrep","query_dict":"{\"query\": \"q\", \"reference\": \"emailrep_report(email=\\\"e\\\", key=\\\"k\\\")\"}"}`,
		[]string{`emailrep_report {"email":"e","key":"k"} null null`}},
	{"tau2_bench", "task message history",
		`{"id":"t","description":{},"user_scenario":{},"initial_state":{"message_history":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","name":"f","arguments":{"a":1},"requestor":"assistant"}]},{"role":"tool","id":"c","content":"bad","requestor":"assistant","error":true}]},"evaluation_criteria":{"actions":[{"name":"g"}]}}`,
		[]string{`f {"a":1} c {"content":"bad","is_error":true}`}},
	{"tau2_bench", "bare message list (requestor marks it)",
		`[{"role":"assistant","content":null,"tool_calls":[{"id":"c","name":"f","arguments":{"a":1},"requestor":"assistant"}],"turn_idx":1},{"id":"c","role":"tool","content":"ok","requestor":"assistant","error":false,"turn_idx":2}]`,
		[]string{`f {"a":1} c "ok"`}},
	{"bfcl_result", "function-calling model",
		`{"id":"simple_0","result":[{"calc_area":"{\"base\": 10}"}],"inference_log":[]}`,
		[]string{`calc_area {"base":10} null null`}},
	{"bfcl_result", "prompting model",
		`{"id":"simple_0","result":"[calc_area(base=10, height=5)]"}`,
		[]string{`calc_area {"base":10,"height":5} null null`}},
	{"langsmith", "run tree",
		`{"id":"r","name":"agent","run_type":"chain","dotted_order":"1","child_runs":[{"id":"l","name":"ChatOpenAI","run_type":"llm","dotted_order":"1.1","outputs":{"generations":[[{"text":"","message":{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessage"],"kwargs":{"content":"","tool_calls":[{"name":"f","args":{"a":1},"id":"c1","type":"tool_call"}]}}}]]}},{"id":"t","name":"f","run_type":"tool","dotted_order":"1.2","inputs":{"input":"{\"a\": 1}"},"outputs":{"output":"42"}}]}`,
		[]string{`f {"a":1} c1 "42"`}},
	{"langfuse", "trace with generation and tool",
		`{"id":"t","observations":[{"id":"o2","type":"TOOL","name":"f","startTime":"2025-01-01T00:00:02Z","input":{"a":1},"output":"42","traceId":"t"},{"id":"o1","type":"GENERATION","name":"llm","startTime":"2025-01-01T00:00:01Z","traceId":"t","output":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}`,
		[]string{`f {"a":1} c1 "42"`}},
}

// callLines renders a trace's calls as "name args id output" lines.
func callLines(t *testing.T, tr trace.Trace) []string {
	t.Helper()
	var lines []string
	for _, c := range tr.Calls {
		idText := "null"
		if c.ID != "" {
			idText = c.ID
		}
		args := string(jsonvalue.Append(nil, c.Args))
		if c.Invalid {
			args = "raw:" + c.ArgsRaw
		}
		lines = append(lines, c.Name+" "+args+" "+idText+" "+string(jsonvalue.Append(nil, c.Output)))
	}
	return lines
}

func TestFormats15(t *testing.T) {
	for _, tc := range formats15 {
		t.Run(tc.format+"/"+tc.name, func(t *testing.T) {
			for _, format := range []string{"", tc.format} {
				tr, err := trace.Read([]byte(tc.input), format)
				if err != nil {
					t.Fatalf("Read(format %q): %v", format, err)
				}
				if tr.Format != tc.format {
					t.Errorf("Read(format %q): format %q, want %q", format, tr.Format, tc.format)
				}
				if diff := cmp.Diff(tc.want, callLines(t, tr)); diff != "" {
					t.Errorf("Read(format %q) mismatch (-want +got):\n%s", format, diff)
				}
			}
		})
	}
}

// FuzzFormats15 feeds arbitrary bytes to each new reader, forced and
// detected: errors are fine; a trace read must hold checkTrace's
// properties.
func FuzzFormats15(f *testing.F) {
	for _, tc := range formats15 {
		f.Add([]byte(tc.input), tc.format)
	}
	f.Fuzz(func(t *testing.T, data []byte, format string) {
		known := false
		for _, tc := range formats15 {
			known = known || tc.format == format
		}
		if !known {
			format = ""
		}
		for _, force := range []string{format, ""} {
			if tr, err := trace.Read(data, force); err == nil {
				checkTrace(t, data, force, tr)
			}
		}
	})
}
