package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/config"
)

func TestInit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.yaml")
	code, out, stderr := run(t, "", "init", path)
	if code != 0 || !strings.Contains(out, "wrote "+path) || !strings.Contains(out, "sample.jsonl") || !strings.Contains(out, "toolgrade eval --config "+path) {
		t.Fatalf("init: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	// The starter file is a working suite.
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	metrics, err := cfg.Build(&config.Env{})
	if err != nil {
		t.Fatalf("the starter's metrics do not build: %v", err)
	}
	if len(metrics) != 2 || metrics[0].Name() != "tool_correctness" || metrics[1].Name() != "tool_order" {
		t.Errorf("starter metrics %v", metrics)
	}
	reports, err := cfg.ReportFiles(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if reports.HTML != filepath.Join(filepath.Dir(path), "report.html") || reports.Markdown != "" {
		t.Errorf("starter reports %+v: want report.html beside the file and no Markdown outside CI", reports)
	}

	// init wrote sample cases: the suite runs at once, one case failing
	// with a reason to read.
	code, _, stderr = run(t, "", "eval", "--config", path)
	for _, want := range []string{"3 cases: 2 passed, 1 failed", "weather-then-email", `city expected "Rome", got "Berlin"`, "missing send_email", "wrote "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("eval of the starter suite: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("eval of the starter suite: exit %d, want 1 (a sample case fails on purpose)", code)
	}
	// Your own cases beside the sample are graded too; the sample is
	// kept when init runs again.
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "cases", "c.jsonl"), []byte(passing), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, stderr := run(t, "", "eval", "--config", path); !strings.Contains(stderr, "4 cases: 3 passed, 1 failed") {
		t.Errorf("with a case of one's own: %s", stderr)
	}

	// An existing file is kept, unless --force.
	if err := os.WriteFile(path, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "", "init", path); code != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("init over a file: code %d, stderr %q; want 2 and a hint", code, stderr)
	}
	if got, _ := os.ReadFile(path); string(got) != "# mine\n" {
		t.Error("init overwrote an existing file")
	}
	if code, _, _ := run(t, "", "init", "--force", path); code != 0 {
		t.Errorf("init --force: code %d", code)
	}
	if got, _ := os.ReadFile(path); string(got) != string(starter(path)) {
		t.Error("init --force did not write the starter")
	}
}

// TestInitCommentsNameDocs: every docs/*.md (and #section) the starter
// config names exists.
func TestInitCommentsNameDocs(t *testing.T) {
	refs := regexp.MustCompile(`docs/([a-z]+\.md)(#[a-z0-9-]+)?`).FindAllStringSubmatch(starterConfig, -1)
	if len(refs) < 4 {
		t.Fatalf("the starter names %d docs; want its sections to point at the docs", len(refs))
	}
	for _, ref := range refs {
		data, err := os.ReadFile(filepath.Join("..", "..", "docs", ref[1]))
		if err != nil {
			t.Errorf("%s: %v", ref[0], err)
			continue
		}
		if ref[2] == "" {
			continue
		}
		found := false
		for _, line := range strings.Split(string(data), "\n") {
			if h, ok := strings.CutPrefix(line, "#"); ok {
				anchor := strings.ToLower(strings.TrimSpace(strings.TrimLeft(h, "#")))
				anchor = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
					if r == ' ' || r == '-' || r == '_' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
						return r
					}
					return -1
				}, anchor)), "-")
				if "#"+anchor == ref[2] {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: no such section", ref[0])
		}
	}
}

// TestInitMistakes: a folder for the file means the suite in that folder;
// a name that is no file is refused before anything is written; the
// starter's header names the file it is in.
func TestInitMistakes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // a file written by mistake lands there
	existing := filepath.Join(dir, "existing")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, arg string
		code      int
		stderr    string // for code 2
		suite     string // the file written, for code 0
		command   string // the command its header and init's output give
	}{
		{"an existing folder", existing, 0, "", filepath.Join(existing, "toolgrade.yaml"), "toolgrade eval --config " + filepath.Join(existing, "toolgrade.yaml")},
		{"a new folder", filepath.Join(dir, "new") + string(filepath.Separator), 0, "", filepath.Join(dir, "new", "toolgrade.yaml"), "toolgrade eval --config " + filepath.Join(dir, "new", "toolgrade.yaml")},
		{"standard output", "-", 2, "init writes a file", "", ""},
		{"an empty name", "", 2, "init writes a file", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := run(t, "", "init", tt.arg)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Fatalf("code %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.stderr)
			}
			if code != 0 {
				if _, err := os.Stat("-"); err == nil {
					t.Error("init wrote a file named -")
				}
				return
			}
			if !strings.Contains(out, "wrote "+tt.suite) || !strings.Contains(out, tt.command) {
				t.Errorf("stdout %q, want it to say it wrote %s and to run %s", out, tt.suite, tt.command)
			}
			data, err := os.ReadFile(tt.suite)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), "toolgrade eval --config toolgrade.yaml") {
				t.Errorf("the header of %s does not give its command:\n%.200s", tt.suite, data)
			}
		})
	}
	t.Run("header names the file", func(t *testing.T) {
		path := filepath.Join(dir, "my-suite.yaml")
		if code, _, stderr := run(t, "", "init", path); code != 0 {
			t.Fatal(stderr)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "toolgrade eval --config my-suite.yaml") || strings.Contains(string(data), "--config toolgrade.yaml") {
			t.Errorf("the header does not name my-suite.yaml:\n%.300s", data)
		}
	})
}
