package leaderboard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/runner"
)

// TestHarnessStart checks the result files a run starts with, and
// whether they can be graded.
func TestHarnessStart(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_simple_python.json":                 question("simple_python_0", "x"),
		"possible_answer/BFCL_v4_simple_python.json": `{"id": "simple_python_0", "ground_truth": [{"f": {}}]}` + "\n" + `{"id": 3}` + "\n",
		"BFCL_v4_irrelevance.json":                   question("irrelevance_0", "x"),
		"BFCL_v4_multiple.json":                      question("multiple_0", "x"),
		"mine.jsonl":                                 question("simple_python_9", "x"),
		"possible_answer/BFCL_v4_parallel.json":      "{oops\n",
		"BFCL_v4_parallel.json":                      question("parallel_0", "x"),
		"other/BFCL_v4_simple_python.json":           question("simple_python_0", "x"),
	})
	path := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name     string
		files    []string
		gradable bool
		err      string
	}{
		{"named, with answers", []string{path("BFCL_v4_simple_python.json"), path("BFCL_v4_irrelevance.json")}, true, ""},
		{"an AST category without answers", []string{path("BFCL_v4_simple_python.json"), path("BFCL_v4_multiple.json")}, false, ""},
		{"not named as BFCL names them", []string{path("mine.jsonl")}, false, ""},
		{"standard input", []string{path("BFCL_v4_simple_python.json"), "-"}, false, "BFCL questions on standard input"},
		{"two directories", []string{path("BFCL_v4_simple_python.json"), path("other/BFCL_v4_simple_python.json")}, false, "BFCL question files from two directories"},
		{"unreadable answers", []string{path("BFCL_v4_parallel.json")}, false, path("possible_answer/BFCL_v4_parallel.json") + ":1: invalid JSON"},
		{"none", nil, false, "no BFCL question files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "results")
			h := &leaderboard.Harness{Questions: true, Dir: out}
			if own, err := h.Own(tt.files); !own || err != nil {
				t.Fatalf("Own: %v, %v", own, err)
			}
			err := h.Start(filepath.Join(out, "run.jsonl"))
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Close(); err != nil { // before Grade, as toolgrade run calls them
				t.Fatal(err)
			}
			if got, want := h.Summary(), "BFCL results: "+out; got != want {
				t.Errorf("summary %q, want %q", got, want)
			}
			if files, err := os.ReadDir(out); err != nil || len(files) != len(tt.files) {
				t.Errorf("%d result files (%v), want %d", len(files), err, len(tt.files))
			}
			var notes []string
			passed, err := h.Grade(context.Background(), runner.Grading{Note: func(s string) { notes = append(notes, s) }})
			notGraded := len(notes) == 1 && notes[0] == "not graded: toolgrade bfcl wants question files named BFCL_v<N>_<category>.json with possible_answer/ beside them ("+dir+")"
			switch {
			case tt.gradable && (notGraded || err == nil || !strings.Contains(err.Error(), "no result entries")):
				t.Errorf("Grade: %v, %v, notes %q; want the empty result files read", passed, err, notes)
			case !tt.gradable && (!notGraded || !passed || err != nil):
				t.Errorf("Grade: %v, %v, notes %q; want not graded", passed, err, notes)
			}
		})
	}
}

