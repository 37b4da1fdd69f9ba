package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/mcp/mcptest"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

func TestToolsCommand(t *testing.T) {
	t.Parallel()
	everything := mcptest.Everything(t)
	file := writeFile(t, "tools.json", `[{"name": "math.add", "parameters": {"type": "object", "properties": {"a": {}}}}, {"name": "math_add", "description": "Adds"}]`)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"list", []string{"tools", "--mcp", everything}, 0, []string{"echo ", "Echoes back the input string", "get-sum "}, []string{"tools; lint:", "errors,"}},
		{"mcp prefix", []string{"tools", "mcp:" + everything, "--no-lint"}, 0, []string{"get-sum "}, nil},
		{"openai", []string{"tools", "--mcp", everything, "--format", "openai"}, 0, []string{`"type": "function"`, `"name": "get-sum"`}, nil},
		{"gemini", []string{"tools", "--mcp", everything, "--format", "gemini"}, 0, []string{`"functionDeclarations"`, `"parametersJsonSchema"`}, nil},
		{"file lint", []string{"tools", "--lint", file}, 1, []string{
			`error: tool math.add: name: OpenAI, Anthropic reject the name "math.add"`,
			`error: tool math_add: name: collides with "math.add": both are sent as "math_add"`,
			"warning: tool math.add: description: no description",
			"warning: tool math.add: parameters.properties.a: no type",
			"2 errors, 3 warnings"}, nil},
		{"file anthropic", []string{"tools", "--format", "anthropic", "--no-lint", file}, 0, []string{`"input_schema"`}, nil},
		{"bad format", []string{"tools", "--format", "xml", file}, 2, nil, []string{`unknown tool shape "xml"`}},
		{"bad format first", []string{"tools", "--format", "xml", "no-such-file.json"}, 2, nil, []string{`unknown tool shape "xml"`}},
		{"nothing", []string{"tools"}, 2, nil, []string{"name an MCP server with --mcp"}},
		{"no server", []string{"tools", "--mcp", "toolgrade-no-such-server", "--mcp-timeout", "5s"}, 2, nil, []string{"did not start", "toolgrade-no-such-server"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.HasPrefix(strings.TrimSpace(stdout), "[") || strings.HasPrefix(strings.TrimSpace(stdout), "{") {
				var v any
				if err := json.Unmarshal([]byte(stdout), &v); err != nil {
					t.Errorf("stdout is not JSON: %v", err)
				}
			}
		})
	}
}

// The case of the issue: one valid call, one with a bad argument, one to a
// tool the server does not have: execution_success 1/3.
const threeCalls = `{"id": "three", "tools_called": [{"name": "echo", "args": {"message": "hello"}}, {"name": "get-sum", "args": {"a": 2, "b": "three"}}, {"name": "send_email", "args": {"to": "team@example.com"}}]}` + "\n"

func TestEvalExecution(t *testing.T) {
	t.Parallel()
	everything := mcptest.Everything(t)
	cases := writeFile(t, "cases.jsonl", threeCalls)
	source, _ := json.Marshal("mcp:" + everything)
	config := writeFile(t, "config.yaml", "tools: "+string(source)+"\nmetrics:\n  - metric: execution_success\n  - metric: schema\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"execute", []string{"eval", "--metric", "execution_success", "--mcp", everything, "--allow-execute", cases}, 1, []string{
			`"score":0.3333333333333333`,
			`{"call":0,"name":"echo","success":true,"error":null,"output":"Echo: hello"}`,
			`"name":"get-sum","success":false,"error":"MCP error -32602: Input validation error`,
			`{"call":2,"name":"send_email","success":false,"error":"no such tool \"send_email\" on the server","output":null}`,
		}},
		{"config tools", []string{"eval", "--config", config, "--allow-execute", cases}, 1, []string{
			`"name":"execution_success","profile":"default","score":0.3333333333333333`,
			`"name":"schema","profile":"default","score":0.3333333333333333`,
		}},
		{"allow-list", []string{"eval", "--metric", "execution_success", "--mcp", everything, "--allow-execute", "--allow-tools", "echo", cases}, 0, []string{
			`"score":1,`, `"name":"get-sum","success":null,"skipped":"not on the allow-list"`,
		}},
		{"only valid", []string{"eval", "--metric", "execution_success", "--option", "only_valid=true", "--mcp", everything, "--allow-execute", cases}, 1, []string{
			`"error":"not run: arguments do not fit the schema: /b: got string, want number"`,
		}},
		{"deepfabric", []string{"eval", "--profile", "deepfabric", "--option", "execution=mcp", "--mcp", everything, "--allow-execute", cases}, 0, []string{
			`"profile":"deepfabric"`, `execution_success by running the calls on the MCP server (execution: mcp)`, `"executions":[`,
		}},
		{"not allowed", []string{"eval", "--metric", "execution_success", "--mcp", everything, cases}, 2, []string{"pass --allow-execute"}},
		{"no server", []string{"eval", "--metric", "execution_success", "--allow-execute", cases}, 2, []string{"name one with --mcp"}},
		{"two servers", []string{"eval", "--mcp", everything, "--tools", "mcp:other", cases}, 2, []string{"name different servers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q:\n%s\n%s", w, stdout, stderr)
				}
			}
		})
	}
}

