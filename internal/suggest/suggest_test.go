package suggest

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"tools_called", "expected_tools", "input", "id", "tools", "evaluation_params"}
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"tool_called", "tools_called", true},
		{"expected_tool", "expected_tools", true},
		{"toolsCalled", "tools_called", true},
		{"Expected-Tools", "expected_tools", true},
		{"imput", "input", true},
		{"inptu", "input", true},
		{"ids", "", false},
		{"ID", "id", true},
		{"category", "", false},
		{"metadata", "", false},
		{"evaluation_param", "evaluation_params", true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := Nearest(tc.in, names)
			if ok != tc.ok || ok && got != tc.want {
				t.Errorf("Nearest(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"tool", "tools", 1}} {
		if got := Distance(tc.a, tc.b); got != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

func TestMeant(t *testing.T) {
	formats := []string{"anthropic_messages", "claude_agent_sdk", "claude_code", "claude_code_stream_json", "openai_chat", "mcp"}
	commands := []string{"eval", "extract", "compare", "init", "run", "serve", "version"}
	for _, tc := range []struct {
		in    string
		names []string
		want  string
	}{
		{"antropic", formats, "anthropic_messages"},
		{"anthropic", formats, "anthropic_messages"},
		{"claude", formats, "claude_agent_sdk, claude_code or claude_code_stream_json"},
		{"openai_caht", formats, "openai_chat"},
		{"mpc", formats, ""}, // too short to guess
		{"langchain", formats, ""},
		{"evaluate", commands, "eval"},
		{"evl", commands, ""},
		{"extarct", commands, "extract"},
		{"ext", commands, "extract"},
		{"versoin", commands, "version"},
		{"grade", commands, ""},
	} {
		if got := Or(Meant(tc.in, tc.names)); got != tc.want {
			t.Errorf("Meant(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
