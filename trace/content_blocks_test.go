package trace_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// TestAssistantContentBlocks checks the content blocks of assistant
// messages in the Inspect AI and Cohere readers: Inspect's tool_use blocks
// (tools the provider ran) are built-in calls, and blocks a reader does not
// know are skipped items, so that a foreign message (an Anthropic reply
// forced as either format) never reads as an empty list.
func TestAssistantContentBlocks(t *testing.T) {
	anthropic := `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"weather","input":{"location":"Paris"}}],"stop_reason":"tool_use"}`
	tests := []struct {
		name, format, input string
		calls               []string // name/type/id/output per call
		skipped             []string
	}{
		{
			name:   "inspect web search and MCP tool_use blocks",
			format: "inspect_ai",
			input: `[{"role":"user","content":"news?"},
				{"role":"assistant","content":[{"type":"reasoning","reasoning":"r"},{"type":"tool_use","tool_type":"web_search","id":"ws_1","name":"web_search","arguments":"{\"query\": \"news\"}","result":"[results]"},{"type":"text","text":"Here."}]},
				{"role":"assistant","content":[{"type":"tool_use","tool_type":"mcp_call","id":"mcp_2","name":"list_files","arguments":"{}","result":"","error":"denied"}]}]`,
			calls: []string{
				`web_search/web_search/ws_1/"[results]"`,
				`list_files/mcp/mcp_2/{"content":"denied","is_error":true}`,
			},
		},
		{
			name:   "inspect tool_use block without an id beside an unanswered call of its tool",
			format: "inspect_ai",
			input:  `[{"role":"assistant","tool_calls":[{"function":"web_search","arguments":{"q":"a"}}],"content":[{"type":"tool_use","tool_type":"web_search","name":"web_search","arguments":{"q":"b"},"result":"B"}]}]`,
			calls:  []string{`web_search///null`, `web_search/web_search//"B"`},
		},
		{
			name:    "inspect unknown block beside a tool call",
			format:  "inspect_ai",
			input:   `[{"role":"assistant","content":[{"type":"citation"}],"tool_calls":[{"id":"c1","function":"bash","arguments":{"cmd":"ls"}}]}]`,
			calls:   []string{`bash//c1/null`},
			skipped: []string{`[0].content[0]: content block of type "citation"`},
		},
		{
			name:    "anthropic reply forced as inspect_ai",
			format:  "inspect_ai",
			input:   anthropic,
			skipped: []string{`[0].content[0]: content block of type "tool_use" without tool_type and name`},
		},
		{
			name:   "cohere text and thinking blocks",
			format: "cohere_v2",
			input:  `{"id":"r","message":{"role":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"text","text":"hi"}],"tool_calls":[{"id":"t1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"TOOL_CALL"}`,
			calls:  []string{`f//t1/null`},
		},
		{
			name:    "anthropic reply forced as cohere_v2",
			format:  "cohere_v2",
			input:   anthropic,
			skipped: []string{`content[0]: content block of type "tool_use"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), tt.format)
			if err != nil {
				t.Fatal(err)
			}
			var calls, skipped []string
			for _, c := range tr.Calls {
				calls = append(calls, c.Name+"/"+c.Type+"/"+c.ID+"/"+jsonvalue.Format(c.Output))
			}
			for _, s := range tr.Skipped {
				skipped = append(skipped, s.String())
			}
			if !slices.Equal(calls, tt.calls) {
				t.Errorf("calls:\n%s", cmp.Diff(tt.calls, calls))
			}
			if !slices.Equal(skipped, tt.skipped) {
				t.Errorf("skipped:\n%s", cmp.Diff(tt.skipped, skipped))
			}
		})
	}
}
