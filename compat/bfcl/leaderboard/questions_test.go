package leaderboard_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/runner"
)

const factorialDoc = `[{"name": "math.factorial", "description": "d", "parameters": {"type": "dict", "properties": {"number": {"type": "integer"}}, "required": ["number"]}}]`

func TestPrompt(t *testing.T) {
	run := []toolgrade.Tool{{Name: "the_runs_tool"}}
	tests := []struct {
		name     string
		entry    string
		question bool
		msgs     string // the messages sent, as JSON
		tools    string // the tools' names
		err      string
	}{
		{"single turn", `{"id": "simple_python_1", "question": [[{"role": "system", "content": "s"}, {"role": "user", "content": "5!?"}]], "function": ` + factorialDoc + `}`,
			true, `[{"role":"system","content":"s"},{"role":"user","content":"5!?"}]`, "math.factorial", ""},
		{"null function: the run's tools", `{"id": "x_1", "question": [[{"role": "user", "content": "hi"}]], "function": null}`,
			true, `[{"role":"user","content":"hi"}]`, "the_runs_tool", ""},
		{"empty turn", `{"id": "x_1", "question": [[]], "function": []}`, true, `[]`, "", ""},
		{"a case with input", `{"id": "c", "input": "hi", "question": [], "function": []}`, false, "null", "", ""},
		{"a case", `{"id": "c", "input": "hi"}`, false, "null", "", ""},
		{"multi-turn", `{"id": "multi_turn_base_0", "question": [[{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]], "function": []}`,
			true, "", "", "field question: 2 turns: BFCL's multi-turn entries need its executable functions; toolgrade run sends single-turn entries only"},
		{"question not a list", `{"id": "x_1", "question": "hi", "function": []}`, true, "", "", "field question: want a list of turns, got string"},
		{"no turns", `{"id": "x_1", "question": [], "function": []}`, true, "", "", "field question: want a list of turns, got array"},
		{"turn not messages", `{"id": "x_1", "question": [["hi"]], "function": []}`, true, "", "", "field question[0]: want a list of chat messages"},
		{"bad function docs", `{"id": "x_1", "question": [[{"role": "user", "content": "hi"}]], "function": "f"}`, true, "", "", "field function"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := conformance.ParseCase(t, tt.entry)
			var h leaderboard.Harness
			msgs, tools, ok, err := h.Prompt(c, run)
			if ok != tt.question {
				t.Errorf("ok %v, want %v", ok, tt.question)
			}
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools {
				names = append(names, tool.Name)
			}
			if got := string(jsonvalue.Append(nil, msgs)); (msgs != nil || tt.msgs != "null") && got != tt.msgs {
				t.Errorf("messages %s, want %s", got, tt.msgs)
			}
			if got := strings.Join(names, " "); got != tt.tools {
				t.Errorf("tools %q, want %q", got, tt.tools)
			}
		})
	}
}

// TestOwn checks which datasets the harness takes: BFCL question files,
// by name or by the shape of their first entry, all or none.
func TestOwn(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_simple_python.json": question("simple_python_0", "x"),
		"BFCL_v3_empty.json":         "",
		"mine.jsonl":                 "\n\n" + question("simple_python_0", "x"),
		"cases.jsonl":                `{"id": "c", "input": "hi"}` + "\n" + question("simple_python_0", "x"),
		"blank.jsonl":                "\n \n",
		"broken.jsonl":               `{"question": [], "function": [`,
	})
	path := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		paths []string
		want  bool
		err   bool
	}{
		{[]string{path("BFCL_v4_simple_python.json")}, true, false},
		{[]string{path("BFCL_v3_empty.json"), path("mine.jsonl")}, true, false}, // by name, by shape
		{[]string{path("cases.jsonl")}, false, false},                           // the first entry decides
		{[]string{path("blank.jsonl"), path("broken.jsonl"), path("missing.jsonl"), "-"}, false, false},
		{[]string{path("mine.jsonl"), path("cases.jsonl")}, false, true},
		{[]string{path("mine.jsonl"), "-"}, false, true},
		{nil, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.paths), func(t *testing.T) {
			got, err := (&leaderboard.Harness{}).Own(tt.paths)
			if got != tt.want || (err != nil) != tt.err {
				t.Errorf("%v, %v; want %v, error %v", got, err, tt.want, tt.err)
			}
			if forced, err := (&leaderboard.Harness{Questions: true}).Own(tt.paths); !forced || err != nil {
				t.Errorf("with Questions: %v, %v; want true", forced, err)
			}
			if err != nil && err.Error() != "BFCL question files and other datasets cannot be run together" {
				t.Errorf("error %v", err)
			}
		})
	}
}

// scripted is a model that answers each request with a reply chosen by
// the text of its first user message.
type scripted map[string]string

func (s scripted) Complete(_ context.Context, body []byte) (*runner.Reply, error) {
	v, err := jsonvalue.Parse(body)
	if err != nil {
		return nil, err
	}
	msgs, _ := v.(jsonvalue.Object).Get("messages")
	for _, m := range msgs.([]any) {
		mo := m.(jsonvalue.Object)
		if role, _ := mo.Get("role"); role == "user" {
			content, _ := mo.Get("content")
			if msg, ok := s[fmt.Sprint(content)]; ok {
				return &runner.Reply{Body: []byte(`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":` + msg +
					`,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)}, nil
			}
			break
		}
	}
	return nil, fmt.Errorf("no reply for %s", body)
}

// TestRunQuestions puts BFCL question entries through the runner with
// the harness's Prompt: dotted function names are sent as OpenAI accepts
// them and the calls mapped back, and each answer is a result-file line.
func TestRunQuestions(t *testing.T) {
	model := scripted{
		"Factorial of 5?": `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"math_factorial","arguments":"{\"number\": 5}"}}]}`,
		"Say hi":          `{"role":"assistant","content":"hi"}`,
	}
	r, err := runner.New(model, runner.Options{Model: "m", Prompt: (&leaderboard.Harness{}).Prompt})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, entry, line string
	}{
		{"calls mapped back", `{"id": "simple_python_1", "question": [[{"role": "user", "content": "Factorial of 5?"}]], "function": ` + factorialDoc + `}`,
			`{"id":"simple_python_1","result":[{"math.factorial":{"number":5}}],"input_token_count":10,"output_token_count":5,"latency":`},
		{"text", `{"id": "irrelevance_1", "question": [[{"role": "user", "content": "Say hi"}]], "function": ` + factorialDoc + `}`,
			`{"id":"irrelevance_1","result":"hi","input_token_count":10,"output_token_count":5,"latency":`},
		{"multi-turn", `{"id": "multi_turn_base_0", "question": [[{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]], "function": []}`,
			`{"id":"multi_turn_base_0","result":"Error during inference: field question: 2 turns: BFCL's multi-turn entries need its executable functions; toolgrade run sends single-turn entries only","input_token_count":0,"output_token_count":0,"latency":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := r.Case(context.Background(), conformance.ParseCase(t, tt.entry))
			a := leaderboard.Answer{ID: run.ID, Calls: run.Calls, Text: run.Text, Error: run.Error, Usage: run.Usage, Latency: run.Latency}
			if got := string(a.AppendJSON(nil)); !strings.HasPrefix(got, tt.line) {
				t.Errorf("result line %s\nwant %s...", got, tt.line)
			}
		})
	}
}
