package leaderboard_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
)

func TestGrade(t *testing.T) {
	dir := smallData(t)
	// An entry without a possible answer: its question is there, its
	// answer not.
	results := writeTree(t, map[string]string{"r.json": strings.Join([]string{
		`{"id": "simple_python_0", "result": [{"get_weather": {"city": "paris"}}]}`,
		`{"id": "simple_python_1", "result": [{"get_weather": "{\"city\": \"Rome\", \"days\": 3.0}"}], "latency": 1.2}`,
		`{"id": "simple_python_2", "result": "[get_weather(city='Oslo')]"}`,
		`{"id": "irrelevance_0", "result": []}`,
		`{"id": "irrelevance_1", "result": [{"get_weather": {"city": "Nowhere"}}]}`,
		`{"id": "multi_turn_base_0", "result": [[]]}`,
		`{"id": "multi_turn_base_1", "result": [[]]}`,
		`{"id": "web_search_0", "result": []}`,
		`{"id": "simple_python_7", "result": []}`,
		`{"id": "simple_python_0", "result": []}`,
	}, "\n")})
	d, err := leaderboard.OpenData(dir)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := leaderboard.ReadResults(results + "/r.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Grade(context.Background(), rs.Entries)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, reason, err string
		valid           bool
	}{
		{"simple_python_0", "valid", "", true},
		{"simple_python_1", `type_error:simple: parameter "days": expected type integer, got float (3.0)`, "", false},
		{"simple_python_2", "ast_decoder:decoder_failed: the result is model text, not decoded calls (toolgrade reads BFCL's decoded form)", "", false},
		{"irrelevance_0", "valid", "", true},
		{"irrelevance_1", "irrelevance_error:decoder_success: the result holds a function call, and should not", "", false},
		{"simple_python_7", "", "no question simple_python_7 in the simple_python data", false},
	}
	if len(s.Entries) != len(want) {
		t.Fatalf("%d entries graded, want %d", len(s.Entries), len(want))
	}
	for i, w := range want {
		t.Run(w.id, func(t *testing.T) {
			g := s.Entries[i]
			if g.ID != w.id || g.Result.Reason != w.reason || g.Result.Error != w.err || g.Valid() != w.valid {
				t.Errorf("got %s: reason %q, error %q, valid %v\nwant %s: %q, %q, %v", g.ID, g.Result.Reason, g.Result.Error, g.Valid(), w.id, w.reason, w.err, w.valid)
			}
		})
	}
	if got := string(s.Entries[0].AppendJSON(nil)); got != `{"id":"simple_python_0","success":true,"metrics":[{"name":"tool_correctness","profile":"bfcl","score":1,"success":true,"threshold":1,"reason":"valid","error":null}]}` {
		t.Errorf("result line %s", got)
	}
	if got := fmt.Sprint(s.Skipped); got != `[2 entries of category "multi_turn_base" skipped: only the AST and relevance categories are graded 1 entries of category "web_search" skipped: only the AST and relevance categories are graded]` {
		t.Errorf("skipped: %s", got)
	}
	if got := fmt.Sprint(s.Categories); got != "[{irrelevance 1 2 2} {simple_python 1 4 3}]" {
		t.Errorf("categories: %s", got)
	}
	for _, c := range s.Categories {
		if c.Missing() != 0 {
			t.Errorf("%s: %d missing", c.Category, c.Missing())
		}
	}
	if s.AllValid() {
		t.Error("all valid")
	}

	// Grading again reads no file (the folder is gone), and a subset may
	// be all valid.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	s, err = d.Grade(context.Background(), rs.Entries[:1])
	if err != nil || !s.AllValid() || len(s.Categories) != 1 || s.Categories[0].Missing() != 2 {
		t.Errorf("one entry: %v, %+v", err, s)
	}
}

