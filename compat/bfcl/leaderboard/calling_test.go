package leaderboard_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
)

// dottedDoc is a function doc with a dotted name, as many of BFCL's are.
const dottedDoc = `[{"name": "math.factorial", "description": "n!", "parameters": {"type": "dict", "properties": {"number": {"type": "integer"}}, "required": ["number"]}}]`

// TestGradeCalling checks how Data.Grade reads a result file's names:
// a function-calling model's "_" form of a dotted name is that function,
// decided per file from the model's "-FC" name or from the calls, or as
// the entries say.
func TestGradeCalling(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"BFCL_v4_simple_python.json": `{"id": "simple_python_0", "question": [], "function": ` + dottedDoc + "}\n" +
			`{"id": "simple_python_1", "question": [], "function": ` + dottedDoc + "}\n",
		"possible_answer/BFCL_v4_simple_python.json": `{"id": "simple_python_0", "ground_truth": [{"math.factorial": {"number": [5]}}]}` + "\n" +
			`{"id": "simple_python_1", "ground_truth": [{"math.factorial": {"number": [7]}}]}` + "\n",
	})
	underscored := `{"id": "simple_python_0", "result": [{"math_factorial": "{\"number\": 5}"}]}` + "\n" +
		`{"id": "simple_python_1", "result": [{"math_factorial": {"number": 7}}]}` + "\n"
	dotted := `{"id": "simple_python_0", "result": [{"math.factorial": {"number": 5}}]}` + "\n" +
		`{"id": "simple_python_1", "result": [{"math.factorial": {"number": 7}}]}` + "\n"
	mixed := `{"id": "simple_python_0", "result": [{"math.factorial": {"number": 5}}]}` + "\n" +
		`{"id": "simple_python_1", "result": [{"math_factorial": {"number": 7}}]}` + "\n"
	tests := []struct {
		name    string
		file    string // path under the results directory
		text    string
		calling leaderboard.Calling
		valid   int
		reading leaderboard.Calling // reported reading; 0 when none is reported
		reason  string
	}{
		{"FC model directory", "gpt-4o-2024-11-20-FC/BFCL_v4_simple_python_result.json", underscored, leaderboard.DetectCalling, 2, leaderboard.FunctionCalling, `the model "gpt-4o-2024-11-20-FC"`},
		{"names only", "model/BFCL_v4_simple_python_result.json", underscored, leaderboard.DetectCalling, 2, leaderboard.FunctionCalling, `2 calls name a dotted function`},
		{"prompting model", "gpt-4o-2024-11-20/BFCL_v4_simple_python_result.json", dotted, leaderboard.DetectCalling, 2, 0, ""},
		{"mixed names read as documented", "model/r.json", mixed, leaderboard.DetectCalling, 1, leaderboard.Prompting, `but 1 with its dots`},
		{"told prompting", "model-FC/r.json", underscored, leaderboard.Prompting, 0, 0, ""},
		{"told function-calling", "model/r.json", underscored, leaderboard.FunctionCalling, 2, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(writeTree(t, map[string]string{tt.file: tt.text}), tt.file)
			rs, err := leaderboard.ReadResults(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rs.Entries {
				rs.Entries[i].Calling = tt.calling
			}
			data, err := leaderboard.OpenData(dir)
			if err != nil {
				t.Fatal(err)
			}
			s, err := data.Grade(context.Background(), rs.Entries)
			if err != nil {
				t.Fatal(err)
			}
			valid := 0
			for i := range s.Entries {
				if s.Entries[i].Valid() {
					valid++
				}
			}
			if valid != tt.valid {
				t.Errorf("%d valid entries, want %d: %+v", valid, tt.valid, s.Entries)
			}
			switch {
			case tt.reading == 0 && len(s.Calling) != 0:
				t.Errorf("reported %v, want no report", s.Calling)
			case tt.reading != 0 && (len(s.Calling) != 1 || s.Calling[0].Calling != tt.reading || !strings.Contains(s.Calling[0].String(), tt.reason) || s.Calling[0].File != path):
				t.Errorf("reported %v, want %v for %s (%s)", s.Calling, tt.reading, path, tt.reason)
			}
		})
	}
}

