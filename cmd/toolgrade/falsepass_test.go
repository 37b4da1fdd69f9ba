package main

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// TestFalsePasses: input that reads one way to a person and another to a
// reader used to pass, or to pass as something else. Each, and others of
// its kind a hostile user would try, is now a clear error or a right
// answer: never a pass.
func TestFalsePasses(t *testing.T) {
	// One case a line: an expected call whose arguments are written
	// somehow, and the agent's call with other arguments.
	wrongCity := func(expected string) string {
		return `{"id":"c","tools_called":[{"name":"get_weather","args":{"city":"Paris"}}],"expected_tools":[` + expected + `]}` + "\n"
	}
	args := func(expectedArgs, calledArgs string) string {
		return `{"id":"c","tools_called":[{"name":"f","args":` + calledArgs + `}],"expected_tools":[{"name":"f","args":` + expectedArgs + `}]}` + "\n"
	}
	tools := writeFile(t, "tools.json", `[{"name":"confirm"},{"name":"cancel_order"},{"name":"get_order"}]`)
	rules := writeFile(t, "rules.yaml", "metrics:\n  - metric: tool_process\n    rules:\n      - before: [confirm, cancl_order]\n")
	processCases := `{"id":"p","tools_called":[{"name":"get_order"},{"name":"cancel_order"}]}` + "\n"
	tests := []struct {
		name  string
		file  string // the file's name, for its format
		cases string
		args  []string
		code  int
		want  []string // in stdout + stderr
	}{
		// Arguments under a key no format gives them.
		{name: "params", cases: wrongCity(`{"name":"get_weather","params":{"city":"Berlin"}}`), code: 1,
			want: []string{`field expected_tools[0].params: not a field of a call; if it gives the call's arguments, name them "args"`, "0 passed"}},
		{name: "kwargs", cases: wrongCity(`{"name":"get_weather","kwargs":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].kwargs: not a field of a call"}},
		{name: "tool_input", cases: wrongCity(`{"name":"get_weather","tool_input":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].tool_input: not a field of a call"}},
		{name: "input_params", cases: wrongCity(`{"name":"get_weather","input_params":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].input_params: not a field of a call"}},
		{name: "function_args", cases: wrongCity(`{"name":"get_weather","function_args":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].function_args: not a field of a call"}},
		{name: "toolInput", cases: wrongCity(`{"name":"get_weather","toolInput":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].toolInput: not a field of a call"}},
		{name: "argument", cases: wrongCity(`{"name":"get_weather","argument":"{\"city\":\"Berlin\"}"}`), code: 1, want: []string{"expected_tools[0].argument: not a field of a call"}},
		{name: "Args", cases: wrongCity(`{"name":"get_weather","Args":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].Args: not a field of a call"}},
		{name: "payload", cases: wrongCity(`{"name":"get_weather","payload":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].payload: not a field of a call"}},
		{name: "a key with a space", cases: wrongCity(`{"name":"get_weather","args ":{"city":"Berlin"}}`), code: 1, want: []string{"expected_tools[0].args : not a field of a call"}},
		{name: "params with --strict-fields", cases: wrongCity(`{"name":"get_weather","params":{"city":"Berlin"}}`), args: []string{"--strict-fields"}, code: 1, want: []string{"expected_tools[0].params: not a field of a call"}},
		{name: "the agent's arguments under another key", cases: `{"id":"c","tools_called":[{"name":"get_weather","params":{"city":"Berlin"}}],"expected_tools":[{"name":"get_weather","args":{"city":"Berlin"}}]}` + "\n",
			code: 1, want: []string{"tools_called[0].params: not a field of a call"}},
		{name: "OpenAI's shape with a definition's parameters", cases: wrongCity(`{"type":"function","function":{"name":"get_weather","parameters":{"city":"Berlin"}}}`), code: 1,
			want: []string{`expected_tools[0].function.parameters: a call's function gives its arguments as "arguments"`}},
		{name: "a tool definition for a call", cases: wrongCity(`{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}`), code: 1,
			want: []string{"expected_tools[0].parameters: a JSON Schema", "this is a tool definition, not a call"}},
		{name: "arguments given twice", cases: wrongCity(`{"name":"get_weather","args":{"city":"Paris"},"arguments":"{\"city\":\"Berlin\"}"}`), code: 1,
			want: []string{`expected_tools[0].arguments: the arguments are given both as "args" and as "arguments"`}},
		// Llama's {name, parameters} is read as Llama writes it.
		{name: "Llama's parameters, other arguments", cases: wrongCity(`{"name":"get_weather","parameters":{"city":"Berlin"}}`), code: 1, want: []string{`city expected "Berlin", got "Paris"`}},
		{name: "Llama's parameters, the same arguments", cases: wrongCity(`{"name":"get_weather","parameters":{"city":"Paris"}}`), code: 0, want: []string{"1 passed"}},

		// Text that is not UTF-8, and lone surrogates.
		{name: "Windows-1252 arguments", cases: args("{\"q\":\"DE\x91\x92\"}", "{\"q\":\"DE\x81\x82\"}"), code: 1,
			want: []string{"cases.jsonl:1:54: invalid JSON: invalid UTF-8 (byte 0x81) in string", "Windows-1252"}},
		{name: "Latin-1 ids", cases: "{\"id\":\"caf\xe9\",\"tools_called\":[],\"expected_tools\":[]}\n{\"id\":\"caf\xe8\",\"tools_called\":[],\"expected_tools\":[]}\n", code: 1,
			want: []string{"cases.jsonl:1:", "cases.jsonl:2:", "invalid UTF-8 (byte 0xe9)", "2 cases: 0 passed, 0 failed, 2 erred"}},
		{name: "a surrogate encoded as UTF-8 bytes", cases: args("\"\xed\xa0\x80\"", "\"\xed\xaf\xbf\""), code: 1, want: []string{"invalid UTF-8 (byte 0xed)"}},
		{name: "an overlong encoding", cases: args("\"\xc0\xa2\"", `"\""`), code: 1, want: []string{"invalid UTF-8 (byte 0xc0)"}},
		{name: "lone surrogates differ", cases: args(`{"q":"\ud800"}`, `{"q":"\udbff"}`), code: 1, want: []string{`q expected "\ud800", got "\udbff"`}},
		{name: "a lone surrogate is no replacement character", cases: args(`{"q":"\ud800"}`, `{"q":"\ufffd"}`), code: 1, want: []string{`q expected "\ud800", got "�"`}},
		{name: "lone surrogates differ, fuzzy", cases: args(`{"q":"\ud800"}`, `{"q":"\udbff"}`), args: []string{"--args", "fuzzy"}, code: 1, want: []string{"similarity 0.00"}},
		{name: "lone surrogates as ids are two cases", cases: `{"id":"\ud800","tools_called":[],"expected_tools":[]}` + "\n" + `{"id":"\udbff","tools_called":[],"expected_tools":[]}` + "\n",
			code: 0, want: []string{"2 cases: 2 passed"}},
		{name: "a surrogate pair is the character", cases: args(`{"q":"\ud83d\ude00"}`, `{"q":"😀"}`), code: 0, want: []string{"1 passed"}},
		{name: "YAML in Latin-1", file: "cases.yaml", cases: "- id: a\n  tools_called: []\n  expected_tools: [{name: f, args: {q: caf\xe9}}]\n", code: 1, want: []string{"cases.yaml:1: invalid YAML"}},

		// Numbers, exactly.
		{name: "1e400 and 2e400", cases: args(`{"n":1e400}`, `{"n":2e400}`), code: 1, want: []string{"n expected 1e400, got 2e400"}},
		{name: "-1E400 and -2e+400", cases: args(`{"n":-1E400}`, `{"n":-2e+400}`), code: 1, want: []string{"n expected -1E400, got -2e+400"}},
		{name: "1e-400 and 0", cases: args(`{"n":1e-400}`, `{"n":0}`), code: 1, want: []string{"n expected 1e-400, got 0"}},
		{name: "0.1 and 0.10000000000000001", cases: args(`{"n":0.1}`, `{"n":0.10000000000000001}`), code: 1, want: []string{"n expected 0.1, got 0.10000000000000001"}},
		{name: "1e400 and 2e400, contains", cases: args(`{"n":1e400}`, `{"n":2e400,"m":1}`), args: []string{"--args", "contains"}, code: 1, want: []string{"n expected 1e400, got 2e400"}},
		{name: "1e400 and 2e400 in a list", cases: args(`{"n":[1e400]}`, `{"n":[2e400]}`), code: 1, want: []string{"0 passed"}},
		{name: "one value spelled two ways", cases: args(`{"n":1e400,"m":0.5}`, `{"n":10E399,"m":5e-1}`), code: 0, want: []string{"1 passed"}},
		{name: "YAML octal", file: "cases.yaml", cases: "- id: a\n  tools_called: [{name: f, args: {zip: 8}}]\n  expected_tools: [{name: f, args: {zip: 010}}]\n", code: 1,
			want: []string{"010 is 8 in YAML 1.1 and 10 in YAML 1.2"}},
		{name: "YAML 1.2 numbers", file: "cases.yaml", cases: "- id: a\n  tools_called: [{name: f, args: {a: 8, b: 16, c: 0.5, d: 1e400}}]\n  expected_tools: [{name: f, args: {a: 0o10, b: 0x10, c: .5, d: 1e400}}]\n", code: 0, want: []string{"1 passed"}},
		{name: "YAML unknown tag", file: "cases.yaml", cases: "- id: a\n  tools_called: []\n  expected_tools: [{name: f, args: !secret {}}]\n", code: 1, want: []string{"unknown tag !secret"}},

		// Keys given twice.
		{name: "a repeated argument", cases: args(`{"city":"Paris","city":"Berlin"}`, `{"city":"Berlin"}`), code: 1, want: []string{`cases.jsonl:1:`, `duplicate key "city"`}},
		{name: "a repeated case field", cases: `{"id":"c","expected_tools":[{"name":"f"}],"tools_called":[],"expected_tools":[]}` + "\n", code: 1, want: []string{`duplicate key "expected_tools"`}},
		{name: "a key repeated with an escape", cases: `{"id":"c","tools_called":[],"expected_tools":[],"\u0069d":"d"}` + "\n", code: 1, want: []string{`duplicate key "id"`}},
		{name: "a repeated YAML key", file: "cases.yaml", cases: "- id: a\n  tools_called: []\n  expected_tools: [{name: f}]\n  expected_tools: []\n", code: 1,
			want: []string{`cases.yaml:4: duplicate key "expected_tools" in mapping`}},

		// A process rule naming a tool there is not.
		{name: "a rule's tool not among --tools", cases: processCases, args: []string{"--config", rules, "--tools", tools}, code: 1,
			want: []string{`rule before: [confirm, cancl_order] names a tool the case does not know: no tool is named "cancl_order"`, `did you mean "cancel_order"?`}},
		{name: "a case's rule not among its tools", cases: `{"id":"p","tools_called":[{"name":"cancel_order"}],"available_tools":[{"name":"confirm"},{"name":"cancel_order"}],"process":[{"never":"cancel-order"}]}` + "\n",
			args: []string{"--metric", "tool_process"}, code: 1, want: []string{`no tool is named "cancel-order"`, `did you mean "cancel_order"?`}},
		{name: "a rule's glob matching no tool", cases: processCases, args: []string{"--config", writeFile(t, "glob.yaml", "metrics:\n  - metric: tool_process\n    rules:\n      - never: [refund_*]\n"), "--tools", tools},
			code: 1, want: []string{`"refund_*" matches no tool`}},
		{name: "a rule's tools, unchecked", cases: processCases, args: []string{"--config", rules}, code: 0, want: []string{"could not be checked"}},

		// Two cases that share an id.
		{name: "an id shared by two cases", cases: `{"id":"c","input":"Weather in Paris?","tools_called":[{"name":"get_weather","args":{"city":"Paris"}}],"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}` + "\n" +
			`{"id":"c","input":"Book a table","tools_called":[{"name":"book","args":{"n":2}}],"expected_tools":[{"name":"book","args":{"n":2}}]}` + "\n",
			code: 1, want: []string{`id "c" is the id of another case, whose input, expected output or expected calls differ`, "2 trials (2 per case): 1 passed, 0 failed, 1 erred"}},
		{name: "trials of one case", cases: `{"id":"c","trial":1,"tools_called":[{"name":"f","args":{"n":2}}],"expected_tools":[{"name":"f","args":{"n":2}}]}` + "\n" +
			`{"id":"c","trial":2,"tools_called":[{"name":"g"}],"expected_tools":[{"name":"f","args":{"n":2.0}}]}` + "\n",
			code: 1, want: []string{"1 case: 0 passed, 1 failed; 2 trials (2 per case): 1 passed, 1 failed\n", `"trials":2`}},

		// What the case gives must be what it says.
		{name: "a garbage trajectory beside the calls", cases: `{"id":"c","tools_called":[{"name":"f"}],"trajectory":"see the logs","expected_tools":[{"name":"f"}]}` + "\n", code: 1,
			want: []string{"field trajectory: not a trace toolgrade reads (the calls graded are tools_called's)"}},
		{name: "an input of the wrong type", cases: `{"id":"c","input":{"text":"hi"},"tools_called":[],"expected_tools":[]}` + "\n", code: 1, want: []string{"field input: want the user's query"}},
		{name: "available_tools of the wrong type", cases: `{"id":"c","available_tools":"get_weather, send_email","tools_called":[],"expected_tools":[]}` + "\n", code: 1, want: []string{"field available_tools: want tool definitions"}},
		{name: "expected arguments not JSON", cases: `{"id":"c","tools_called":[{"name":"f","args":{"a":1}}],"expected_tools":[{"name":"f","arguments":"{'a': 1}"}]}` + "\n", code: 1,
			want: []string{`field expected_tools[0]: arguments are not valid JSON ("{'a': 1}")`, "1 erred"}},
		{name: "the agent's arguments not JSON", cases: `{"id":"c","tools_called":[{"name":"f","arguments":"{'a': 1}"}],"expected_tools":[{"name":"f","args":{"a":1}}]}` + "\n", code: 1,
			want: []string{"1 case: 0 passed, 1 failed"}},
		{name: "empty tool names", cases: `{"id":"c","tools_called":[{"name":""}],"expected_tools":[{"name":""}]}` + "\n", code: 1, want: []string{"field tools_called[0].name: empty"}},
		{name: "an empty expected name in a trajectory", cases: `{"id":"c","tools_called":[],"expected_trajectory":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"","arguments":"{}"}}]}]}` + "\n",
			code: 1, want: []string{"expected call 1 (): names no tool"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.file
			if name == "" {
				name = "cases.jsonl"
			}
			cases := writeFile(t, name, tt.cases)
			code, stdout, stderr := run(t, "", append(append([]string{"eval"}, tt.args...), cases)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			// Messages are looked for as written, in the result lines' JSON too.
			out := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(stdout + stderr)
			out = strings.ReplaceAll(out, cases, "cases."+name[strings.LastIndexByte(name, '.')+1:])
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q\nstdout: %s\nstderr: %s", w, stdout, stderr)
				}
			}
		})
	}
}

// TestFalsePassConfigs: a config or tools file whose keys repeat, or whose
// YAML another reader reads otherwise, stops the run at the start.
func TestFalsePassConfigs(t *testing.T) {
	cases := writeFile(t, "cases.jsonl", `{"id":"c","tools_called":[{"name":"f"}],"expected_tools":[{"name":"f"}]}`+"\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a repeated YAML key", []string{"--config", writeFile(t, "c.yaml", "metrics:\n  - profile: default\n    threshold: 0.5\n    threshold: 1\n")}, `c.yaml:4: duplicate key "threshold" in mapping`},
		{"a repeated JSON key", []string{"--config", writeFile(t, "c.json", `{"metrics": [{"profile": "default", "args": "exact", "args": "ignore"}]}`)}, `duplicate key "args"`},
		{"a YAML 1.1 number", []string{"--config", writeFile(t, "n.yaml", "workers: 010\n")}, "010 is 8 in YAML 1.1 and 10 in YAML 1.2"},
		{"an unknown tag", []string{"--config", writeFile(t, "t.yaml", "metrics:\n  - profile: !!binary ZGVmYXVsdA==\n")}, "unknown tag !!binary"},
		{"a repeated key in a tools file", []string{"--tools", writeFile(t, "tools.json", `[{"name": "f", "parameters": {"type": "object", "type": "string"}}]`)}, `duplicate key "type"`},
		{"a tools file not UTF-8", []string{"--tools", writeFile(t, "tools.json", "[{\"name\": \"f\", \"description\": \"caf\xe9\"}]")}, "invalid UTF-8 (byte 0xe9)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", append(append([]string{"eval"}, tt.args...), cases)...)
			if code != 2 || !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("exit %d, want 2 and %q\nstdout: %s\nstderr: %s", code, tt.want, stdout, stderr)
			}
		})
	}
}

// TestFalsePassServe: a serve request whose keys repeat is refused, and a
// call's arguments under a key no format uses are an error in its result,
// as in a case file.
func TestFalsePassServe(t *testing.T) {
	stdin := `{"id":1,"op":"evaluate","cases":[{"tools_called":[],"expected_tools":[]}],"cases":[]}` + "\n" +
		`{"id":2,"op":"evaluate","cases":[{"tools_called":[{"name":"get_weather","args":{"city":"Paris"}}],"expected_tools":[{"name":"get_weather","params":{"city":"Berlin"}}]}]}` + "\n"
	code, out, stderr := run(t, stdin, "serve")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("exit %d, %d lines: %s (stderr %s)", code, len(lines), out, stderr)
	}
	if !strings.Contains(lines[0], `duplicate key \"cases\"`) || !strings.Contains(lines[0], `"error"`) {
		t.Errorf("repeated key: %s", lines[0])
	}
	if !strings.Contains(lines[1], `expected_tools[0].params: not a field of a call`) || strings.Contains(lines[1], `"score":1`) {
		t.Errorf("arguments under params: %s", lines[1])
	}
}

// TestFalsePassJudge: a judge reply with two verdicts is an error result,
// not its first verdict.
func TestFalsePassJudge(t *testing.T) {
	srv := judgeServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, "Email Bob") {
			return openaitest.Reply{Content: `{"score": 1, "reason": "fine"} Wait, no: {"score": 0, "reason": "get_weather cannot send email"}`}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "ok"}`}
	}
	cases := writeFile(t, "cases.jsonl", judgedCases)
	code, out, _ := runWithEnv(t, judgeEnv, "", judgeArgs(srv, t.TempDir(), "--metric", "tool_selection", cases)...)
	got := parseResults(t, out)
	if code != 1 || got["right"].Score != 1 || !strings.Contains(got["wrong"].Error, "judge reply has two verdicts") || got["wrong"].Success {
		t.Errorf("exit %d, results %+v", code, got)
	}
}
