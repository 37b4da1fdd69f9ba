package trace_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// agentFormats are the agent CLI and framework log formats.
var agentFormats = []string{"claude_code", "claude_code_stream_json", "codex_rollout", "gemini_cli",
	"adk_events", "inspect_ai", "openai_agents_runstate", "pydantic_ai", "openhands_trajectory", "swe_agent"}

// newFormats are the formats added for real-world traces: the agent log
// formats and the providers, datasets and observability formats of
// formats15 (less the older formats it also covers).
func newFormats() []string {
	fs := slices.Clone(agentFormats)
	for _, tc := range formats15 {
		if !slices.Contains(fs, tc.format) && !slices.Contains([]string{"gemini", "openai_responses", "otel_genai"}, tc.format) {
			fs = append(fs, tc.format)
		}
	}
	return fs
}

// TestNewFormatsRejectForeignInput forces each new format on traces of
// other formats: each must be ErrNotThisFormat, never an empty list.
func TestNewFormatsRejectForeignInput(t *testing.T) {
	foreign := []struct{ name, input string }{
		{"object", `{"foo": 1, "bar": [1, 2]}`},
		{"chat messages", `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]`},
		{"json lines", "{\"a\": 1}\n{\"b\": 2}\n"},
		{"gemini", `{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]}}]}`},
		{"mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	}
	// role messages are messages of these formats too
	chatToo := []string{"inspect_ai", "openai_agents_runstate", "cohere_v2", "tau2_bench", "sharegpt"}
	for _, format := range newFormats() {
		for _, f := range foreign {
			if f.name == "chat messages" && slices.Contains(chatToo, format) {
				continue
			}
			t.Run(format+"/"+f.name, func(t *testing.T) {
				tr, err := trace.Read([]byte(f.input), format)
				if !errors.Is(err, trace.ErrNotThisFormat) {
					t.Fatalf("error %v (%d calls), want ErrNotThisFormat", err, len(tr.Calls))
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
		{"cohere event", "{\"type\":\"message-start\",\"delta\":{\"message\":{\"role\":\"assistant\"}}}\n{\"type\":\"brand-new-event\"}",
			"cohere_v2", 0, "line 2", `stream event of type "brand-new-event"`},
		{"interactions step", `{"object":"interaction","steps":[{"type":"hologram"}]}`,
			"gemini_interactions", 0, "steps[0]", `step of type "hologram"`},
		{"sharegpt turn", `{"conversations":[{"from":"human","value":"x"},{"from":"robot","value":"y"}]}`,
			"sharegpt", 0, "conversations[1]", `turn from "robot"`},
		{"langsmith run", `{"run_type":"mystery","name":"x"}`,
			"langsmith", 0, "", `run of type "mystery"`},
		{"langfuse observation", `{"observations":[{"type":"HOLOGRAM","startTime":"1","traceId":"t"}]}`,
			"langfuse", 0, "observations[0]", `observation of type "HOLOGRAM"`},
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
