package bfcl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestAnswerAppendJSON(t *testing.T) {
	args := jsonvalue.Object{{Key: "b", Value: jsonvalue.MustFrom(1)}, {Key: "a", Value: "x"}}
	tests := []struct {
		name string
		a    bfcl.Answer
		want string
	}{
		{"calls", bfcl.Answer{ID: "parallel_0", Calls: []toolgrade.Call{{Name: "f", Args: args}, {Name: "g.h"}}, Usage: toolgrade.Usage{PromptTokens: 7, CompletionTokens: 3}, Latency: 1500 * time.Microsecond},
			`{"id":"parallel_0","result":[{"f":{"b":1,"a":"x"}},{"g.h":{}}],"input_token_count":7,"output_token_count":3,"latency":0.0015}`},
		{"arguments that are not JSON", bfcl.Answer{ID: "simple_python_0", Calls: []toolgrade.Call{{Name: "f", Invalid: true, ArgsRaw: `{"a": `}}},
			`{"id":"simple_python_0","result":[{"f":"{\"a\": "}],"input_token_count":0,"output_token_count":0,"latency":0}`},
		{"text", bfcl.Answer{ID: "irrelevance_0", Text: "No tool fits.", Latency: 2 * time.Second},
			`{"id":"irrelevance_0","result":"No tool fits.","input_token_count":0,"output_token_count":0,"latency":2}`},
		{"no text, no call", bfcl.Answer{ID: "irrelevance_0"},
			`{"id":"irrelevance_0","result":"","input_token_count":0,"output_token_count":0,"latency":0}`},
		{"error", bfcl.Answer{ID: "live_simple_0-0-0", Calls: []toolgrade.Call{{Name: "f"}}, Error: "step 1: timeout"},
			`{"id":"live_simple_0-0-0","result":"Error during inference: step 1: timeout","input_token_count":0,"output_token_count":0,"latency":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.a.AppendJSON([]byte("> "))); got != "> "+tt.want {
				t.Errorf("got  %s\nwant > %s", got, tt.want)
			}
			// The line reads back as a result entry.
			var rs bfcl.Results
			if err := rs.Read("r.json", strings.NewReader(tt.want)); err != nil || len(rs.Entries) != 1 || rs.Entries[0].ID != tt.a.ID {
				t.Errorf("read back: %v, %+v", err, rs.Entries)
			}
		})
	}
}

func TestResultWriter(t *testing.T) {
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
			w, err := bfcl.NewResultWriter(out, tt.files)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if w.Gradable() != tt.gradable || w.Data() != dir || w.Dir() != out || len(w.Files()) != len(tt.files) {
				t.Errorf("gradable %v, data %s, dir %s, files %q", w.Gradable(), w.Data(), w.Dir(), w.Files())
			}
		})
	}
}

func TestResultWriterWrite(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_simple_python.json":                 question("simple_python_0", "x") + question("simple_python_1", "y"),
		"possible_answer/BFCL_v4_simple_python.json": `{"id": "simple_python_0", "ground_truth": [{"f": {"a": [1]}}]}` + "\n",
		"BFCL_v4_irrelevance.json":                   question("irrelevance_0", "x"),
	})
	sp, irr := filepath.Join(dir, "BFCL_v4_simple_python.json"), filepath.Join(dir, "BFCL_v4_irrelevance.json")
	out := t.TempDir()
	w, err := bfcl.NewResultWriter(out, []string{sp, irr})
	if err != nil {
		t.Fatal(err)
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
		a bfcl.Answer
	}{
		{c0, bfcl.Answer{ID: "simple_python_0", Calls: []toolgrade.Call{{Name: "f", Args: jsonvalue.Object{{Key: "a", Value: jsonvalue.MustFrom(1)}}}}}},
		{nil, bfcl.Answer{ID: "simple_python_x", Error: "unreadable"}},
		{ci, bfcl.Answer{ID: "irrelevance_0", Text: "no"}},
		{c1, bfcl.Answer{ID: "simple_python_1", Error: "timeout"}},
		{elsewhere, bfcl.Answer{ID: "simple_python_0"}},
	} {
		if err := w.Write(tt.c, &tt.a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
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
	if err := w.Write(c0, &bfcl.Answer{ID: "simple_python_0"}); err != nil {
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
