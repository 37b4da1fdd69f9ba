package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// runWith runs the program with an environment and returns its exit code
// and stderr.
func runWith(t *testing.T, env map[string]string, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}
	err := m.Run(context.Background(), args)
	var exit *ExitError
	switch {
	case err == nil:
		return 0, errOut.String()
	case errors.As(err, &exit):
		if exit.Err != nil {
			errOut.WriteString(exit.Err.Error())
		}
		return exit.Code, errOut.String()
	}
	return 2, errOut.String() + err.Error()
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// suite writes a config with datasets and reports, and its case files.
func suite(t *testing.T, reports string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"cases/a.jsonl":   passing,
		"cases/b.jsonl":   failing + "\n" + passing,
		"cases/notes.txt": "not a case file",
		"toolgrade.yaml": "datasets:\n  - cases/*.jsonl\n  - cases/a.jsonl\nmetrics:\n  - threshold: 0.5\n  - name: strict\n    strict: true\n" +
			"reports:\n" + reports,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "toolgrade.yaml")
}

func TestEvalSuite(t *testing.T) {
	cfg := suite(t, "  out: out/results.jsonl\n  junit: junit.xml\n  html: report.html\n  markdown: $SUMMARY\n")
	dir := filepath.Dir(cfg)
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	code, stderr := runWith(t, map[string]string{"SUMMARY": summary}, "eval", "--config", cfg)
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (a case fails); stderr:\n%s", code, stderr)
	}
	// The globs run a.jsonl then b.jsonl, and a.jsonl is not read twice.
	if got := strings.Count(read(t, filepath.Join(dir, "out", "results.jsonl")), "\n"); got != 3 {
		t.Errorf("results hold %d lines, want 3", got)
	}
	// p is in a.jsonl and b.jsonl: two trials of one case, which add a
	// reliability suite besides the metrics' suites.
	if junit := read(t, filepath.Join(dir, "junit.xml")); strings.Count(junit, "<testcase ")-strings.Count(junit, `classname="reliability"`) != 6 || !strings.Contains(junit, `<testsuite name="strict"`) {
		t.Errorf("junit.xml does not hold one test case per case and metric:\n%s", junit)
	}
	html := read(t, filepath.Join(dir, "report.html"))
	if strings.Count(html, `<tr class="case"`) != 3 {
		t.Error("report.html does not hold a row per case")
	}
	// The page says how the run was made: command line, config, metrics.
	for _, want := range []string{"<th>command</th><td><code>toolgrade eval --config ", "<th>config</th>", `strict <code>{&#34;name&#34;:&#34;strict&#34;,&#34;strict&#34;:true}</code>`, "<th>toolgrade</th>"} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	// p's two trials count once, and its verdict is over both.
	if md := read(t, summary); !strings.Contains(md, "toolgrade: 1 of 2 cases passed") {
		t.Errorf("the Markdown summary went elsewhere or is wrong:\n%s", md)
	}
	for _, want := range []string{"2 cases: 1 passed, 1 failed; 3 trials (1–2 per case): 2 passed, 1 failed", "tool_correctness", "worst cases:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("summary on stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestEvalReportFlags(t *testing.T) {
	cfg := suite(t, "  html: config.html\n  markdown: $UNSET_VARIABLE\n")
	dir := t.TempDir()
	md, html := filepath.Join(dir, "flag.md"), filepath.Join(dir, "flag.html")
	code, stderr := runWith(t, nil, "eval", "--config", cfg, "--quiet", "--markdown", md, "--html", html, filepath.Join(filepath.Dir(cfg), "cases", "a.jsonl"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit code %d, stderr %q; want 0 and nothing printed with --quiet", code, stderr)
	}
	if !strings.Contains(read(t, md), "1 of 1 case passed") || !strings.Contains(read(t, html), "<!doctype html>") {
		t.Error("the flags' report files are wrong")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(cfg), "config.html")); !os.IsNotExist(err) {
		t.Errorf("the flag did not replace the config's html report: %v", err)
	}
}

func TestEvalStepSummaryIsAppended(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "step_summary.md")
	if err := os.WriteFile(summary, []byte("earlier step output\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := writeFile(t, "a.jsonl", passing)
	env := map[string]string{"GITHUB_STEP_SUMMARY": summary}
	for range 2 {
		if code, stderr := runWith(t, env, "eval", "-q", "--markdown", summary, in); code != 0 {
			t.Fatalf("exit code %d: %s", code, stderr)
		}
	}
	got := read(t, summary)
	if !strings.HasPrefix(got, "earlier step output\n") || strings.Count(got, "### ✅ toolgrade") != 2 {
		t.Errorf("step summary not appended to:\n%s", got)
	}
	// Any other file is replaced.
	other := filepath.Join(t.TempDir(), "other.md")
	for range 2 {
		runWith(t, env, "eval", "-q", "--markdown", other, in)
	}
	if n := strings.Count(read(t, other), "### ✅ toolgrade"); n != 1 {
		t.Errorf("%s holds %d summaries, want 1", other, n)
	}
}

func TestEvalSuiteErrors(t *testing.T) {
	tests := []struct {
		name, reports, datasets, errorHas string
	}{
		{"unknown report", "  pdf: x.pdf\n", "", "reports.pdf: unknown report"},
		{"report not a path", "  html: [a, b]\n", "", "reports.html: want a path"},
		{"dataset matches nothing", "", "datasets: [nothing/*.jsonl]\n", "datasets[0]: no file matches"},
		{"dataset with **", "", "datasets: [cases/**/*.jsonl]\n", "** is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := suite(t, tt.reports)
			if tt.datasets != "" {
				text := strings.Replace(read(t, cfg), "datasets:\n  - cases/*.jsonl\n  - cases/a.jsonl\n", tt.datasets, 1)
				if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, stderr := runWith(t, nil, "eval", "--config", cfg)
			if code != 2 || !strings.Contains(stderr, tt.errorHas) {
				t.Errorf("exit code %d, stderr %q; want 2 and %q", code, stderr, tt.errorHas)
			}
		})
	}
}

func TestCountCases(t *testing.T) {
	dir := t.TempDir()
	long := `{"id":"` + strings.Repeat("x", 300<<10) + `"}` // longer than the read buffer
	files := map[string]string{
		"a.jsonl":     "{}\n\n  \n{}\r\n" + long + "\n{}", // blank lines are not cases; the last needs no newline
		"b.ndjson":    "{}\n",
		"c.yaml":      "- id: a\n",
		"empty.jsonl": "",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		paths []string
		n     int64
		ok    bool
	}{
		{[]string{p("a.jsonl")}, 4, true},
		{[]string{p("a.jsonl"), p("b.ndjson"), p("empty.jsonl")}, 5, true},
		{[]string{p("a.jsonl"), p("c.yaml")}, 0, false},
		{[]string{"-"}, 0, false},
		{[]string{p("missing.jsonl")}, 0, false},
	}
	for _, tt := range tests {
		n, ok := countCases(tt.paths)
		if n != tt.n || ok != tt.ok {
			t.Errorf("countCases(%v) = %d, %v; want %d, %v", tt.paths, n, ok, tt.n, tt.ok)
		}
	}
}

// TestWorkflowExample keeps the GitHub Actions example honest: every flag
// it gives toolgrade eval and toolgrade compare exists.
func TestWorkflowExample(t *testing.T) {
	text := read(t, filepath.Join("..", "..", "examples", "github-actions", "toolgrade.yml"))
	m := NewMain()
	for _, cmd := range []*cobra.Command{m.evalCommand(), m.compareCommand()} {
		// The command runs from "toolgrade NAME" to the end of its step.
		_, rest, ok := strings.Cut(text, "toolgrade "+cmd.Name()+" ")
		if !ok {
			t.Fatalf("the example does not run toolgrade %s", cmd.Name())
		}
		step, _, _ := strings.Cut(rest, "\n\n")
		for _, flag := range regexp.MustCompile(`--([a-z-]+)`).FindAllStringSubmatch(step, -1) {
			if cmd.Flags().Lookup(flag[1]) == nil {
				t.Errorf("toolgrade %s has no flag --%s", cmd.Name(), flag[1])
			}
		}
	}
}

// TestRunCommand: the command line the reports show leaves out what
// --mcp-header carries.
func TestRunCommand(t *testing.T) {
	got := runCommand([]string{"eval", "--mcp-header", "Authorization: Bearer s3cret", "--mcp-header=X-Key: s3cret", "cases.jsonl"})
	want := []string{"toolgrade", "eval", "--mcp-header", "Authorization: …", "--mcp-header=X-Key: …", "cases.jsonl"}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("runCommand = %q, want %q", got, want)
	}
}
