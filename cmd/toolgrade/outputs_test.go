package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// runMain runs the program in-process with m's streams and ctx, and
// returns its exit code and what it printed on stderr (with the error
// main would print).
func runMain(t *testing.T, ctx context.Context, m *Main, args ...string) (int, string) {
	t.Helper()
	var errOut, msg bytes.Buffer
	if m.Stderr == nil {
		m.Stderr = &errOut
	}
	if m.Stdin == nil {
		m.Stdin = strings.NewReader("")
	}
	if m.Getenv == nil {
		m.Getenv = func(string) string { return "" }
	}
	err := m.Run(ctx, args)
	code := 0
	if err != nil {
		code = 2
		var exit *ExitError
		if errors.As(err, &exit) {
			code = exit.Code
		}
		if exit == nil || exit.Err != nil {
			msg.WriteString(err.Error())
		}
	}
	return code, errOut.String() + msg.String()
}

// leftovers lists the temporary files left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), "tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestOutputNamesInput: an output that names an input or another output,
// however spelled, is refused at start (exit 2, naming both), and the
// input is left as it was.
func TestOutputNamesInput(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	cases := at("in.jsonl")
	content := passing + failing
	os.WriteFile(cases, []byte(content), 0o644)
	os.Mkdir(at("sub"), 0o755)
	if err := os.Symlink(cases, at("link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(cases, at("hard.jsonl")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(at("suite.yaml"), []byte("reports:\n  out: ./sub/../in.jsonl\n"), 0o644)
	os.WriteFile(at("clash.yaml"), []byte("reports:\n  out: r.jsonl\n  junit: sub/../r.jsonl\n"), 0o644)
	os.WriteFile(at("tools.json"), []byte(`[{"name":"f"}]`), 0o644)
	// BFCL: a data folder and a result file.
	os.MkdirAll(at("bfcl/possible_answer"), 0o755)
	os.WriteFile(at("bfcl/BFCL_v4_simple_python.json"), []byte(`{"id":"simple_python_0","question":[[{"role":"user","content":"x"}]],"function":[]}`+"\n"), 0o644)
	os.WriteFile(at("bfcl/possible_answer/BFCL_v4_simple_python.json"), []byte(`{"id":"simple_python_0","ground_truth":[]}`+"\n"), 0o644)
	os.WriteFile(at("result.json"), []byte(`{"id":"simple_python_0","result":[]}`+"\n"), 0o644)
	model := []string{"run", "--model", "m", "--key-env=", "--base-url", "http://127.0.0.1:1/v1"}

	tests := []struct {
		name string
		args []string
		want []string // in the message
	}{
		{"--out is the input", []string{"eval", "--out", cases, cases}, []string{"--out " + cases + " is the case file " + cases}},
		{"-o is the input by another path", []string{"eval", "-o", at("sub/../in.jsonl"), cases}, []string{"is the case file"}},
		{"--html is the input", []string{"eval", "--html", cases, cases}, []string{"--html"}},
		{"--markdown is a hard link to the input", []string{"eval", "--markdown", at("hard.jsonl"), cases}, []string{"--markdown " + at("hard.jsonl") + " is the case file"}},
		{"--junit is the input through a link", []string{"eval", "--junit", cases, at("link.jsonl")}, []string{"--junit"}},
		{"the config's reports name the input", []string{"eval", "--config", at("suite.yaml"), cases}, []string{"the config's reports.out"}},
		{"--out is the config", []string{"eval", "--config", at("suite.yaml"), "--out", at("suite.yaml"), cases}, []string{"is --config"}},
		{"--out is the tools file", []string{"eval", "--tools", at("tools.json"), "--out", at("tools.json"), cases}, []string{"is --tools"}},
		{"two outputs, one file", []string{"eval", "--out", at("r.jsonl"), "--html", at("r.jsonl"), cases}, []string{"--out " + at("r.jsonl") + " and --html " + at("r.jsonl") + " are the same file"}},
		{"two outputs, another spelling", []string{"eval", "--junit", at("r.xml"), "--markdown", at("sub/../r.xml"), cases}, []string{"are the same file"}},
		{"two outputs in the config", []string{"eval", "--config", at("clash.yaml"), cases}, []string{"the config's reports.out", "the config's reports.junit", "are the same file"}},
		{"run: --record is --out", append(model, "--record", at("s.jsonl"), "--out", at("s.jsonl"), cases), []string{"--record " + at("s.jsonl") + " and --out"}},
		{"run: --record is --html", append(model, "--record", at("s.jsonl"), "--html", at("./s.jsonl"), cases), []string{"are the same file"}},
		{"run: --record is the input", append(model, "--record", at("link.jsonl"), cases), []string{"--record", "is the case file"}},
		{"run: --out is the input", append(model, "--out", cases, cases), []string{"--out", "is the case file"}},
		{"run: the default run file is --html", append(model, "--out", at("r.jsonl"), "--html", at("r.run.jsonl"), cases), []string{"the run file " + at("r.run.jsonl") + " and --html"}},
		{"bfcl: --out is the result file", []string{"bfcl", "--data", at("bfcl"), "--results", at("result.json"), "--out", at("result.json")}, []string{"--out", "is the --results file"}},
		{"bfcl: --out is a data file", []string{"bfcl", "--data", at("bfcl"), "--results", at("result.json"), "--out", at("bfcl/possible_answer/BFCL_v4_simple_python.json")}, []string{"is the --data file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stderr := runMain(t, context.Background(), &Main{Stdout: io.Discard}, tt.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2; stderr: %s", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if b, _ := os.ReadFile(cases); string(b) != content {
				t.Fatalf("the input was changed: %q", b)
			}
			for _, f := range []string{"r.jsonl", "r.xml", "s.jsonl", "r.run.jsonl"} {
				if _, err := os.Stat(at(f)); err == nil {
					t.Errorf("%s was written", f)
				}
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left %q", l)
			}
		})
	}
}

// TestStreamNamesInput: standard output or error redirected to an input,
// and standard input read as "-" from the file named as an output, are
// refused, on every command that reads files.
func TestStreamNamesInput(t *testing.T) {
	dir := t.TempDir()
	cases := filepath.Join(dir, "in.jsonl")
	os.WriteFile(cases, []byte(passing), 0o644)
	trace := filepath.Join(dir, "trace.json")
	os.WriteFile(trace, []byte(`{"messages":[]}`), 0o644)
	tools := filepath.Join(dir, "tools.json")
	os.WriteFile(tools, []byte(`[{"name":"f"}]`), 0o644)
	open := func(t *testing.T, path string) *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, tt := range []struct {
		name   string
		stream string // stdout, stderr or stdin
		file   string
		args   []string
		want   string
	}{
		{"eval >> input", "stdout", cases, []string{"eval", cases}, "standard output is redirected to the case file"},
		{"eval 2>> input", "stderr", cases, []string{"eval", cases}, "standard error is redirected to the case file"},
		{"eval - < out", "stdin", cases, []string{"eval", "--out", cases, "-"}, "is standard input, which is read as a case file"},
		{"extract > trace", "stdout", trace, []string{"extract", trace}, "redirected to the trace file"},
		{"tools > tools file", "stdout", tools, []string{"tools", tools}, "redirected to the tools file"},
		{"compare > base", "stdout", cases, []string{"compare", cases, cases}, "redirected to the results file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.file)
			m := &Main{Stdout: io.Discard}
			f := open(t, tt.file)
			switch tt.stream {
			case "stdout":
				m.Stdout = f
			case "stderr":
				m.Stderr = f
			case "stdin":
				m.Stdin = f
			}
			code, stderr := runMain(t, context.Background(), m, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit code %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
			if b, _ := os.ReadFile(tt.file); tt.stream != "stderr" && !bytes.Equal(b, before) {
				t.Errorf("%s changed: %q", tt.file, b)
			}
		})
	}
}

// TestOutputsWholeOrNotAtAll: outputs are written whole or not at all: a
// run that fails leaves the earlier files as they were and no temporary
// file; one that succeeds keeps their permissions; "wrote" names only
// files written whole.
func TestOutputsWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	cases := at("in.jsonl")
	os.WriteFile(cases, []byte(passing+failing), 0o644)
	outs := []string{at("r.jsonl"), at("r.html"), at("j.xml"), at("s.md")}
	for _, p := range outs {
		os.WriteFile(p, []byte("earlier"), 0o600)
		os.Chmod(p, 0o600)
	}
	args := []string{"eval", "--out", outs[0], "--html", outs[1], "--junit", outs[2], "--markdown", outs[3]}
	same := func(t *testing.T) {
		t.Helper()
		for _, p := range outs {
			if b, _ := os.ReadFile(p); string(b) != "earlier" {
				t.Errorf("%s = %.40q, want the earlier file", filepath.Base(p), b)
			}
		}
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("left %q", l)
		}
	}

	t.Run("an input that cannot be read halfway", func(t *testing.T) {
		// UTF-16 whose second line is not: the first cases are graded
		// when the read fails (a directory is refused at start).
		broken := []byte{0xff, 0xfe}
		for _, c := range passing {
			broken = append(broken, byte(c), byte(c>>8))
		}
		broken = append(broken, 0x00, 0xdc, '\n', 0)
		halfway := filepath.Join(t.TempDir(), "halfway.jsonl")
		os.WriteFile(halfway, broken, 0o644)
		code, stderr := runMain(t, context.Background(), &Main{Stdout: io.Discard}, append(args, cases, halfway)...)
		if code != 2 || strings.Contains(stderr, "wrote") || !strings.Contains(stderr, "not written: "+strings.Join(outs[:1], "")) {
			t.Errorf("exit code %d, stderr:\n%s\nwant 2, no \"wrote\", and the files named as not written", code, stderr)
		}
		same(t)
	})
	t.Run("a report that cannot be written", func(t *testing.T) {
		code, stderr := runMain(t, context.Background(), &Main{Stdout: io.Discard}, "eval", "--out", outs[0], "--html", os.DevNull, "--junit", "/dev/full", cases)
		if code != 2 || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("exit code %d, stderr:\n%s", code, stderr)
		}
		// The results are whole: they are written, and said to be.
		if !strings.Contains(stderr, "wrote "+outs[0]+", "+os.DevNull+"\n") || strings.Contains(stderr, "wrote "+outs[0]+", "+os.DevNull+", /dev/full") {
			t.Errorf("the wrote line names what was not written whole:\n%s", stderr)
		}
		if b, _ := os.ReadFile(outs[0]); !strings.HasPrefix(string(b), `{"id":"p"`) {
			t.Errorf("results %q", b)
		}
		os.WriteFile(outs[0], []byte("earlier"), 0o600)
	})
	t.Run("results to a stdout that breaks halfway", func(t *testing.T) {
		// Past the first 64 KB, so that the results fail as they stream.
		var lines strings.Builder
		for i := range 2000 {
			lines.WriteString(strings.Replace(passing, `"id":"p"`, `"id":"p`+strconv.Itoa(i)+`"`, 1))
		}
		many := writeFile(t, "many.jsonl", lines.String())
		code, stderr := runMain(t, context.Background(), &Main{Stdout: failWriter{syscall.ENOSPC}}, "eval", "--html", outs[1], "--junit", outs[2], "--markdown", outs[3], many)
		if code != 2 || !strings.Contains(stderr, "writing standard output: no space left on device") {
			t.Errorf("exit code %d, stderr:\n%s", code, stderr)
		}
		same(t)
	})
	t.Run("a whole run keeps the permissions", func(t *testing.T) {
		code, stderr := runMain(t, context.Background(), &Main{Stdout: io.Discard}, append(args, cases)...)
		if code != 1 || !strings.Contains(stderr, "wrote "+strings.Join([]string{outs[0], outs[2], outs[1], outs[3]}, ", ")) {
			t.Errorf("exit code %d, stderr:\n%s", code, stderr)
		}
		for _, p := range outs {
			fi, err := os.Stat(p)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %v, %v; want its permissions 0600 kept", filepath.Base(p), fi.Mode(), err)
			}
		}
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("left %q", l)
		}
	})
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestStreamWriteErrors: a write to stdout or stderr that fails makes
// every command fail with a message; a pipe its reader closed ends it
// quietly with 141.
func TestStreamWriteErrors(t *testing.T) {
	cases := writeFile(t, "in.jsonl", passing)
	tools := writeFile(t, "tools.json", `[{"name":"f","description":"F."}]`)
	trace := writeFile(t, "trace.json", `{"messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`)
	results := writeFile(t, "r.jsonl", `{"id":"a","success":true,"metrics":[{"name":"m","profile":"default","score":1,"success":true,"threshold":1,"error":null}]}`+"\n")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "possible_answer"), 0o755)
	os.WriteFile(filepath.Join(dir, "BFCL_v4_simple_python.json"), []byte(`{"id":"simple_python_0","question":[[{"role":"user","content":"x"}]],"function":[{"name":"f","parameters":{"type":"dict","properties":{}}}]}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "possible_answer", "BFCL_v4_simple_python.json"), []byte(`{"id":"simple_python_0","ground_truth":[{"f":{}}]}`+"\n"), 0o644)
	bfclResult := writeFile(t, "result.json", `{"id":"simple_python_0","result":[{"f":{}}]}`+"\n")
	commands := [][]string{
		{"eval", cases},
		{"tools", tools},
		{"tools", "--format", "openai", tools},
		{"tools", "--lint", tools},
		{"extract", trace},
		{"compare", results, results},
		{"bfcl", "--data", dir, "--results", bfclResult},
		{"prompts"},
		{"version"},
	}
	for _, args := range commands {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			code, stderr := runMain(t, context.Background(), &Main{Stdout: failWriter{syscall.ENOSPC}}, args...)
			if code != 2 || !strings.Contains(stderr, "writing standard output: no space left on device") {
				t.Errorf("%q: exit code %d, stderr %q; want 2 and the write error", args, code, stderr)
			}
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			code, stderr = runMain(t, context.Background(), &Main{Stdout: w}, args...)
			w.Close()
			if code != 141 || strings.Contains(stderr, "broken pipe") {
				t.Errorf("%q to a closed pipe: exit code %d, stderr %q; want 141 and no message", args, code, stderr)
			}
		})
	}
	// Commands that write to stderr as they succeed.
	lint := writeFile(t, "tools.json", `[{"name":"f"}]`)
	for _, args := range [][]string{{"eval", cases}, {"tools", lint}, {"tools", "--format", "openai", lint}} {
		code, _ := runMain(t, context.Background(), &Main{Stdout: io.Discard, Stderr: failWriter{syscall.ENOSPC}}, args...)
		if code != 2 {
			t.Errorf("%q with a failing stderr: exit code %d, want 2", args, code)
		}
	}
	t.Run("init", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "suite.yaml")
		code, stderr := runMain(t, context.Background(), &Main{Stdout: failWriter{syscall.ENOSPC}}, "init", path)
		if code != 2 || !strings.Contains(stderr, "writing standard output") {
			t.Errorf("exit code %d, stderr %q", code, stderr)
		}
	})
}
