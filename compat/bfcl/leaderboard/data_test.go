package leaderboard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
)

// weatherDoc is the function docs of the small data sets below.
const weatherDoc = `[{"name": "get_weather", "description": "Weather.", "parameters": {"type": "dict", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}]`

// question is a question-file line asking q with weatherDoc.
func question(id, q string) string {
	return `{"id": "` + id + `", "question": [[{"role": "user", "content": "` + q + `"}]], "function": ` + weatherDoc + "}\n"
}

// writeTree writes files (path → text) under a new directory.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// smallData is a data folder with three simple_python entries, two
// irrelevance entries, and an older version of simple_python that must be
// ignored.
func smallData(t testing.TB) string {
	return writeTree(t, map[string]string{
		"BFCL_v4_simple_python.json": question("simple_python_0", "Paris?") + question("simple_python_1", "Rome, 3 days?") + question("simple_python_2", "Oslo?"),
		"possible_answer/BFCL_v4_simple_python.json": `{"id": "simple_python_0", "ground_truth": [{"get_weather": {"city": ["Paris"], "days": ["", 1]}}]}` + "\n" +
			`{"id": "simple_python_1", "ground_truth": [{"get_weather": {"city": ["Rome"], "days": [3]}}]}` + "\n" +
			`{"id": "simple_python_2", "ground_truth": [{"get_weather": {"city": ["Oslo"]}}]}` + "\n",
		"BFCL_v3_simple_python.json":                 `{"id": "simple_python_0", "function": []}` + "\n",
		"possible_answer/BFCL_v3_simple_python.json": `{"id": "simple_python_0", "ground_truth": []}` + "\n",
		"BFCL_v4_irrelevance.json":                   question("irrelevance_0", "Tell a joke") + question("irrelevance_1", "Sing"),
	})
}

func TestOpenData(t *testing.T) {
	dir := smallData(t)
	tests := []struct {
		name, dir, want string
	}{
		{"directory", dir, ""},
		{"missing", filepath.Join(dir, "nope"), "nope: not a directory"},
		{"file", filepath.Join(dir, "BFCL_v4_irrelevance.json"), "BFCL_v4_irrelevance.json: not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := leaderboard.OpenData(tt.dir)
			if tt.want == "" {
				if err != nil || d == nil {
					t.Fatalf("OpenData: %v", err)
				}
				return
			}
			if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
				t.Errorf("error %v, want one ending %q", err, tt.want)
			}
		})
	}
}

// TestDataErrors checks that a category's files are read when its
// entries are graded, with errors naming the file, line and field.
func TestDataErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		id    string // the one entry graded
		want  string // the error, with DIR for the directory
	}{
		{"no question file", nil, "parallel_0", "DIR: no BFCL_v*_parallel.json for the parallel results"},
		{"no possible answers", map[string]string{"BFCL_v4_multiple.json": question("multiple_0", "x"), "possible_answer/BFCL_v4_parallel.json": ""}, "multiple_0",
			"DIR/possible_answer: no BFCL_v*_multiple.json for the multiple results"},
		{"no possible_answer directory", map[string]string{"BFCL_v4_multiple.json": question("multiple_0", "x")}, "multiple_0",
			"open DIR/possible_answer: no such file or directory"},
		{"relevance needs no answers", map[string]string{"BFCL_v4_live_relevance.json": question("live_relevance_0", "x")}, "live_relevance_0", ""},
		{"question without id", map[string]string{"BFCL_v4_parallel.json": `{"id": 3, "function": []}`}, "parallel_0",
			"DIR/BFCL_v4_parallel.json:1: want an entry with a string id"},
		{"question not JSON", map[string]string{"BFCL_v4_parallel.json": question("parallel_0", "x") + "\n{oops\n"}, "parallel_0",
			"DIR/BFCL_v4_parallel.json:3: invalid JSON"},
		{"answer without ground truth", map[string]string{
			"BFCL_v4_parallel.json":                 question("parallel_0", "x"),
			"possible_answer/BFCL_v4_parallel.json": `{"id": "parallel_0"}`,
		}, "parallel_0", "DIR/possible_answer/BFCL_v4_parallel.json:1: want an entry with a string id and ground_truth"},
		{"skipped categories read nothing", nil, "multi_turn_base_0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			d, err := leaderboard.OpenData(dir)
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.Grade(context.Background(), []leaderboard.Entry{{ID: tt.id, Result: []any{}, Where: "r.json:1"}})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(strings.ReplaceAll(err.Error(), dir, "DIR"), tt.want)):
				t.Errorf("error %v, want %s...", err, tt.want)
			}
		})
	}
}
