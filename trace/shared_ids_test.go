package trace_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// TestSharedCallIDs holds results to the calls they answer when several
// calls awaiting a result share one id (parallel calls a server numbered
// alike): in call order, as results come, with a note that the ids did
// not tell them apart; an id reused for a new call after the earlier one
// was answered (τ-bench) links to the new call, without a note.
func TestSharedCallIDs(t *testing.T) {
	tests := []struct {
		name, format, input string
		outputs             []string // each call's output, in call order
		note                bool
	}{
		{"parallel calls, one id", "openai_chat",
			`[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get","arguments":"{\"city\":\"Paris\"}"}},{"id":"c1","type":"function","function":{"name":"get","arguments":"{\"city\":\"Rome\"}"}}]},
			{"role":"tool","tool_call_id":"c1","content":"paris"},{"role":"tool","tool_call_id":"c1","content":"rome"}]`,
			[]string{"paris", "rome"}, true},
		{"three parallel calls, one id", "anthropic_messages",
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"a","input":{}},{"type":"tool_use","id":"t","name":"b","input":{}},{"type":"tool_use","id":"t","name":"c","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"A"},{"type":"tool_result","tool_use_id":"t","content":"B"},{"type":"tool_result","tool_use_id":"t","content":"C"}]}]}`,
			[]string{"A", "B", "C"}, true},
		{"id reused after its call was answered", "openai_chat",
			`[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"first"},
			{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"second"}]`,
			[]string{"first", "second"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), tt.format)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range tr.Calls {
				s, _ := c.Output.(string)
				got = append(got, s)
			}
			if !slices.Equal(got, tt.outputs) {
				t.Errorf("outputs %q, want %q", got, tt.outputs)
			}
			noted := slices.ContainsFunc(tr.Warnings(), func(w string) bool { return strings.Contains(w, "share the id") })
			if noted != tt.note {
				t.Errorf("a note on the shared id: %v, want %v (warnings %q)", noted, tt.note, tr.Warnings())
			}
		})
	}
}