// TestGradeV3 grades a BFCL v3 data folder and result file: v3's
// category names (simple, java, javascript, live_simple, ...) take the
// places of v4's in the table and its summary rows, and v3's executable
// categories are not graded.
func TestGradeV3(t *testing.T) {
	javaDoc := `[{"name": "Foo.bar", "description": "x", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}]`
	jsDoc := `[{"name": "baz", "description": "x", "parameters": {"type": "dict", "properties": {"s": {"type": "String"}}, "required": ["s"]}}]`
	dir := writeTree(t, map[string]string{
		"BFCL_v3_simple.json":                            question("simple_0", "Paris?") + question("simple_1", "Rome?"),
		"possible_answer/BFCL_v3_simple.json":            `{"id": "simple_0", "ground_truth": [{"get_weather": {"city": ["Paris"]}}]}` + "\n" + `{"id": "simple_1", "ground_truth": [{"get_weather": {"city": ["Rome"]}}]}` + "\n",
		"BFCL_v3_java.json":                              `{"id": "java_0", "question": [], "function": ` + javaDoc + "}\n",
		"possible_answer/BFCL_v3_java.json":              `{"id": "java_0", "ground_truth": [{"Foo.bar": {"n": [3]}}]}` + "\n",
		"BFCL_v3_javascript.json":                        `{"id": "javascript_0", "question": [], "function": ` + jsDoc + "}\n",
		"possible_answer/BFCL_v3_javascript.json":        `{"id": "javascript_0", "ground_truth": [{"baz": {"s": ["x"]}}]}` + "\n",
		"BFCL_v3_multiple.json":                          question("multiple_0", "Oslo?"),
		"possible_answer/BFCL_v3_multiple.json":          `{"id": "multiple_0", "ground_truth": [{"get_weather": {"city": ["Oslo"]}}]}` + "\n",
		"BFCL_v3_parallel.json":                          question("parallel_0", "Oslo and Rome?"),
		"possible_answer/BFCL_v3_parallel.json":          `{"id": "parallel_0", "ground_truth": [{"get_weather": {"city": ["Oslo"]}}, {"get_weather": {"city": ["Rome"]}}]}` + "\n",
		"BFCL_v3_parallel_multiple.json":                 question("parallel_multiple_0", "Oslo?"),
		"possible_answer/BFCL_v3_parallel_multiple.json": `{"id": "parallel_multiple_0", "ground_truth": [{"get_weather": {"city": ["Oslo"]}}]}` + "\n",
		"BFCL_v3_irrelevance.json":                       question("irrelevance_0", "Joke?"),
		"BFCL_v3_live_simple.json":                       question("live_simple_0-0-0", "Paris?"),
		"possible_answer/BFCL_v3_live_simple.json":       `{"id": "live_simple_0-0-0", "ground_truth": [{"get_weather": {"city": ["Paris"]}}]}` + "\n",
		"BFCL_v3_exec_simple.json":                       question("exec_simple_0", "Paris?"),
	})
	results := writeTree(t, map[string]string{
		"BFCL_v3_simple_result.json": `{"id": "simple_0", "result": [{"get_weather": {"city": "Paris"}}]}` + "\n" +
			`{"id": "simple_1", "result": [{"get_weather": {"city": "Oslo"}}]}` + "\n",
		"BFCL_v3_java_result.json":              `{"id": "java_0", "result": [{"Foo.bar": {"n": "3"}}]}` + "\n",
		"BFCL_v3_javascript_result.json":        `{"id": "javascript_0", "result": [{"baz": {"s": "x"}}]}` + "\n",
		"BFCL_v3_multiple_result.json":          `{"id": "multiple_0", "result": [{"get_weather": {"city": "Oslo"}}]}` + "\n",
		"BFCL_v3_parallel_result.json":          `{"id": "parallel_0", "result": [{"get_weather": {"city": "Rome"}}, {"get_weather": {"city": "Oslo"}}]}` + "\n",
		"BFCL_v3_parallel_multiple_result.json": `{"id": "parallel_multiple_0", "result": []}` + "\n",
		"BFCL_v3_irrelevance_result.json":       `{"id": "irrelevance_0", "result": []}` + "\n",
		"BFCL_v3_live_simple_result.json":       `{"id": "live_simple_0-0-0", "result": [{"get_weather": {"city": "Paris"}}]}` + "\n",
		"BFCL_v3_exec_simple_result.json":       `{"id": "exec_simple_0", "result": [{"get_weather": {"city": "Paris"}}]}` + "\n",
	})
	rs, err := leaderboard.ReadResults(results)
	if err != nil {
		t.Fatal(err)
	}
	data, err := leaderboard.OpenData(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := data.Grade(context.Background(), rs.Entries)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Skipped) != 1 || s.Skipped[0].Category != "exec_simple" {
		t.Errorf("skipped %v, want the exec_simple entry", s.Skipped)
	}
	var b strings.Builder
	if err := s.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		"simple 50.00% 1 2 java 100.00% 1 1 javascript 100.00% 1 1 multiple 100.00% 1 1 parallel 100.00% 1 1 parallel_multiple 0.00% 0 1 irrelevance 100.00% 1 1 live_simple 100.00% 1 1",
		"Non-Live Simple AST 83.33% 4",  // (50 + 100 + 100) / 3
		"Non-Live AST Summary 70.83% 7", // (83.33 + 100 + 100 + 0) / 4
		"Non-Live Overall 76.67% 8",     // (83.33 + 100 + 100 + 0 + 100) / 5
		"Live AST Summary N/A 1",        // live_multiple, ... have no results
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
