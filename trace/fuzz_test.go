package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// Each reader has a fuzz test seeded with its shared fixtures (when
// ../shared is beside the repository) and small hand-written samples. The
// properties: no input panics; a trace that reads is in the value model,
// prints as JSON, reads the same twice, and has Invalid calls exactly
// where ArgsRaw is kept.

func fuzzFormat(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	fixtureSeeds(f, format)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, force := range []string{format, ""} {
			tr, err := trace.Read(data, force)
			if err != nil {
				if err.Error() == "" {
					t.Error("empty error message")
				}
				continue
			}
			checkTrace(t, data, force, tr)
		}
	})
}

// fixtureSeeds adds the shared fixtures of a format as seeds. Unlike the
// fixture tests it does not skip without them: the samples suffice.
func fixtureSeeds(f *testing.F, format string) {
	seedDir(f, sharedFixtures("traces", format))
}

// sharedFixtures is a folder of ../shared/fixtures, reached through the
// module's testdata/shared link so that go test's cache notices when the
// shared data appears or changes (see internal/shared).
func sharedFixtures(elem ...string) string {
	return filepath.Join(append([]string{"..", "testdata", "shared", "fixtures"}, elem...)...)
}

// seedDir adds the traces in dir as seeds: every file but expected calls,
// notes and files of 1 MiB or more. A missing dir adds none.
func seedDir(f *testing.F, dir string) {
	files, _ := os.ReadDir(dir)
	for _, file := range files {
		name := file.Name()
		if strings.HasSuffix(name, ".expected.json") || strings.HasSuffix(name, ".md") || file.IsDir() {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(data) < 1<<20 {
			f.Add(data)
		}
	}
}

func checkTrace(t *testing.T, data []byte, force string, tr trace.Trace) {
	t.Helper()
	if !slices.Contains(trace.Formats(), tr.Format) || (force != "" && tr.Format != force) {
		t.Fatalf("format %q (forced %q)", tr.Format, force)
	}
	for i, c := range tr.Calls {
		if c.Invalid && c.Args != nil {
			t.Errorf("call %d: invalid, yet Args %v", i, c.Args)
		}
		if !c.Invalid && c.ArgsRaw != "" {
			t.Errorf("call %d: ArgsRaw %q on a valid call", i, c.ArgsRaw)
		}
		for _, v := range []any{c.Args, c.Output} {
			if !inModel(v) {
				t.Errorf("call %d: value outside the model: %#v", i, v)
			}
		}
	}
	n := 0
	for _, r := range tr.Records {
		n += len(r.Calls)
	}
	if tr.Records != nil && n != len(tr.Calls) {
		t.Errorf("records hold %d calls, the trace %d", n, len(tr.Calls))
	}
	out := tr.AppendJSON(nil)
	if _, err := jsonvalue.Parse(out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	again, err := trace.Read(data, force)
	if err != nil || !bytes.Equal(again.AppendJSON(nil), out) {
		t.Fatalf("second read differs: %v\n%s\n%s", err, out, again.AppendJSON(nil))
	}
}

func inModel(v any) bool {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if !inModel(e) {
				return false
			}
		}
		return true
	case jsonvalue.Object:
		for _, m := range v {
			if !inModel(m.Value) {
				return false
			}
		}
		return true
	}
	return jsonvalue.Kind(v) != "invalid"
}

func FuzzRead(f *testing.F) {
	for _, format := range trace.Formats() {
		fixtureSeeds(f, format)
	}
	f.Add([]byte(`{"foo": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if tr, err := trace.Read(data, ""); err == nil {
			checkTrace(t, data, "", tr)
		}
	})
}

func FuzzOpenAIChat(f *testing.F) {
	fuzzFormat(f, "openai_chat",
		`[{"role":"assistant","tool_calls":[{"id":"a","type":"custom","custom":{"name":"x","input":"y"}}]},{"role":"tool","tool_call_id":"a","content":"z"}]`,
		"data: {\"id\":\"s\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\"}}]}}]}\n\ndata: {\"id\":\"s\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\":1}\"}}]}}]}\n\ndata: [DONE]\n",
		`{"choices":[{"message":{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}}]}`)
}

func FuzzOpenAIResponses(f *testing.F) {
	fuzzFormat(f, "openai_responses",
		`[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"o"},{"type":"web_search_call","id":"w","action":{"query":"q"}}]`,
		"data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\",\"arguments\":\"\"}}\n\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{}\"}\n\n")
}

func FuzzAnthropic(f *testing.F) {
	fuzzFormat(f, "anthropic_messages",
		`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}},{"type":"mcp_tool_use","id":"m","name":"g","server_name":"s","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"x"}]}]}`,
		"data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n")
}

func FuzzGemini(f *testing.F) {
	fuzzFormat(f, "gemini",
		`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`,
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"id\":\"1\",\"name\":\"f\",\"args\":{}}}]}}]}\r\n\r\n")
}

