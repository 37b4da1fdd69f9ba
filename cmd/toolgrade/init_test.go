package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/config"
)

func TestInit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.yaml")
	code, out, stderr := run(t, "", "init", path)
	if code != 0 || !strings.Contains(out, "wrote "+path) {
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

	// A case in cases/ makes it run.
	if err := os.MkdirAll(filepath.Join(filepath.Dir(path), "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "cases", "c.jsonl"), []byte(passing), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "", "eval", "-q", "--config", path); code != 0 {
		t.Errorf("eval of the starter suite: exit %d: %s", code, stderr)
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
	if got, _ := os.ReadFile(path); string(got) != starterConfig {
		t.Error("init --force did not write the starter")
	}
}
