package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
)

// TestExampleSuites runs every example suite (examples/*/toolgrade.yaml
// on its cases.jsonl) from the command line, as its README says to, and
// compares each case's scores and verdicts with
// testdata/examples.golden: the READMEs quote these numbers.
func TestExampleSuites(t *testing.T) {
	suites, err := filepath.Glob("../../examples/*/toolgrade.yaml")
	if err != nil || len(suites) == 0 {
		t.Fatalf("no example suites (%v)", err)
	}
	var b strings.Builder
	for _, suite := range suites {
		name := filepath.Base(filepath.Dir(suite))
		code, out, stderr := run(t, "", "eval", "--config", suite, "--quiet", filepath.Join(filepath.Dir(suite), "cases.jsonl"))
		fmt.Fprintf(&b, "# %s: exit %d\n", name, code)
		if code == 2 {
			t.Errorf("%s: exit 2: %s", name, stderr)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			r, err := toolgrade.ParseResult([]byte(line))
			if err != nil {
				t.Fatalf("%s: %v: %s", name, err, line)
			}
			for _, m := range r.Metrics {
				score := "error: " + m.Error
				if m.Error == "" {
					score = fmt.Sprintf("%.4g", m.Score)
				}
				fmt.Fprintf(&b, "%s %s %s pass=%v\n", r.ID, m.Name, score, m.Verdict())
			}
			for _, w := range r.Warnings {
				fmt.Fprintf(&b, "%s warning: %s\n", r.ID, w)
			}
		}
	}
	golden := filepath.Join("testdata", "examples.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("example results differ from %s (-want +got; go test -update refreshes it):\n%s", golden, diff)
	}
}
