package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// TestRunMistakesOfAFirstRun: what a first run gets wrong is said with
// what to do: a base URL without /v1 that answers 404, a case without
// input; and the requests that failed are counted, not "0 requests".
func TestRunMistakesOfAFirstRun(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		return chatBody(callsMessage("get_weather", `{"city":"Paris"}`))
	}
	cases := writeFile(t, "cases.jsonl", `{"id":"weather","input":"Weather in Paris?",`+runTools+`,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`+"\n")
	dir := t.TempDir()
	base := strings.TrimSuffix(srv.BaseURL(), "/v1")
	code, _, stderr := run(t, "", "run", "--model", "m", "--base-url", base, "--no-cache", "--max-retries", "0",
		"--record", filepath.Join(dir, "run.jsonl"), "--out", filepath.Join(dir, "out.jsonl"), cases)
	for _, want := range []string{
		"HTTP 404 Not Found",
		"(the base URL " + base + " has no path: did you mean " + base + "/v1?)",
		"model: 1 cases, 1 requests (1 failed), ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--base-url without /v1: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("--base-url without /v1: exit %d, want 1", code)
	}
	// With /v1 the same run passes, and the hint is nowhere.
	code, _, stderr = run(t, "", "run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache",
		"--record", filepath.Join(dir, "run.jsonl"), "--out", filepath.Join(dir, "out.jsonl"), cases)
	if code != 0 || strings.Contains(stderr, "did you mean") || !strings.Contains(stderr, "model: 1 cases, 1 requests, ") {
		t.Errorf("--base-url with /v1: exit %d:\n%s", code, stderr)
	}

	// The README's walkthrough cases hold their calls and no input.
	walkthrough := writeFile(t, "calls.jsonl", `{"id": "weather", "tools_called": [{"name": "get_weather", "args": {"city": "Paris"}}], "expected_tools": [{"name": "get_weather", "args": {"city": "Paris"}}]}`+"\n")
	code, _, stderr = run(t, "", "run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache",
		"--record", filepath.Join(dir, "run.jsonl"), "--out", filepath.Join(dir, "out.jsonl"), walkthrough)
	if code != 1 || !strings.Contains(stderr, `the case has no input to send: add "input", the user's request (text, content parts or messages); toolgrade eval grades cases that hold their calls`) {
		t.Errorf("run on cases without input: exit %d:\n%s", code, stderr)
	}
}

// TestFakeModelRecording: the recorded runs of the reliability example
// made no processing error (the cases offer their tools), and sql-right,
// whose expected query is a rule, passes as often as a model right 85%
// of the time would let it, not never.
func TestFakeModelRecording(t *testing.T) {
	for _, name := range []string{"agent.fake.run.jsonl", "agent.fake-regressed.run.jsonl"} {
		path := filepath.Join("..", "..", "examples", "reliability", name)
		for i, line := range strings.Split(strings.TrimSpace(read(t, path)), "\n") {
			if at := strings.Index(line, `"processing_errors":[`); at < 0 || strings.HasPrefix(line[at:], `"processing_errors":[{`) {
				t.Errorf("%s:%d: processing errors, or none recorded: %.300s", name, i+1, line[max(at, 0):])
			}
		}
	}
	code, out, stderr := run(t, "", "eval", "--config", "../../examples/agent/toolgrade.yaml", "--quiet", "../../examples/reliability/agent.fake.run.jsonl")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	passed := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, `{"id":"sql-right",`) && strings.Contains(line, `"success":true`) {
			passed++
		}
	}
	if passed < 2 {
		t.Errorf("sql-right passed %d of 5 trials against a model right 85%% of the time", passed)
	}
}