func TestGradeNoAnswer(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_multiple.json":                 question("multiple_0", "x") + question("multiple_1", "y"),
		"possible_answer/BFCL_v4_multiple.json": `{"id": "multiple_0", "ground_truth": [{"get_weather": {"city": ["x"]}}]}`,
	})
	d, err := leaderboard.OpenData(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Grade(context.Background(), []leaderboard.Entry{{ID: "multiple_1", Result: []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Entries[0].Result.Error; got != "no possible answer for multiple_1 in the multiple data" {
		t.Errorf("error %q", got)
	}
}

// TestGradeOtherCategory: a category whose files the data folder has is
// graded from them, even one the metric's category option refuses.
func TestGradeOtherCategory(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_multiple_function.json":                 question("multiple_function_0", "x"),
		"possible_answer/BFCL_v4_multiple_function.json": `{"id": "multiple_function_0", "ground_truth": [{"get_weather": {"city": ["x"]}}]}`,
	})
	d, err := leaderboard.OpenData(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Grade(context.Background(), []leaderboard.Entry{{ID: "multiple_function_0", Result: []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Entries[0].Result.Reason; got != "multiple_function_checker:wrong_count: expected 1 call(s), got 0" {
		t.Errorf("reason %q", got)
	}
}

func TestWriteTable(t *testing.T) {
	header := func(width int) string {
		return fmt.Sprintf("%-*s  %8s  %7s  %7s\n", width, "Category", "Accuracy", "Correct", "Total")
	}
	tests := []struct {
		name string
		cats []leaderboard.Tally
		want string
	}{
		{"none", nil, header(20) + `
Summary               Accuracy  Entries  Computed as
Non-Live Simple AST        N/A        0  mean of simple_python, simple_java, simple_javascript
Non-Live AST Summary       N/A        0  mean of Simple AST, multiple, parallel, parallel_multiple
Non-Live Overall           N/A        0  mean of the above and irrelevance
Live AST Summary           N/A        0  weighted by entries: live_simple, live_multiple, live_parallel, live_parallel_multiple
Live Overall               N/A        0  weighted: the above, live_irrelevance, live_relevance
`},
		{"every category", []leaderboard.Tally{
			{Category: "irrelevance", Correct: 9, Total: 10},
			{Category: "live_irrelevance", Correct: 1, Total: 4},
			{Category: "live_multiple", Correct: 3, Total: 4},
			{Category: "live_parallel", Correct: 1, Total: 1},
			{Category: "live_parallel_multiple", Correct: 0, Total: 1},
			{Category: "live_relevance", Correct: 2, Total: 2},
			{Category: "live_simple", Correct: 1, Total: 2},
			{Category: "multiple", Correct: 1, Total: 2},
			{Category: "parallel", Correct: 2, Total: 2},
			{Category: "parallel_multiple", Correct: 0, Total: 2},
			{Category: "simple_java", Correct: 1, Total: 4},
			{Category: "simple_javascript", Correct: 1, Total: 1},
			{Category: "simple_python", Correct: 1, Total: 2},
		}, `Category                Accuracy  Correct    Total
simple_python             50.00%        1        2
simple_java               25.00%        1        4
simple_javascript        100.00%        1        1
multiple                  50.00%        1        2
parallel                 100.00%        2        2
parallel_multiple          0.00%        0        2
irrelevance               90.00%        9       10
live_simple               50.00%        1        2
live_multiple             75.00%        3        4
live_parallel            100.00%        1        1
live_parallel_multiple     0.00%        0        1
live_irrelevance          25.00%        1        4
live_relevance           100.00%        2        2

Summary                 Accuracy  Entries  Computed as
Non-Live Simple AST       58.33%        7  mean of simple_python, simple_java, simple_javascript
Non-Live AST Summary      52.08%       13  mean of Simple AST, multiple, parallel, parallel_multiple
Non-Live Overall          59.67%       23  mean of the above and irrelevance
Live AST Summary          62.50%        8  weighted by entries: live_simple, live_multiple, live_parallel, live_parallel_multiple
Live Overall              57.14%       14  weighted: the above, live_irrelevance, live_relevance
`},
		{"BFCL v3 names, and others by name", []leaderboard.Tally{
			{Category: "aaa_other", Correct: 1, Total: 1},
			{Category: "java", Correct: 1, Total: 2},
			{Category: "javascript", Correct: 0, Total: 1},
			{Category: "simple", Correct: 2, Total: 2},
			{Category: "zz_a_very_long_category_name", Correct: 0, Total: 3},
		}, `Category                      Accuracy  Correct    Total
simple                         100.00%        2        2
java                            50.00%        1        2
javascript                       0.00%        0        1
aaa_other                      100.00%        1        1
zz_a_very_long_category_name     0.00%        0        3

Summary                       Accuracy  Entries  Computed as
Non-Live Simple AST             50.00%        5  mean of simple_python, simple_java, simple_javascript
Non-Live AST Summary               N/A        5  mean of Simple AST, multiple, parallel, parallel_multiple
Non-Live Overall                   N/A        5  mean of the above and irrelevance
Live AST Summary                   N/A        0  weighted by entries: live_simple, live_multiple, live_parallel, live_parallel_multiple
Live Overall                       N/A        0  weighted: the above, live_irrelevance, live_relevance
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := (&leaderboard.Scores{Categories: tt.cats}).WriteTable(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}
