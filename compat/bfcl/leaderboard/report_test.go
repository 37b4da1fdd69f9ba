package leaderboard_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/runner"
)

// TestGradeFiles checks what grading result files reports: the notes in
// order, a result line per graded entry, the table, and the verdict.
func TestGradeFiles(t *testing.T) {
	d, err := leaderboard.OpenData(smallData(t))
	if err != nil {
		t.Fatal(err)
	}
	results := writeTree(t, map[string]string{
		"m-FC/r.json": strings.Join([]string{
			`{"id": "simple_python_0", "result": [{"get_weather": {"city": "Paris"}}]}`,
			`{"id": "simple_python_9", "result": []}`,
			`{"id": "multi_turn_base_0", "result": [[]]}`,
			`{"id": "simple_python_0", "result": []}`,
		}, "\n"),
		"ok.json": `{"id": "irrelevance_0", "result": []}`,
	})
	fc, ok := filepath.Join(results, "m-FC", "r.json"), filepath.Join(results, "ok.json")
	for _, tt := range []struct {
		name    string
		files   []string
		passed  bool
		notes   []string
		entries int
	}{
		{"all", []string{fc, ok}, false, []string{
			fc + `:4: entry simple_python_0 repeats ` + fc + `:1; this line is ignored`,
			fc + `: graded as a function-calling model's results (the model "m-FC" is a function-calling one)`,
			`1 entries of category "multi_turn_base" skipped: only the AST and relevance categories are graded`,
			fc + `:2: simple_python_9: no question simple_python_9 in the simple_python data`,
			`irrelevance: 1 of 2 entries have no result and are not counted`,
			`simple_python: 1 of 3 entries have no result and are not counted`,
		}, 3},
		{"valid", []string{ok}, true, []string{`irrelevance: 1 of 2 entries have no result and are not counted`}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var notes []string
			var table bytes.Buffer
			out := filepath.Join(t.TempDir(), "out.jsonl")
			passed, err := d.GradeFiles(context.Background(), tt.files, leaderboard.DetectCalling,
				runner.Grading{Out: out, Report: &table, Note: func(s string) { notes = append(notes, s) }})
			if err != nil {
				t.Fatal(err)
			}
			if passed != tt.passed {
				t.Errorf("passed %v, want %v", passed, tt.passed)
			}
			if diff := cmp.Diff(tt.notes, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			lines, err := os.ReadFile(out)
			if n := bytes.Count(lines, []byte("\n")); err != nil || n != tt.entries {
				t.Errorf("%d result lines (%v), want %d", n, err, tt.entries)
			}
			if !strings.HasPrefix(table.String(), "Category") {
				t.Errorf("table:\n%s", table.String())
			}
		})
	}
}

// TestGradeFilesErrors checks that unreadable input is an error, with the
// repeats read before it noted, and that nothing is reported after it.
func TestGradeFilesErrors(t *testing.T) {
	d, err := leaderboard.OpenData(smallData(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{
		"a.json":   `{"id": "simple_python_0", "result": []}` + "\n" + `{"id": "simple_python_0", "result": []}`,
		"bad.json": `{oops`,
		"p.json":   `{"id": "parallel_0", "result": []}`,
	})
	for _, tt := range []struct {
		name  string
		files []string
		out   string
		err   string
		notes int
	}{
		{"unreadable result file", []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "bad.json")}, "", "bad.json:1: invalid JSON", 1},
		{"no data for a category", []string{filepath.Join(dir, "p.json")}, "", "no BFCL_v*_parallel.json", 0},
		{"out not writable", []string{filepath.Join(dir, "a.json")}, filepath.Join(dir, "no", "out.jsonl"), "no such file", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var notes []string
			var table bytes.Buffer
			passed, err := d.GradeFiles(context.Background(), tt.files, leaderboard.DetectCalling,
				runner.Grading{Out: tt.out, Report: &table, Note: func(s string) { notes = append(notes, s) }})
			if passed || err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v, %v; want an error naming %q", passed, err, tt.err)
			}
			if len(notes) != tt.notes || table.Len() != 0 {
				t.Errorf("notes %q, table %q; want %d notes, no table", notes, table.String(), tt.notes)
			}
		})
	}
}
