package trace_test

import (
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// TestReadersReportSkipped requires every reader to report an item it does
// not understand, and a tool result that answers no call, as skipped, while
// still reading the calls around it.
func TestReadersReportSkipped(t *testing.T) {
	tests := []struct {
		name, format, input string
		calls               int
		want                string // the one skipped item, "where: kind"
	}{
		{"chat result for unknown id", "openai_chat",
			`[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"zz","content":"x"}]`,
			1, `[1]: tool result for unknown call id "zz"`},
		{"anthropic result for unknown id", "anthropic_messages",
			`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"x"}]}]}`,
			0, `messages[0].content[0]: tool result for unknown call id "t9"`},
		{"gemini response naming no call", "gemini",
			`{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`,
			0, `contents[0].parts[0].functionResponse: tool result for "f" that answers no call`},
		{"langchain content block without a type", "langchain",
			`{"messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}}],"tool_calls":[{"id":"c","name":"g","args":{}}]}]}`,
			1, `messages[0].content[0]: content block with keys "toolUse"`},
		{"otel unknown part", "otel_genai",
			`{"gen_ai.operation.name":"chat","gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"hologram\"},{\"type\":\"tool_call\",\"id\":\"c\",\"name\":\"f\",\"arguments\":{}}]}]"}`,
			1, `gen_ai.output.messages[0].parts[0]: message part of type "hologram"`},
		{"otel execute_tool without a tool name", "otel_genai",
			`{"gen_ai.operation.name":"execute_tool","gen_ai.tool.call.id":"c"}`,
			0, `execute_tool span without gen_ai.tool.name`},
		{"otel chat span without recorded messages", "otel_genai",
			`[{"name":"chat gpt-4o","startTimeUnixNano":"1","attributes":{"gen_ai.operation.name":"chat","gen_ai.response.finish_reasons":["tool_calls"]}},
			{"name":"execute_tool f","startTimeUnixNano":"2","attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"f"}}]`,
			1, `[0]: span whose model stopped to call tools records no messages (is message content capture off?)`},
		{"otel events attribute holding no list", "otel_genai",
			`{"gen_ai.operation.name":"chat","events":"{}","gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c\",\"name\":\"f\",\"arguments\":{}}]}]"}`,
			1, `events: events attribute that is not a list (object)`},
		{"openinference unknown role", "openinference",
			`{"openinference.span.kind":"LLM","llm.input_messages.0.message.role":"oracle","llm.input_messages.0.message.content":"x","llm.output_messages.0.message.role":"assistant","llm.output_messages.0.message.tool_calls.0.tool_call.function.name":"f"}`,
			1, `llm.input_messages[0]: message with role "oracle"`},
		{"openinference unknown span kind", "openinference",
			`{"openinference.span.kind":"TELEPORT","llm.output_messages.0.message.role":"assistant","llm.output_messages.0.message.tool_calls.0.tool_call.function.name":"f"}`,
			1, `span of kind "TELEPORT"`},
		{"openinference tool result for unknown id", "openinference",
			`{"openinference.span.kind":"LLM","llm.input_messages.0.message.role":"tool","llm.input_messages.0.message.tool_call_id":"q","llm.input_messages.0.message.content":"x"}`,
			0, `llm.input_messages[0]: tool result for unknown call id "q"`},
		{"mcp response to unknown request", "mcp",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"f\",\"arguments\":{}}}\n{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}",
			1, `line 2: response to unknown request id "7"`},
		{"mcp response without result", "mcp",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"f\"}}\n{\"jsonrpc\":\"2.0\",\"id\":1}",
			1, `line 2: response without result or error`},
		{"deepeval unknown span list", "deepeval",
			`{"toolSpans":[{"name":"f","input":{},"startTime":"1"}],"quantumSpans":[{"name":"x"}]}`,
			1, `quantumSpans: span list "quantumSpans"`},
		{"tau_bench unknown role", "tau_bench",
			`{"task_id":1,"traj":[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"oracle","content":"x"}]}`,
			1, `traj[1]: message with role "oracle"`},
		{"toolbench unknown role", "toolbench",
			`{"answer_generation":{"train_messages":[[{"role":"assistant","function_call":{"name":"f","arguments":"{}"}},{"role":"oracle","content":"x"}]]}}`,
			1, `answer_generation.train_messages[0][1]: message with role "oracle"`},
		{"when2call unknown class", "when2call",
			`{"question":"q","correct_answer":"telepathy","answers":{"tool_call":"{\"name\":\"f\",\"arguments\":{}}"}}`,
			0, `correct_answer: answer class "telepathy"`},
		{"bfcl ground truth not an object", "bfcl",
			`{"id":"simple_0","ground_truth":[{"f":{"a":[1]}},{"g":"nonsense"}]}`,
			1, `ground_truth[1].g: ground truth for "g" that is not {param: values} but string`},
		{"claude_code line that is a bare string", "claude_code",
			"{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n\"interrupted\"\n{\"type\":\"assistant\",\"uuid\":\"u2\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}]}}",
			1, `line 2: a JSON string, not a record`},
		{"codex_rollout line that is a number", "codex_rollout",
			"{\"type\":\"session_meta\",\"payload\":{}}\n7\n{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\",\"arguments\":\"{}\"}}",
			1, `line 2: a JSON integer, not a record`},
		{"hermes response without call", "hermes",
			"<|im_start|>assistant\nhi<|im_end|>\n<|im_start|>tool\n<tool_response>\n{\"name\": \"f\", \"content\": 1}\n</tool_response><|im_end|>\n<|im_start|>assistant\n<tool_call>\n{\"name\": \"g\", \"arguments\": {}}\n</tool_call><|im_end|>",
			1, `line 4: tool result for "f" that answers no call`},
		{"glaive response without call", "glaive",
			"USER: hi\nFUNCTION RESPONSE: {\"x\": 1}\nASSISTANT: <functioncall> {\"name\": \"f\", \"arguments\": {}}",
			1, `line 2: tool result that answers no call`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []string{"", tt.format} {
				tr, err := trace.Read([]byte(tt.input), format)
				if err != nil {
					t.Fatalf("Read(format %q): %v", format, err)
				}
				if tr.Format != tt.format {
					t.Errorf("Read(format %q): format %q, want %q", format, tr.Format, tt.format)
				}
				if len(tr.Calls) != tt.calls {
					t.Errorf("Read(format %q): %d calls, want %d", format, len(tr.Calls), tt.calls)
				}
				if len(tr.Skipped) != 1 || tr.Skipped[0].String() != tt.want {
					t.Errorf("Read(format %q): skipped %q, want [%s]", format, tr.Skipped, tt.want)
				}
			}
		})
	}
}
