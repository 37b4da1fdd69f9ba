package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
)

var update = flag.Bool("update", false, "rewrite golden files")

// run runs the program in-process and returns its exit code, stdout and
// stderr.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runReading(t, strings.NewReader(stdin), args...)
}

// runReading is run with standard input read from stdin.
func runReading(t *testing.T, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	m := &Main{Stdin: stdin, Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	err := m.Run(context.Background(), args)
	code := 0
	if err != nil {
		var exit *ExitError
		if errors.As(err, &exit) {
			code = exit.Code
			if exit.Err != nil {
				errOut.WriteString(exit.Err.Error())
			}
		} else {
			code = 2
			errOut.WriteString(err.Error())
		}
	}
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	passing = `{"id":"p","tools_called":[{"name":"f","args":{"a":1}}],"expected_tools":[{"name":"f","args":{"a":1.0}}]}` + "\n"
	failing = `{"id":"f","tools_called":[{"name":"g"}],"expected_tools":[{"name":"f"}]}` + "\n"
)

func TestEvalExampleGolden(t *testing.T) {
	code, out, stderr := run(t, "", "eval", "--config", "../../examples/agent/toolgrade.yaml", "../../examples/agent/cases.jsonl")
	if code != 1 {
		t.Errorf("exit code %d, want 1 (the example has failing cases); stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "21 cases: ") {
		t.Errorf("summary missing from stderr: %s", stderr)
	}
	checkGolden(t, "examples_agent.golden.jsonl", out)
}

// checkGolden compares got with testdata/name, which go test -update
// rewrites.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n%s", golden, lineDiff(string(want), got))
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n- " + wl + "\n+ " + gl + "\n")
			if b.Len() > 4000 {
				break
			}
		}
	}
	return b.String()
}

func TestEvalExitCodes(t *testing.T) {
	good := writeFile(t, "good.jsonl", passing+passing)
	bad := writeFile(t, "bad.jsonl", passing+failing)
	badConfig := writeFile(t, "c.yaml", "metrics:\n  - profile: default\n    order: sideways\n")
	tests := []struct {
		name     string
		args     []string
		want     int
		errorHas string
	}{
		{"all pass", []string{"eval", good}, 0, ""},
		{"a case fails", []string{"eval", bad}, 1, ""},
		{"exit-zero", []string{"eval", "--exit-zero", bad}, 0, ""},
		{"missing file", []string{"eval", filepath.Join(t.TempDir(), "nope.jsonl")}, 2, "no such file"},
		{"no cases given", []string{"eval"}, 2, "no cases"},
		{"unknown flag", []string{"eval", "--colour=red", good}, 2, "unknown flag --colour (toolgrade help eval lists the flags)"},
		{"unknown shorthand flag", []string{"eval", "-qz", good}, 2, "unknown shorthand flag: 'z' in -z (toolgrade help eval lists the flags)"},
		{"bad option value", []string{"eval", "--order", "sideways", good}, 2, `unknown value "sideways"`},
		{"bad config", []string{"eval", "--config", badConfig, good}, 2, "metrics[0]"},
		{"unknown profile", []string{"eval", "--profile", "nosuchpeer", good}, 2, `unknown profile "nosuchpeer"`},
		{"flag overrides config threshold", []string{"eval", "--threshold", "0", bad}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, "", tt.args...)
			if code != tt.want {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.want, stderr)
			}
			if !strings.Contains(stderr, tt.errorHas) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.errorHas)
			}
		})
	}
}

func TestEvalMalformedLinesAreResults(t *testing.T) {
	in := writeFile(t, "mixed.jsonl", passing+"{\"id\": \"broken\", \n"+failing+`{"id":"x","expected_tools":[{"args":{}}]}`+"\n")
	code, out, _ := run(t, "", "eval", in)
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d result lines, want one per input line:\n%s", len(lines), out)
	}
	for i, want := range []string{"", "mixed.jsonl:2:", "", "mixed.jsonl:4: field expected_tools[0].name: missing"} {
		r, err := toolgrade.ParseResult([]byte(lines[i]))
		if err != nil {
			t.Fatal(err)
		}
		if want == "" {
			if r.Error != "" {
				t.Errorf("line %d: unexpected error %s", i+1, r.Error)
			}
			continue
		}
		if !strings.Contains(r.Error, want) || r.Metrics[0].Error == "" {
			t.Errorf("line %d: error %q, want it to contain %q", i+1, r.Error, want)
		}
	}
}

