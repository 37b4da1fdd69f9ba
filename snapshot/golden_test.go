package snapshot_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/snapshot"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden snapshots real traces — the trace readers' samples, and the
// shared fixtures when present — and compares every run's notes (each
// rule with its reason, and each value kept for a reason) with a golden
// file, so that a change to the inference shows as a diff to review. go
// test -update rewrites them.
func TestGolden(t *testing.T) {
	for _, g := range []struct{ root, golden string }{
		{"../trace/testdata", "trace-samples.golden"},
		{"../testdata/shared/fixtures/traces", "fixtures.golden"},
	} {
		t.Run(g.golden, func(t *testing.T) {
			if _, err := os.Stat(g.root); err != nil {
				t.Skipf("%s: %v", g.root, err)
			}
			var b strings.Builder
			for _, f := range traceFiles(t) {
				rel, err := filepath.Rel(g.root, f)
				if err != nil || strings.HasPrefix(rel, "..") {
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := snapshot.Read(filepath.ToSlash(rel), "run", data, "")
				if err != nil {
					fmt.Fprintf(&b, "%s: error: %v\n", rel, err)
					continue
				}
				for _, r := range runs {
					s := snapshot.Take(r)
					fmt.Fprintf(&b, "%s %s (%s): %d calls, %d expected\n", r.Where(), r.ID, r.Format, len(r.Calls), expectedCount(s))
					for _, n := range s.Notes {
						fmt.Fprintf(&b, "  %s\n", n)
					}
				}
			}
			path := filepath.Join("testdata", g.golden)
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
			}
		})
	}
}

func expectedCount(s *snapshot.Snapshot) int {
	exp, _ := s.Case.Get("expected_tools")
	l, _ := exp.([]any)
	return len(l)
}