func FuzzBedrock(f *testing.F) {
	fuzzFormat(f, "bedrock_converse",
		`{"messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"a","name":"f","input":{}}}]},{"role":"user","content":[{"toolResult":{"toolUseId":"a","status":"error","content":[{"text":"x"}]}}]}]}`,
		`[{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"t","name":"f"}},"contentBlockIndex":0}},{"contentBlockDelta":{"delta":{"toolUse":{"input":"{}"}},"contentBlockIndex":0}}]`)
}

func FuzzLangChain(f *testing.F) {
	fuzzFormat(f, "langchain",
		`[{"type":"ai","content":[{"type":"tool_use","id":"c","name":"f","input":{}}],"tool_calls":[{"id":"c","name":"f","args":{}}],"invalid_tool_calls":[{"id":"d","name":"g","args":"{"}]},{"type":"tool","tool_call_id":"c","content":"x"}]`,
		`{"messages":[{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"content":"","tool_calls":[{"id":"c","name":"f","args":{}}]}}]}`,
		`[{"type":"ai","data":{"content":"","additional_kwargs":{"function_call":{"name":"f","arguments":"{}"}}}}]`)
}

func FuzzOTelGenAI(f *testing.F) {
	fuzzFormat(f, "otel_genai",
		`{"gen_ai.prompt.0.role":"assistant","gen_ai.prompt.0.tool_calls.0.name":"f","gen_ai.prompt.0.tool_calls.0.arguments":"{}","gen_ai.prompt.1.role":"tool","gen_ai.prompt.1.content":"x"}`,
		`[{"startTimeUnixNano":"2","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"f","gen_ai.tool.call.id":"c"}},{"startTimeUnixNano":"1","attributes":[{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c\",\"name\":\"f\"}]}]"}}]}]`)
}

func FuzzOpenInference(f *testing.F) {
	fuzzFormat(f, "openinference",
		`{"openinference.span.kind":"TOOL","tool.name":"f","tool_call.id":"c","input.value":"{}","output.value":"x"}`,
		`{"llm.input_messages.0.message.role":"assistant","llm.input_messages.0.message.tool_calls.0.tool_call.function.name":"f","llm.input_messages.1.message.role":"tool","llm.input_messages.1.message.content":"x"}`)
}

func FuzzMCP(f *testing.F) {
	fuzzFormat(f, "mcp",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"f\",\"arguments\":{}}}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"isError\":true}}\n")
}

func FuzzBFCL(f *testing.F) {
	fuzzFormat(f, "bfcl",
		`{"id":"x","ground_truth":[{"f":{"a":[1,""]}}]}`,
		`{"id":"y","ground_truth":[["f(a='x', b=[1, 2.5e3])", "g('pos')"]]}`)
}

func FuzzTauBench(f *testing.F) {
	fuzzFormat(f, "tau_bench",
		`{"task_id":1,"traj":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","name":"f","content":""}]}`)
}

func FuzzToolBench(f *testing.F) {
	fuzzFormat(f, "toolbench",
		`{"answer_generation":{"train_messages":[[{"role":"assistant","function_call":{"name":"Finish","arguments":"{}"}}]]}}`)
}

func FuzzWhen2Call(f *testing.F) {
	fuzzFormat(f, "when2call",
		`{"correct_answer":"tool_call","answers":{"tool_call":"{\"name\": \"f\", \"arguments\": {}}"}}`)
}

func FuzzDeepEval(f *testing.F) {
	fuzzFormat(f, "deepeval",
		`{"toolSpans":[{"name":"s","startTime":"2026-01-01T00:00:00Z","output":"x","toolsCalled":[{"name":"f","inputParameters":{}}]}],"toolsCalled":[{"name":"g"}]}`,
		`{"tools_called":[{"name":"f","input":{"a":1}}],"expected_tools":[]}`)
}

func FuzzHermes(f *testing.F) {
	fuzzFormat(f, "hermes",
		"<|im_start|>assistant\n<tool_call>\n{'name': 'f', 'arguments': {'a': None}}\n</tool_call><|im_end|>\n<tool_response>\n{\"name\": \"f\"}\n</tool_response>",
		"<tools>[{\"name\": \"x\"}]</tools>\nASSISTANT: <tool_call>{\"name\": \"f\"")
}

func FuzzGlaive(f *testing.F) {
	fuzzFormat(f, "glaive",
		"ASSISTANT: <functioncall> {\"name\": \"f\", \"arguments\": '{\"a\": 1}'} <|endoftext|>\n\n\nFUNCTION RESPONSE: {\"r\": 1}\n\n\nASSISTANT: ok")
}

func FuzzPythonic(f *testing.F) {
	fuzzFormat(f, "pythonic",
		`[f(a=1, b='x\'y', c=None, d=(1,), e={'k': [True]}), g.h(r"raw\n", 0x1F, -1.5e-3)]`,
		"Call: f(x=g(1))<bot_end>",
		`f(s="""tri"ple""")`)
}