// TestHarnessRecord checks that each run's answer goes to its question
// file's result file, and that its case gets its possible answer, once.
func TestHarnessRecord(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_simple_python.json":                 question("simple_python_0", "x") + question("simple_python_1", "y"),
		"possible_answer/BFCL_v4_simple_python.json": `{"id": "simple_python_0", "ground_truth": [{"f": {"a": [1]}}]}` + "\n",
		"BFCL_v4_irrelevance.json":                   question("irrelevance_0", "x"),
	})
	sp, irr := filepath.Join(dir, "BFCL_v4_simple_python.json"), filepath.Join(dir, "BFCL_v4_irrelevance.json")
	out := t.TempDir()
	h := &leaderboard.Harness{Dir: out}
	if own, err := h.Own([]string{sp, irr}); !own || err != nil {
		t.Fatalf("Own: %v, %v", own, err)
	}
	if err := h.Start("run.jsonl"); err != nil {
		t.Fatal(err)
	}
	record := func(c *toolgrade.Case, a leaderboard.Answer) error {
		return h.Record(&runner.Run{ID: a.ID, Case: c, Calls: a.Calls, Text: a.Text, Error: a.Error, Usage: a.Usage, Latency: a.Latency})
	}
	entry := func(id, source string) *toolgrade.Case {
		c := conformance.ParseCase(t, question(id, "x"))
		c.Source = source
		return c
	}
	c0, c1, ci := entry("simple_python_0", sp), entry("simple_python_1", sp), entry("irrelevance_0", irr)
	elsewhere := entry("simple_python_0", filepath.Join(dir, "other.json"))
	for _, tt := range []struct {
		c *toolgrade.Case
		a leaderboard.Answer
	}{
		{c0, leaderboard.Answer{ID: "simple_python_0", Calls: []toolgrade.Call{{Name: "f", Args: jsonvalue.Object{{Key: "a", Value: jsonvalue.MustFrom(1)}}}}}},
		{nil, leaderboard.Answer{ID: "simple_python_x", Error: "unreadable"}},
		{ci, leaderboard.Answer{ID: "irrelevance_0", Text: "no"}},
		{c1, leaderboard.Answer{ID: "simple_python_1", Error: "timeout"}},
		{elsewhere, leaderboard.Answer{ID: "simple_python_0"}},
	} {
		if err := record(tt.c, tt.a); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	want := map[string]string{
		"BFCL_v4_simple_python_result.json": `{"id":"simple_python_0","result":[{"f":{"a":1}}],"input_token_count":0,"output_token_count":0,"latency":0}` + "\n" +
			`{"id":"simple_python_1","result":"Error during inference: timeout","input_token_count":0,"output_token_count":0,"latency":0}` + "\n",
		"BFCL_v4_irrelevance_result.json": `{"id":"irrelevance_0","result":"no","input_token_count":0,"output_token_count":0,"latency":0}` + "\n",
	}
	for name, text := range want {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || string(got) != text {
			t.Errorf("%s: %v\n%s\nwant\n%s", name, err, got, text)
		}
	}
	// The cases with a possible answer got it, once.
	for _, c := range []*toolgrade.Case{c0, elsewhere} {
		if gt, _ := c.Raw.Get("possible_answer"); jsonvalue.Format(gt) != `[{"f":{"a":[1]}}]` {
			t.Errorf("%s: possible_answer %s", c.ID, jsonvalue.Format(gt))
		}
	}
	if c1.Raw.Has("possible_answer") || ci.Raw.Has("possible_answer") {
		t.Error("a case without a possible answer got one")
	}
	if err := record(c0, leaderboard.Answer{ID: "simple_python_0"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range c0.Raw {
		if m.Key == "possible_answer" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d possible answers", n)
	}
}

// TestHarnessOneTrial checks that a run of BFCL's questions takes one
// trial of each, and that its result files go beside the run file by
// default.
func TestHarnessOneTrial(t *testing.T) {
	var h leaderboard.Harness
	if err := h.Trials(1); err != nil {
		t.Errorf("Trials(1): %v", err)
	}
	if err := h.Trials(3); err == nil || !strings.Contains(err.Error(), "one answer per entry") {
		t.Errorf("Trials(3): %v", err)
	}
	dir := writeTree(t, map[string]string{"BFCL_v4_irrelevance.json": question("irrelevance_0", "x")})
	if own, err := h.Own([]string{filepath.Join(dir, "BFCL_v4_irrelevance.json")}); !own || err != nil {
		t.Fatalf("Own: %v, %v", own, err)
	}
	record := filepath.Join(t.TempDir(), "m.run.jsonl")
	if err := h.Start(record); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got, want := h.Summary(), "BFCL results: "+strings.TrimSuffix(record, ".jsonl")+".bfcl"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
