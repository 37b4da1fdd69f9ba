package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestDidYouMean: an unknown command or format names the one likely
// meant.
func TestDidYouMean(t *testing.T) {
	tools := "../../examples/mcp-schema/tools.json"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"evaluate", "cases.jsonl"}, `unknown command "evaluate"; did you mean toolgrade eval?`},
		{[]string{"extarct"}, `unknown command "extarct"; did you mean toolgrade extract?`},
		{[]string{"frobnicate"}, `unknown command "frobnicate" (toolgrade help lists the commands: `},
		{[]string{"extract", "--format", "antropic", "x.json"}, `unknown --format "antropic"; did you mean anthropic_messages?`},
		{[]string{"extract", "--format", "claude", "x.json"}, `did you mean claude_agent_sdk, claude_code or claude_code_stream_json?`},
		{[]string{"tools", "--format", "antropic", tools}, `unknown tool shape "antropic"; did you mean anthropic?`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := run(t, "", tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}

// TestMetricHelpListsEveryMetric: --metric's help names every metric
// the config knows, and --profile's every profile.
func TestMetricHelpListsEveryMetric(t *testing.T) {
	_, out, _ := run(t, "", "help", "eval")
	help := strings.Join(strings.Fields(out), " ")
	for _, name := range append(config.Metrics(), "tool_process", "state_match", "grounding", "execution_success") {
		if !strings.Contains(help, name) {
			t.Errorf("toolgrade help eval does not name the metric %s", name)
		}
	}
	for _, name := range config.Profiles() {
		if !strings.Contains(help, name) {
			t.Errorf("toolgrade help eval does not name the profile %s", name)
		}
	}
}

// TestEvalNamesATraceAsExtractDoes: a Claude Code session given to eval
// as cases is named claude_code, as extract names it, not openai_chat.
func TestEvalNamesATraceAsExtractDoes(t *testing.T) {
	session := "../../trace/testdata/claude_code/agenthistory_real_session_01.jsonl"
	if _, out, _ := run(t, "", "extract", session); !strings.Contains(out, `"format": "claude_code"`) {
		t.Fatalf("extract: %s", out)
	}
	code, out, _ := run(t, "", "eval", session)
	if code != 1 || !strings.Contains(out, "a trace (claude_code format), not a case") || strings.Contains(out, "openai_chat") {
		t.Errorf("eval of a Claude Code session: exit %d:\n%s", code, out)
	}
}

// TestReasonShowsTheRule: a missing call expected by a rule shows the
// rule in its reason, not run_sql({}).
func TestReasonShowsTheRule(t *testing.T) {
	cases := writeFile(t, "sql.jsonl", `{"id":"sql","tools_called":[{"name":"run_sql","args":{"query":"SELECT 1"}}],`+
		`"expected_tools":[{"name":"run_sql","args":{},"rules":{"query":{"regex":"(?i)count"}}},{"name":"send_email","args":{"to":"bo@example.com"},"rules":{"subject":{"type":"string"},"body":{"ignore":true}}}]}`+"\n")
	code, out, _ := run(t, "", "eval", cases)
	for _, want := range []string{
		`missing run_sql({\"query\":/(?i)count/}) (expected #0)`,
		`missing send_email({\"to\":\"bo@example.com\",\"subject\":<string>}) (expected #1)`,
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the reason lacks %s:\n%s", code, want, out)
		}
	}
}

// TestStateReadmeQuotesItsOutput: each diff object the state example's
// README quotes is one the example's results hold, member for member.
func TestStateReadmeQuotesItsOutput(t *testing.T) {
	readme := read(t, "../../examples/state/README.md")
	quoted := regexp.MustCompile("`(\\{\"path\": [^`]*\\})`").FindAllStringSubmatch(readme, -1)
	if len(quoted) == 0 {
		t.Fatal("the README quotes no diff")
	}
	_, out, stderr := run(t, "", "eval", "--config", "../../examples/state/toolgrade.yaml", "../../examples/state/cases.jsonl")
	var diffs []any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		v, err := jsonvalue.ParseString(line)
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		metrics, _ := v.(jsonvalue.Object).Get("metrics")
		for _, m := range metrics.([]any) {
			if d, ok := m.(jsonvalue.Object).Get("diffs"); ok {
				diffs = append(diffs, d.([]any)...)
			}
		}
	}
	for _, q := range quoted {
		want, err := jsonvalue.ParseString(q[1])
		if err != nil {
			t.Fatalf("the README's %s: %v", q[1], err)
		}
		if !slices.ContainsFunc(diffs, func(d any) bool { return jsonvalue.Equal(d, want) }) {
			t.Errorf("the README quotes %s, which no result holds", q[1])
		}
	}
}
