package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// terminal is standard output as a terminal: a character device.
type terminal struct{ bytes.Buffer }

func (*terminal) Stat() (os.FileInfo, error) { return terminalInfo{}, nil }

type terminalInfo struct{}

func (terminalInfo) Name() string       { return "tty" }
func (terminalInfo) Size() int64        { return 0 }
func (terminalInfo) Mode() fs.FileMode  { return fs.ModeDevice | fs.ModeCharDevice | 0o620 }
func (terminalInfo) ModTime() time.Time { return time.Time{} }
func (terminalInfo) IsDir() bool        { return false }
func (terminalInfo) Sys() any           { return nil }

// runOnTerminal runs toolgrade with standard output a terminal.
func runOnTerminal(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out terminal
	var errOut bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	code := 0
	if err := m.Run(context.Background(), args); err != nil {
		code = 2
		var exit *ExitError
		if errors.As(err, &exit) {
			code = exit.Code
		}
		errOut.WriteString(err.Error())
	}
	return code, out.String(), errOut.String()
}

// TestResultsOnTerminal: on a terminal, result lines go to results.jsonl
// (the summary says so), not before the summary; with --out - or on a
// pipe, to standard output as ever; a file of the user's by that name is
// not replaced.
func TestResultsOnTerminal(t *testing.T) {
	cases := writeFile(t, "cases.jsonl", passing+failing)
	t.Chdir(t.TempDir())

	code, out, stderr := runOnTerminal(t, "eval", cases)
	if code != 1 || out != "" {
		t.Fatalf("on a terminal: exit %d, stdout %q; want 1 and nothing", code, out)
	}
	if !strings.Contains(stderr, "wrote results.jsonl (the result lines: standard output is a terminal; --out - prints them there)") {
		t.Errorf("the summary does not say where the results went:\n%s", stderr)
	}
	if got, err := os.ReadFile("results.jsonl"); err != nil || strings.Count(string(got), "\n") != 2 {
		t.Errorf("results.jsonl: %v, %q; want two result lines", err, got)
	}
	// A second run replaces the first's results.
	if code, _, stderr := runOnTerminal(t, "eval", cases); code != 1 || !strings.Contains(stderr, "wrote results.jsonl") {
		t.Errorf("again: exit %d: %s", code, stderr)
	}

	if code, out, _ := runOnTerminal(t, "eval", "--out", "-", cases); code != 1 || strings.Count(out, "\n") != 2 {
		t.Errorf("--out -: exit %d, stdout %q; want the two result lines", code, out)
	}
	if code, out, stderr := run(t, "", "eval", cases); code != 1 || strings.Count(out, "\n") != 2 || strings.Contains(stderr, "wrote") {
		t.Errorf("on a pipe: exit %d, stdout %q, stderr %q; want the result lines on stdout and no file", code, out, stderr)
	}
	if code, out, _ := runOnTerminal(t, "eval", "--out", "mine.jsonl", cases); code != 1 || out != "" {
		t.Errorf("--out FILE: exit %d, stdout %q", code, out)
	}
	if _, err := os.Stat("mine.jsonl"); err != nil {
		t.Error(err)
	}

	// results.jsonl of the user's own is kept.
	if err := os.WriteFile("results.jsonl", []byte(passing), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runOnTerminal(t, "eval", cases)
	if code != 2 || !strings.Contains(stderr, "--out") {
		t.Errorf("over a file of cases: exit %d, %s; want 2 and a hint", code, stderr)
	}
	if got, _ := os.ReadFile("results.jsonl"); string(got) != passing {
		t.Errorf("a file that holds no results was replaced: %q", got)
	}
	// Nor is the input itself, when it goes by that name: the default is
	// an output checkPaths knows.
	code, _, stderr = runOnTerminal(t, "eval", "results.jsonl")
	if code != 2 || !strings.Contains(stderr, "--out's default on a terminal results.jsonl is the case file results.jsonl") {
		t.Errorf("cases in results.jsonl: exit %d, %s; want 2 and the clash named", code, stderr)
	}
	if got, _ := os.ReadFile("results.jsonl"); string(got) != passing {
		t.Errorf("the case file results.jsonl was replaced: %q", got)
	}
}

// TestBareEvalGradesTheSuiteHere: after init, a bare eval grades
// toolgrade.yaml in the current folder and says so; without one, the
// error says what to do.
func TestBareEvalGradesTheSuiteHere(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := run(t, "", "eval")
	if code != 2 || !strings.Contains(stderr, "toolgrade init writes a starter suite") {
		t.Errorf("bare eval in an empty folder: exit %d, %s", code, stderr)
	}
	if code, out, stderr := run(t, "", "init"); code != 0 || !strings.Contains(out, "  toolgrade eval\n") {
		t.Fatalf("init: exit %d, %s %s", code, out, stderr)
	}
	code, _, stderr = run(t, "", "eval")
	for _, want := range []string{
		"using toolgrade.yaml in the current folder, grading " + filepath.Join("cases", "sample.jsonl"),
		"3 cases: 2 passed, 1 failed",
		"wrote results.jsonl, report.html",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("bare eval after init: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("bare eval after init: exit %d, want 1", code)
	}
	// Case files named on the command line are graded with the defaults,
	// as before: the suite here is not read.
	if _, _, stderr := run(t, "", "eval", filepath.Join("cases", "sample.jsonl")); strings.Contains(stderr, "using toolgrade.yaml") || strings.Contains(stderr, "tool_order") {
		t.Errorf("eval CASES read the suite here:\n%s", stderr)
	}
	// A suite that lists no datasets says so.
	if err := os.WriteFile("toolgrade.yaml", []byte("metrics:\n  - order: any\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "", "eval"); code != 2 || !strings.Contains(stderr, "toolgrade.yaml lists no datasets") {
		t.Errorf("a suite without datasets: exit %d, %s", code, stderr)
	}
	// The suite here is read as --config is: checked, then parsed whole.
	for _, c := range []struct{ content, want string }{
		{"datasets: [a.jsonl]\ndatasets: [b.jsonl]\n", `toolgrade.yaml:2: duplicate key "datasets"`},
		{`{"id":"x","success":true,"metrics":[]}` + "\n", "toolgrade.yaml: a toolgrade results file, not a config"},
		{"\x1f\x8b\x08\x00", "toolgrade.yaml: gzip-compressed data"},
	} {
		if err := os.WriteFile("toolgrade.yaml", []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := run(t, "", "eval"); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("a suite here holding %q: exit %d, %s; want 2 and %q", c.content, code, stderr, c.want)
		}
	}
}

// TestInitMakesFolders: init suite/my.yaml makes the folder.
func TestInitMakesFolders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite", "deeper", "my.yaml")
	if code, out, stderr := run(t, "", "init", path); code != 0 || !strings.Contains(out, "toolgrade eval --config "+path) {
		t.Fatalf("init %s: exit %d, %s %s", path, code, out, stderr)
	}
	if code, _, stderr := run(t, "", "eval", "--config", path); code != 1 || !strings.Contains(stderr, "3 cases: 2 passed, 1 failed") {
		t.Errorf("the suite in the new folder: exit %d, %s", code, stderr)
	}
	// A folder that cannot be made is an error naming it.
	file := writeFile(t, "file", "")
	if code, _, stderr := run(t, "", "init", filepath.Join(file, "my.yaml")); code != 2 || !strings.Contains(stderr, file) {
		t.Errorf("init under a file: exit %d, %s", code, stderr)
	}
}
