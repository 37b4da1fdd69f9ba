package trace_test

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// agentFormats are the agent CLI and framework log formats.
var agentFormats = []string{"claude_code", "claude_code_stream_json", "codex_rollout", "gemini_cli",
	"adk_events", "inspect_ai", "openai_agents_runstate", "pydantic_ai", "openhands_trajectory", "swe_agent"}

// TestAgentFormatsRejectForeignInput forces each agent log format on
// traces of other formats: each must be an error, never an empty list.
func TestAgentFormatsRejectForeignInput(t *testing.T) {
	foreign := []struct{ name, input string }{
		{"object", `{"foo": 1, "bar": [1, 2]}`},
		{"chat messages", `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]`},
		{"json lines", "{\"a\": 1}\n{\"b\": 2}\n"},
		{"text", "just some words"},
	}
	for _, format := range agentFormats {
		for _, f := range foreign {
			if f.name == "chat messages" && (format == "inspect_ai" || format == "openai_agents_runstate") {
				continue // role messages are messages of these formats too
			}
			t.Run(format+"/"+f.name, func(t *testing.T) {
				tr, err := trace.Read([]byte(f.input), format)
				if err == nil {
					t.Fatalf("no error; got %d calls", len(tr.Calls))
				}
			})
		}
	}
}

// TestSkippedItems checks that items a reader does not understand are
// reported with their place, and the calls around them kept.
func TestSkippedItems(t *testing.T) {
	tests := []struct {
		name, input, format string
		calls               int
		where, kind         string
	}{
		{"chat role", "{\"role\":\"user\",\"content\":\"x\"}\n{\"role\":\"critic\",\"content\":\"x\"}\n{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"1\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}\n",
			"openai_chat", 1, "line 2", `message with role "critic"`},
		{"claude line type", "{\"type\":\"assistant\",\"uuid\":\"a\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Bash\",\"input\":{}}]}}\n{\"type\":\"brand-new\",\"uuid\":\"b\"}\n",
			"claude_code", 1, "line 2", `record of type "brand-new"`},
		{"anthropic block", `[{"role":"assistant","content":[{"type":"hologram"},{"type":"tool_use","id":"t","name":"f","input":{}}]}]`,
			"anthropic_messages", 1, "[0].content[0]", `content block of type "hologram"`},
		{"codex record", "{\"type\":\"session_meta\",\"payload\":{}}\n{\"type\":\"mystery\",\"payload\":{}}\n",
			"codex_rollout", 0, "line 2", `record of type "mystery"`},
		{"pydantic part", `[{"kind":"response","parts":[{"part_kind":"hologram"},{"part_kind":"tool-call","tool_name":"f","args":"{}","tool_call_id":"1"}]}]`,
			"pydantic_ai", 1, "[0].parts[0]", `part of kind "hologram"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []string{"", tt.format} {
				tr, err := trace.Read([]byte(tt.input), format)
				if err != nil {
					t.Fatalf("format %q: %v", format, err)
				}
				if tr.Format != tt.format || len(tr.Calls) != tt.calls {
					t.Errorf("format %q: got %s with %d calls, want %s with %d", format, tr.Format, len(tr.Calls), tt.format, tt.calls)
				}
				if len(tr.Skipped) != 1 || tr.Skipped[0].Where != tt.where || tr.Skipped[0].Kind != tt.kind {
					t.Errorf("format %q: skipped %v, want [%s: %s]", format, tr.Skipped, tt.where, tt.kind)
				}
				if w := tr.Warnings(); len(w) != 1 || !strings.Contains(w[0], tt.kind) {
					t.Errorf("warnings %q", w)
				}
			}
		})
	}
}

// FuzzAgentFormats reads arbitrary input with each agent log format
// forced: errors are fine, panics are not, and a result has a format.
func FuzzAgentFormats(f *testing.F) {
	f.Add([]byte("{\"type\":\"assistant\",\"uuid\":\"a\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"B\",\"input\":{}}]}}\n{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"ok\"}]}}\n"))
	f.Add([]byte("{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{}\",\"call_id\":\"c\"}}\n{\"type\":\"event_msg\",\"payload\":{}}\n"))
	f.Add([]byte(`{"sessionId":"s","projectHash":"h","messages":[{"id":"1","type":"gemini","content":"","toolCalls":[{"id":"x","name":"read","args":{},"result":[{"functionResponse":{"response":{"output":"o"}}}],"status":"success"}]}]}`))
	f.Add([]byte(`[{"invocationId":"i","author":"a","content":{"parts":[{"functionCall":{"id":"1","name":"f","args":{}}}]}}]`))
	f.Add([]byte(`[{"role":"assistant","tool_calls":[{"id":"1","function":"f","arguments":{}}]},{"role":"tool","tool_call_id":"1","function":"f","content":"r"}]`))
	f.Add([]byte(`{"$schemaVersion":"1.9","generated_items":[{"type":"tool_call_item","raw_item":{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}}]}`))
	f.Add([]byte(`[{"kind":"response","parts":[{"part_kind":"tool-call","tool_name":"f","args":{},"tool_call_id":"1"}]}]`))
	f.Add([]byte(`[{"id":1,"source":"agent","action":"run","args":{"command":"ls"}},{"id":2,"source":"agent","observation":"run","cause":1,"content":"x"}]`))
	f.Add([]byte(`{"trajectory":[{"action":"ls -a","observation":"x","response":"r","thought":"t"}],"history":[],"info":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range append([]string{""}, agentFormats...) {
			tr, err := trace.Read(data, format)
			if err == nil && tr.Format == "" {
				t.Fatalf("format %q: a trace without a format", format)
			}
		}
	})
}