// TestRunMCP puts the fake model through a case with the everything
// server's tools: its calls run on the server and the real results go back.
func TestRunMCP(t *testing.T) {
	t.Parallel()
	everything := mcptest.Everything(t)
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		msgs, _ := r.Body["messages"].([]any)
		tools, _ := r.Body["tools"].([]any)
		if len(tools) < 5 {
			return openaitest.Reply{Status: 400, Body: `{"error":{"message":"no tools sent"}}`}
		}
		var fed []string
		for _, m := range msgs {
			if mo, _ := m.(map[string]any); mo["role"] == "tool" {
				fed = append(fed, fmt.Sprint(mo["content"]))
			}
		}
		switch len(fed) {
		case 0:
			return chatBody(callsMessage("echo", `{"message":"hi"}`, "get-sum", `{"a":2,"b":40}`))
		case 2:
			return chatBody(callsMessage("get-sum", `{"a":1}`, "send_email", `{}`))
		}
		return chatBody(fmt.Sprintf(`{"role":"assistant","content":%q}`, "Done: "+strings.Join(fed, " | ")))
	}
	cases := writeFile(t, "ask.jsonl", `{"id":"ask","input":"Echo hi and add 2 and 40","expected_tools":[{"name":"echo","args":{"message":"hi"}},{"name":"get-sum","args":{"a":2,"b":40}}]}`+"\n")
	record := filepath.Join(t.TempDir(), "ask.run.jsonl")
	args := []string{"run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache", "--record", record, "--mcp", everything, "--exit-zero", cases}
	if code, _, stderr := run(t, "", args...); code != 2 || !strings.Contains(stderr, "pass --allow-execute") {
		t.Fatalf("without --allow-execute: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := run(t, "", append(args, "--allow-execute")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	data := read(t, record)
	for _, want := range []string{
		`{"name":"echo","args":{"message":"hi"},"id":"call_1","output":"Echo: hi"}`,
		`{"name":"get-sum","args":{"a":2,"b":40},"id":"call_2","output":"The sum of 2 and 40 is 42."}`,
		`"name":"get-sum","args":{"a":1},"id":"call_1","output":"MCP error -32602`,
		`"name":"send_email","args":{},"id":"call_2","output":"Error: no such tool \"send_email\" on the server","status":"error"}`,
		`"stop":"answered"`,
		`"actual_output":"Done: Echo: hi | The sum of 2 and 40 is 42. | MCP error`,
		`"available_tools":{"tools":[{"name":"echo"`,
	} {
		if !strings.Contains(data, want) {
			t.Errorf("run file lacks %s:\n%s", want, data)
		}
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	// The run file grades offline, against the server's tools it holds.
	code, stdout, stderr = run(t, "", "eval", "--metric", "schema", record)
	if code != 1 || !strings.Contains(stdout, `"reason":"2 of 4 calls valid`) {
		t.Errorf("eval of the run file: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestRunMCPFilesystem runs the filesystem server on a temporary
// directory: the model reads a file through it.
func TestRunMCPFilesystem(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fs := mcptest.Filesystem(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "todo.txt"), []byte("water the plants"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "todo.txt")
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		msgs, _ := r.Body["messages"].([]any)
		if last, _ := msgs[len(msgs)-1].(map[string]any); last["role"] == "tool" {
			return chatBody(fmt.Sprintf(`{"role":"assistant","content":%q}`, "It says: "+fmt.Sprint(last["content"])))
		}
		return chatBody(callsMessage("read_text_file", fmt.Sprintf(`{"path":%q}`, path)))
	}
	cases := writeFile(t, "todo.jsonl", `{"id":"todo","input":"What is in todo.txt?"}`+"\n")
	record := filepath.Join(t.TempDir(), "todo.run.jsonl")
	code, stdout, stderr := run(t, "", "run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache", "--record", record,
		"--mcp", fs, "--allow-execute", "--allow-tools", "read_text_file,list_directory", "--metric", "execution_success", cases)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if data := read(t, record); !strings.Contains(data, `"actual_output":"It says: water the plants"`) {
		t.Errorf("run file:\n%s", data)
	}
	if !strings.Contains(stdout, `"output":{"content":"water the plants"}`) {
		t.Errorf("results:\n%s", stdout)
	}
}