// A call without a name is data to a profile that reads the calls as
// written (evalite), and an error for a metric that reads them as
// toolgrade's, alone or beside it.
func TestEvalCallsReadAsWritten(t *testing.T) {
	in := writeFile(t, "nameless.jsonl", `{"id":"n","tools_called":[{"args":{}}],"expected_tools":[{"args":{}}]}`+"\n")
	nameless := in + ":1: field tools_called[0].name: missing"
	tests := []struct {
		args  []string
		error string
	}{
		{[]string{"--profile", "evalite"}, ""},
		{nil, nameless},
		{[]string{"--config", writeFile(t, "c.yaml", "metrics:\n  - profile: evalite\n  - profile: axion\n")}, nameless},
	}
	for _, tt := range tests {
		_, out, _ := run(t, "", append(append([]string{"eval", "--quiet", "--exit-zero"}, tt.args...), in)...)
		r, err := toolgrade.ParseResult([]byte(out))
		if err != nil {
			t.Fatal(err)
		}
		if r.Error != tt.error || r.Metrics[0].Error != tt.error {
			t.Errorf("%v: result %s, want error %q", tt.args, out, tt.error)
		}
	}
}

func TestEvalStdinAndOut(t *testing.T) {
	outFile := filepath.Join(t.TempDir(), "results.jsonl")
	code, stdout, stderr := run(t, passing+failing, "eval", "--quiet", "--out", outFile, "-")
	if code != 1 || stdout != "" || stderr != "" {
		t.Errorf("code %d, stdout %q, stderr %q; want 1 and nothing printed", code, stdout, stderr)
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("--out holds %d lines, want 2", n)
	}
}

func TestEvalFlagsMirrorConfig(t *testing.T) {
	partial := `{"id":"p","tools_called":[{"name":"f","args":{"a":1,"b":2}}],"expected_tools":[{"name":"f","args":{"a":1,"b":3}}]}` + "\n"
	in := writeFile(t, "p.jsonl", partial)
	cfg := writeFile(t, "c.yaml", "metrics:\n  - args: partial\n    threshold: 0.4\n")
	_, out, _ := run(t, "", "eval", "--config", cfg, in)
	if !strings.Contains(out, `"score":0.5,"success":true,"threshold":0.4`) {
		t.Errorf("config not applied: %s", out)
	}
	_, out, _ = run(t, "", "eval", "--config", cfg, "--args", "exact", in)
	if !strings.Contains(out, `"score":0,"success":false,"threshold":0.4`) {
		t.Errorf("--args did not override the config: %s", out)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "toolgrade ") {
		t.Errorf("version: code %d, output %q", code, out)
	}
}

// A case that sets a field no metric of the run reads is told so in its
// result; a metric that reads it takes the warning away.
func TestEvalFieldsNotGraded(t *testing.T) {
	cases := writeFile(t, "cases.jsonl", `{"id":"c","tools_called":[{"name":"f"}],"expected_tools":[{"name":"f"}],"process":["no_repeat"],"final_state":{"a":1}}`+"\n")
	tests := []struct {
		name   string
		args   []string
		warned []string
	}{
		{"default metric", nil, []string{
			"field process is not graded: no metric checks process rules (add a metric entry with metric: tool_process)",
			"field final_state is not graded: no metric compares states (add a metric entry with metric: state_match)"}},
		{"process rules checked", []string{"--config", writeFile(t, "c.yaml", "metrics:\n  - profile: axion\n  - metric: tool_process\n")}, []string{
			"field final_state is not graded: no metric compares states (add a metric entry with metric: state_match)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, stderr := run(t, "", append(append([]string{"eval", "--exit-zero", "--quiet"}, tt.args...), cases)...)
			for _, w := range tt.warned {
				if !strings.Contains(out, strconv.Quote(w)) {
					t.Errorf("no warning %q in %s%s", w, out, stderr)
				}
			}
			if n := strings.Count(out, "is not graded"); n != len(tt.warned) {
				t.Errorf("%d warnings, want %d: %s", n, len(tt.warned), out)
			}
		})
	}
}
