package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// byMeaning compares values of the model regardless of key order, numbers
// by value.
var byMeaning = cmp.Options{
	cmp.Transformer("object", func(o jsonvalue.Object) map[string]any {
		m := make(map[string]any, len(o))
		for _, e := range o {
			m[e.Key] = e.Value
		}
		return m
	}),
	cmp.Comparer(func(a, b json.Number) bool { return jsonvalue.CompareNumbers(a, b) == 0 }),
}

func TestExtractFixtures(t *testing.T) {
	for _, f := range []struct{ dir, input, expected, force, turns string }{
		{"anthropic_messages", "parallel_tool_use_stream.sse", "parallel_tool_use_stream.expected.json", "", ""},
		{"mcp", "spec_2025_06_18_tools_call.jsonl", "spec_2025_06_18_tools_call.expected.json", "", ""},
		{"hermes", "chatml_stock_fundamentals.txt", "chatml_stock_fundamentals.expected.json", "", ""},
		{"bfcl", "possible_answer.multi_turn_base_0.json", "possible_answer.multi_turn_base_0.expected.json", "bfcl", "1 1 1 2 2 3 4 4 4 4"},
		{"tau_bench", "gpt-4o-airline.task00.trial0.json", "gpt-4o-airline.task00.trial0.expected.json", "tau_bench", "3 3 4 5 6 6 6 7"},
	} {
		t.Run(f.dir+"/"+f.input, func(t *testing.T) {
			args := []string{"extract", shared.Path(t, "fixtures", "traces", f.dir, f.input)}
			if f.force != "" {
				args = append(args, "--format", f.force)
			}
			code, out, stderr := run(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(out, "\n  \"calls\": [") || !strings.HasSuffix(out, "}\n") {
				t.Errorf("output is not indented JSON ending in a newline:\n%s", out)
			}
			got, err := jsonvalue.ParseString(out)
			if err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			data, err := os.ReadFile(shared.Path(t, "fixtures", "traces", f.dir, f.expected))
			if err != nil {
				t.Fatal(err)
			}
			want, err := jsonvalue.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			// The shared fixtures predate the calls' "status" and "turn"
			// and cannot be edited: compare without them, and check the
			// turns on their own.
			var turns []string
			calls, _ := got.(jsonvalue.Object).Get("calls")
			for i, c := range calls.([]any) {
				o := c.(jsonvalue.Object)
				kept := make(jsonvalue.Object, 0, len(o))
				for _, m := range o {
					switch m.Key {
					case "turn":
						turns = append(turns, jsonvalue.Format(m.Value))
					case "status":
					default:
						kept = append(kept, m)
					}
				}
				calls.([]any)[i] = kept
			}
			if diff := cmp.Diff(want, got, byMeaning); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(f.turns, strings.Join(turns, " ")); diff != "" {
				t.Errorf("turns (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtract(t *testing.T) {
	chat := `[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\": 1"}}]}]`
	tests := []struct {
		name     string
		stdin    string
		args     []string
		code     int
		out, err string // substrings of stdout and stderr
	}{
		{"stdin", chat, []string{"extract", "-"}, 0, `"args_raw": "{\"a\": 1"`, ""},
		{"forced format", "f(a=1)", []string{"extract", "--format", "pythonic", "-"}, 0, `"format": "pythonic"`, ""},
		{"garbage", "\x00\x01 not a trace", []string{"extract", "-"}, 2, "", "-: binary data (it starts with a NUL byte), not UTF-8 text: give a text file"},
		{"text garbage", "not a trace", []string{"extract", "-"}, 2, "", "-: unrecognized trace: text starting"},
		{"unknown shape", `{"foo": 1}`, []string{"extract", "-"}, 2, "", `unrecognized trace: a JSON object with keys "foo"`},
		{"bad JSON", `{"messages": [`, []string{"extract", "-"}, 2, "", "invalid JSON at line 1"},
		{"unknown format", chat, []string{"extract", "-f", "nope", "-"}, 2, "", `unknown --format "nope" (want one of adk_`},
		{"wrong format", chat, []string{"extract", "--format", "gemini", "-"}, 2, "", "gemini: want a generateContent"},
		{"missing file", "", []string{"extract", "/nonexistent/trace.json"}, 2, "", "no such file"},
		{"no file", "", []string{"extract"}, 2, "", "extract: give a trace file, or - for standard input"},
		{"a call the reader did not read", `{"messages":[{"role":"user","content":"hi"}],"debug":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}}`,
			[]string{"extract", "-"}, 1, `"format": "openai_chat"`, "-: 1 call-shaped object not read as openai_chat (the calls above may be short; --format generic reads call-shaped objects in document order):\n  debug.choices[0].message.tool_calls[0]: tool_calls entry \"f\"\n"},
		{"unknown shape with calls", `{"steps":[{"call":{"tool":"f","args":{}}}]}`, []string{"extract", "-"}, 2, "",
			`it holds 1 call-shaped object, steps[0].call (object with "tool" and "args" "f"); --format generic reads them in document order`},
		{"records of a file", `{"id": "p0", "result": [{"f": "{}"}]}` + "\n" + `{"id": "p1", "result": "Error during inference: timeout"}`,
			[]string{"extract", "-"}, 0, `"records": [
    {
      "id": "p0",
      "calls": [
        {
          "name": "f",`, "-: skipped 1 item not understood as bfcl_result:\n  line 2 result: failed inference"},
		{"generic", `{"steps":[{"call":{"tool":"f","args":{"a":1}}}]}`, []string{"extract", "--format", "generic", "-"}, 0, `"name": "f"`,
			"-: calls read by shape (--format generic)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := run(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr: %s)", code, tt.code, stderr)
			}
			if !strings.Contains(out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
			if !strings.Contains(stderr, tt.err) {
				t.Errorf("stderr lacks %q:\n%s", tt.err, stderr)
			}
			if tt.code == 2 && out != "" {
				t.Errorf("stdout on failure: %s", out)
			}
		})
	}
}

func TestExtractFile(t *testing.T) {
	p := writeFile(t, "trace.jsonl", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":{}}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":false}}`+"\n")
	code, out, stderr := run(t, "", "extract", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `{
  "format": "mcp",
  "calls": [
    {
      "name": "f",
      "args": {},
      "id": "1",
      "output": {
        "content": [],
        "isError": false
      }
    }
  ]
}
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestExtractSkipped checks extract's report of the items a reader did not
// understand: on stderr, naming the file, how many, the format, and each
// item's place and kind, while the calls around them still print and the
// exit status stays 0.
func TestExtractSkipped(t *testing.T) {
	claude := "{\"type\":\"assistant\",\"uuid\":\"a\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]}}\n" +
		"{\"type\":\"brand-new\",\"uuid\":\"b\"}\n" +
		"{\"type\":\"user\",\"uuid\":\"c\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"ok\"}]}}\n"
	chat := `[{"role":"critic","content":"x"},{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"oracle","content":"y"}]`
	tests := []struct {
		name, file, input string
		args              []string
		out               string
		stderr            []string
	}{
		{"one item", "session.jsonl", claude, nil, `"name": "Bash"`, []string{
			"session.jsonl: skipped 1 item not understood as claude_code:\n",
			"  line 2: record of type \"brand-new\"\n",
		}},
		{"one item, forced", "session.jsonl", claude, []string{"--format", "claude_code"}, `"output": "ok"`, []string{
			"skipped 1 item not understood as claude_code:\n",
		}},
		{"two items", "chat.json", chat, nil, `"name": "f"`, []string{
			"chat.json: skipped 2 items not understood as openai_chat:\n",
			"  [0]: message with role \"critic\"\n",
			"  [2]: message with role \"oracle\"\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, tt.file, tt.input)
			code, out, stderr := run(t, "", append(append([]string{"extract"}, tt.args...), p)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
			if !strings.HasPrefix(stderr, "toolgrade: "+p+": ") {
				t.Errorf("stderr does not start with the file's name:\n%s", stderr)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
	t.Run("nothing skipped", func(t *testing.T) {
		p := writeFile(t, "chat.json", `[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}]`)
		if code, _, stderr := run(t, "", "extract", p); code != 0 || stderr != "" {
			t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
		}
	})
}
