package trace_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

func TestLiteLLM(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "the history's calls, then the response's",
		input: `{"messages":[{"role":"user","content":"hi"},
				{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"ls","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"a","content":"x.txt"},
				{"role":"user","content":"and now?"}],
			"tools":[{"type":"function","function":{"name":"ls","parameters":{"type":"object","properties":{}}}}],
			"response":{"id":"r","object":"chat.completion","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
				"tool_calls":[{"id":"b","type":"function","function":{"name":"cat","arguments":"{\"path\":\"x.txt\"}"}}]}}]},
			"cost":0.01,"timestamp":1757015046.7,"latency_sec":2.1}`,
		format: "litellm",
		calls: `[{"name":"ls","args":{},"id":"a","output":"x.txt","turn":1},
			{"name":"cat","args":{"path":"x.txt"},"id":"b","output":null,"turn":2}]`,
		skipped: []string{},
	}, {
		name: "raw_messages are read instead of messages",
		input: `{"messages":[{"role":"assistant","content":"<function=ls>\n</function>"},{"role":"user","content":"EXECUTION RESULT of [ls]: x.txt"}],
			"raw_messages":[{"role":"assistant","content":"","tool_calls":[{"id":"t1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","tool_call_id":"t1","content":"x.txt"}],
			"response":{"choices":[{"message":{"role":"assistant","content":"done"}}]},"latency_sec":1}`,
		format: "litellm",
		calls:  `[{"name":"ls","args":{},"id":"t1","output":"x.txt"}]`,
	}, {
		name: "a Responses API response and an Anthropic one, as JSON Lines of payloads",
		input: `{"call_type":"aresponses","messages":[{"role":"user","content":"go"}],"response":{"id":"resp_1","output":[{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}]}}
{"call_type":"anthropic_messages","messages":[{"role":"user","content":"go"},{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"text","text":"go on"}]}],"response":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"g","input":{"n":2}}]}}`,
		format: "litellm",
		calls: `[{"name":"f","args":{},"id":"c1","output":null,"turn":1},
			{"name":"g","args":{"n":2},"id":"toolu_1","output":null,"turn":2}]`,
	}, {
		name: "a failed call's payload; messages of another kind are skipped",
		input: `[{"call_type":"acompletion","status":"failure","response":null,"error_str":"RateLimitError",
				"messages":[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]},
			{"call_type":"aembedding","messages":{"input":"x"},"response":{"data":[]}}]`,
		format:  "litellm",
		calls:   `[{"name":"f","args":{},"id":"a","output":null}]`,
		skipped: []string{`[1].messages: messages that are object, not a list`},
	}, {
		name: "an MCP call through the proxy, no model call of it",
		input: `{"call_type":"call_mcp_tool","messages":null,"response":null,
			"metadata":{"mcp_tool_call_metadata":{"name":"read_wiki","namespaced_tool_name":"deepwiki-read_wiki","arguments":{"repo":"a/b"},"result":{"content":[],"isError":true}}}}`,
		format: "litellm",
		calls:  `[{"name":"read_wiki","args":{"repo":"a/b"},"id":null,"output":{"content":[],"isError":true},"status":"error"}]`,
		types:  []string{"mcp"},
	}})
}

// TestLiteLLMRefusesOtherRecords: a list that holds a record of another
// kind is not read as LiteLLM logs, and the error names the record.
func TestLiteLLMRefusesOtherRecords(t *testing.T) {
	for _, force := range []string{"", "litellm"} {
		_, err := trace.Read([]byte(`[{"messages":[],"response":{"choices":[]}},{"role":"user","content":"x"}]`), force)
		if err == nil || !strings.Contains(err.Error(), "LiteLLM completion log at [1]") {
			t.Errorf("format %q: error %v, want one naming record [1]", force, err)
		}
	}
	_, err := trace.Read([]byte(`[{"role":"user","content":"x"}]`), "litellm")
	if !errors.Is(err, trace.ErrNotThisFormat) {
		t.Errorf("chat messages forced: error %v, want ErrNotThisFormat", err)
	}
}

func FuzzLiteLLM(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "litellm"))
	fuzzFormat(f, "litellm",
		`{"messages":[{"role":"user","content":"x"}],"response":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{"}}]}}]}}`,
		`{"call_type":"call_mcp_tool","messages":"x","response":"y","metadata":{"mcp_tool_call_metadata":{"name":"f","arguments":{},"result":{}}}}`)
}
