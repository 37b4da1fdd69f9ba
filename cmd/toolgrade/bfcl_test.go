package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/compat/bfcl"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestBFCLConformanceResults grades a result file built from the
// conformance cases: every entry's gold candidate, except that the first
// two entries of each category give a candidate BFCL rejected. The
// accuracies printed must be the ones the conformance verdicts give, and
// the whole table must match the golden file.
func TestBFCLConformanceResults(t *testing.T) {
	cases := shared.Path(t, "conformance", "bfcl", "bfcl.jsonl")
	type tally struct{ correct, total int }
	want := map[string]*tally{}
	var results strings.Builder
	f, err := os.Open(cases)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	// Each entry's candidates are consecutive lines, gold first.
	var entry string
	var candidates []jsonvalue.Object
	flush := func() {
		if entry == "" {
			return
		}
		cat := bfcl.Category(entry)
		tl := want[cat]
		if tl == nil {
			tl = &tally{}
			want[cat] = tl
		}
		pick := candidates[0]
		if tl.total < 2 {
			for _, c := range candidates {
				exp, _ := c.Get("expect")
				if et, _ := exp.(jsonvalue.Object).Get("error_type"); et != nil {
					pick = c
					break
				}
			}
		}
		exp, _ := pick.Get("expect")
		if et, _ := exp.(jsonvalue.Object).Get("error_type"); et == nil {
			tl.correct++
		}
		tl.total++
		cs, _ := pick.Get("case")
		called, _ := cs.(jsonvalue.Object).Get("tools_called")
		var calls []any
		for _, c := range called.([]any) {
			co := c.(jsonvalue.Object)
			name, _ := co.Get("name")
			args, _ := co.Get("args")
			calls = append(calls, jsonvalue.Object{{Key: name.(string), Value: args}})
		}
		line := jsonvalue.Object{{Key: "id", Value: entry}, {Key: "result", Value: calls}}
		results.Write(jsonvalue.Append(nil, line))
		results.WriteByte('\n')
	}
	for sc.Scan() {
		v, err := jsonvalue.Parse(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		obj := v.(jsonvalue.Object)
		id, _ := obj.Get("id")
		e, _, _ := strings.Cut(id.(string), "#")
		if e != entry {
			flush()
			entry, candidates = e, nil
		}
		candidates = append(candidates, obj)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	flush()

	resultFile := writeFile(t, "BFCL_v4_result.json", results.String())
	out := filepath.Join(t.TempDir(), "entries.jsonl")
	code, stdout, stderr := run(t, "", "bfcl", "--data", shared.Path(t, "conformance", "bfcl"), "--results", resultFile, "--out", out)
	if code != 1 {
		t.Errorf("exit code %d, want 1 (some entries are invalid); stderr: %s", code, stderr)
	}
	for cat, tl := range want {
		re := regexp.MustCompile(`(?m)^` + cat + ` +(\S+) +(\d+) +(\d+)$`)
		m := re.FindStringSubmatch(stdout)
		wantAcc := fmt.Sprintf("%.2f%%", 100*float64(tl.correct)/float64(tl.total))
		if m == nil || m[1] != wantAcc || m[2] != fmt.Sprint(tl.correct) || m[3] != fmt.Sprint(tl.total) {
			t.Errorf("%s: row %q, want %s %d %d", cat, m, wantAcc, tl.correct, tl.total)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n, total := strings.Count(string(data), "\n"), strings.Count(results.String(), "\n"); n != total {
		t.Errorf("--out has %d lines, want %d", n, total)
	}

	checkGolden(t, "bfcl_conformance.golden.txt", stdout)
}

// bfclData writes a small BFCL data directory: two simple_python entries,
// two irrelevance entries and a multi-turn file.
func bfclDataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := `[{"name": "get_weather", "description": "Weather.", "parameters": {"type": "dict", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}]`
	write("BFCL_v4_simple_python.json",
		`{"id": "simple_python_0", "question": [[{"role": "user", "content": "Paris?"}]], "function": `+doc+"}\n"+
			`{"id": "simple_python_1", "question": [[{"role": "user", "content": "Rome, 3 days?"}]], "function": `+doc+"}\n"+
			`{"id": "simple_python_2", "question": [[{"role": "user", "content": "Oslo?"}]], "function": `+doc+"}")
	write("possible_answer/BFCL_v4_simple_python.json",
		`{"id": "simple_python_0", "ground_truth": [{"get_weather": {"city": ["Paris"], "days": ["", 1]}}]}`+"\n"+
			`{"id": "simple_python_1", "ground_truth": [{"get_weather": {"city": ["Rome"], "days": [3]}}]}`+"\n"+
			`{"id": "simple_python_2", "ground_truth": [{"get_weather": {"city": ["Oslo"]}}]}`+"\n")
	write("BFCL_v4_irrelevance.json",
		`{"id": "irrelevance_0", "question": [[{"role": "user", "content": "Tell a joke"}]], "function": `+doc+"}\n"+
			`{"id": "irrelevance_1", "question": [[{"role": "user", "content": "Sing"}]], "function": `+doc+"}\n")
	write("BFCL_v4_multi_turn_base.json", `{"id": "multi_turn_base_0", "question": [], "function": []}`+"\n")
	return dir
}

func TestBFCLCommand(t *testing.T) {
	dir := bfclDataDir(t)
	results := writeFile(t, "result.json", strings.Join([]string{
		`{"id": "simple_python_0", "result": [{"get_weather": {"city": "paris"}}]}`,
		`{"id": "simple_python_1", "result": [{"get_weather": "{\"city\": \"Rome\", \"days\": 3.0}"}], "latency": 1.2}`,
		`{"id": "simple_python_2", "result": "[get_weather(city='Oslo')]"}`,
		`{"id": "irrelevance_0", "result": []}`,
		`{"id": "irrelevance_1", "result": [{"get_weather": {"city": "Nowhere"}}]}`,
		`{"id": "multi_turn_base_0", "result": [[]]}`,
		`{"id": "simple_python_0", "result": []}`,
	}, "\n")+"\n")
	out := filepath.Join(t.TempDir(), "entries.jsonl")
	code, stdout, stderr := run(t, "", "bfcl", "--data", dir, "--results", results, "--out", out)
	if code != 1 {
		t.Errorf("exit code %d, want 1; stderr: %s", code, stderr)
	}
	squeezed := strings.Join(strings.Fields(stdout), " ")
	for _, want := range []string{
		"simple_python 33.33% 1 3",
		"irrelevance 50.00% 1 2",
		"Non-Live Simple AST N/A 3 mean of simple_python, simple_java, simple_javascript",
	} {
		if !strings.Contains(squeezed, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{
		`1 entries of category "multi_turn_base" skipped`,
		"entry simple_python_0 repeats",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	wantReasons := []string{
		`"reason":"valid"`,
		`"reason":"type_error:simple: parameter \"days\": want type integer, got float (3.0)"`,
		`"reason":"ast_decoder:decoder_failed: `,
		`"reason":"valid"`,
		`"reason":"irrelevance_error:decoder_success: `,
	}
	if len(lines) != len(wantReasons) {
		t.Fatalf("--out has %d lines, want %d:\n%s", len(lines), len(wantReasons), data)
	}
	for i, w := range wantReasons {
		if !strings.Contains(lines[i], w) {
			t.Errorf("entry %d: %s\nwant it to contain %s", i, lines[i], w)
		}
	}

	if code, _, stderr := run(t, "", "bfcl", "--exit-zero", "--data", dir, "--results", filepath.Dir(results)); code != 0 {
		t.Errorf("--exit-zero with a results directory: exit code %d; stderr: %s", code, stderr)
	}
}

func TestBFCLCommandErrors(t *testing.T) {
	dir := bfclDataDir(t)
	tests := []struct {
		name    string
		args    []string
		results string
		want    string
	}{
		{"no data flag", []string{"bfcl", "--results", "x"}, "", `required flag(s) "data" not set`},
		{"data is not a directory", []string{"bfcl", "--data", "/nonexistent", "--results", "x"}, "", "not a directory"},
		{"missing results file", []string{"bfcl", "--data", dir, "--results", "/nonexistent/r.json"}, "", "no such file"},
		{"no data for a category", nil, `{"id": "parallel_0", "result": []}`, "no BFCL_v*_parallel.json"},
		{"bad JSON", nil, "{\"id\": \"simple_python_0\", \"result\": []}\n{oops\n", ":2: invalid JSON"},
		{"no id", nil, `{"result": []}`, ":1: want a result object with a string id"},
		{"no result", nil, `{"id": "simple_python_0"}`, "entry simple_python_0 has no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.results != "" {
				args = []string{"bfcl", "--data", dir, "--results", writeFile(t, "r.json", tt.results)}
			}
			code, _, stderr := run(t, "", args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit code %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
		})
	}
}
