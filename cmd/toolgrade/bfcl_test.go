package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	data := shared.Path(t, "conformance", "bfcl")
	results, want, _ := conformanceResults(t, filepath.Join(data, "bfcl.jsonl"), false)
	resultFile := writeFile(t, "BFCL_v4_result.json", results)
	out := filepath.Join(t.TempDir(), "entries.jsonl")
	code, stdout, stderr := run(t, "", "bfcl", "--data", data, "--results", resultFile, "--out", out)
	if code != 1 {
		t.Errorf("exit code %d, want 1 (some entries are invalid); stderr: %s", code, stderr)
	}
	checkRows(t, stdout, want)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n, total := strings.Count(string(got), "\n"), strings.Count(results, "\n"); n != total {
		t.Errorf("--out has %d lines, want %d", n, total)
	}

	checkGolden(t, "bfcl_conformance.golden.txt", stdout)
}

// TestBFCLFunctionCalling grades a function-calling model's result file:
// the conformance candidates with every dotted function name in the "_"
// form BFCL sends such a model. Without being told, toolgrade bfcl must
// read it as BFCL does and give the conformance verdicts: from the model's
// "-FC" directory, from the names alone, and with --function-calling; with
// --prompting the renamed calls fail. It runs on the trimmed data folder
// committed in compat/bfcl/testdata, and on the whole corpus when present.
func TestBFCLFunctionCalling(t *testing.T) {
	sources := []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"testdata", func(*testing.T) string { return filepath.Join("..", "..", "compat", "bfcl", "testdata") }},
		{"shared", func(t *testing.T) string { return shared.Path(t, "conformance", "bfcl") }},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			src := struct{ dir string }{src.dir(t)}
			results, want, renamed := conformanceResults(t, filepath.Join(src.dir, "bfcl.jsonl"), true)
			if renamed == 0 {
				t.Fatal("no entry calls a dotted function: the test checks nothing")
			}
			plain := writeFile(t, "BFCL_v4_result.json", results)
			fcDir := filepath.Join(t.TempDir(), "result", "gpt-4o-2024-11-20-FC", "non_live")
			if err := os.MkdirAll(fcDir, 0o755); err != nil {
				t.Fatal(err)
			}
			fcFile := filepath.Join(fcDir, "BFCL_v4_result.json")
			if err := os.WriteFile(fcFile, []byte(results), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, tt := range []struct {
				name   string
				args   []string
				stderr string
			}{
				{"model directory", []string{"--results", fcFile}, `the model "gpt-4o-2024-11-20-FC" is a function-calling one`},
				{"names", []string{"--results", plain}, `with "_" for ".", as BFCL sends the names to function-calling models`},
				{"flag", []string{"--function-calling", "--results", plain}, ""},
			} {
				t.Run(tt.name, func(t *testing.T) {
					code, stdout, stderr := run(t, "", append([]string{"bfcl", "--data", src.dir}, tt.args...)...)
					if code != 1 {
						t.Errorf("exit code %d, want 1 (some entries are invalid); stderr: %s", code, stderr)
					}
					if !strings.Contains(stderr, "graded as a function-calling model's results") && tt.stderr != "" {
						t.Errorf("stderr does not report the reading:\n%s", stderr)
					}
					if !strings.Contains(stderr, tt.stderr) {
						t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr)
					}
					checkRows(t, stdout, want)
				})
			}
			t.Run("prompting", func(t *testing.T) {
				_, stdout, _ := run(t, "", "bfcl", "--prompting", "--data", src.dir, "--results", fcFile)
				lower := 0
				for cat, tl := range want {
					if c, ok := row(stdout, cat); ok && c < tl.correct {
						lower++
					}
				}
				if lower == 0 {
					t.Errorf("--prompting scored the renamed calls as valid:\n%s", stdout)
				}
			})
		})
	}
}

// A tally counts an entry category's valid and graded entries.
type tally struct{ correct, total int }

// checkRows checks the table's category rows against the tallies.
func checkRows(t *testing.T, stdout string, want map[string]*tally) {
	t.Helper()
	for cat, tl := range want {
		re := regexp.MustCompile(`(?m)^` + cat + ` +(\S+) +(\d+) +(\d+)$`)
		m := re.FindStringSubmatch(stdout)
		wantAcc := fmt.Sprintf("%.2f%%", 100*float64(tl.correct)/float64(tl.total))
		if m == nil || m[1] != wantAcc || m[2] != fmt.Sprint(tl.correct) || m[3] != fmt.Sprint(tl.total) {
			t.Errorf("%s: row %q, want %s %d %d", cat, m, wantAcc, tl.correct, tl.total)
		}
	}
}

// row returns a category row's correct count.
func row(stdout, cat string) (int, bool) {
	m := regexp.MustCompile(`(?m)^` + cat + ` +\S+ +(\d+) +\d+$`).FindStringSubmatch(stdout)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// conformanceResults builds a result file from conformance cases: each
// entry's gold candidate, except that the first two entries of each
// category give a candidate BFCL rejected; it returns the file's text and
// the tallies its verdicts give. With fc, the calls name dotted functions
// in the "_" form, as a function-calling model's do (renamed counts the
// entries so changed), and candidates that already named a dotted
// function so (a prompting model's mistake, which is none for a
// function-calling model) are not picked.
func conformanceResults(t *testing.T, cases string, fc bool) (string, map[string]*tally, int) {
	t.Helper()
	want := map[string]*tally{}
	renamed := 0
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
				if et, _ := exp.(jsonvalue.Object).Get("error_type"); et != nil && !(fc && underscored(c)) {
					pick = c
					break
				}
			}
		}
		if fc && underscored(pick) {
			return // the gold itself names a dotted function in "_" form
		}
		exp, _ := pick.Get("expect")
		if et, _ := exp.(jsonvalue.Object).Get("error_type"); et == nil {
			tl.correct++
		}
		tl.total++
		cs, _ := pick.Get("case")
		called, _ := cs.(jsonvalue.Object).Get("tools_called")
		var calls []any
		changed := false
		for _, c := range called.([]any) {
			co := c.(jsonvalue.Object)
			name, _ := co.Get("name")
			args, _ := co.Get("args")
			n := name.(string)
			if fc && strings.Contains(n, ".") {
				n = strings.ReplaceAll(n, ".", "_")
				changed = true
			}
			calls = append(calls, jsonvalue.Object{{Key: n, Value: args}})
		}
		if changed {
			renamed++
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
	for cat, tl := range want {
		if tl.total == 0 {
			delete(want, cat)
		}
	}
	return results.String(), want, renamed
}

// underscored reports a conformance candidate whose calls name a dotted
// function of its docs with "_" for ".".
func underscored(candidate jsonvalue.Object) bool {
	cs, _ := candidate.Get("case")
	tools, _ := cs.(jsonvalue.Object).Get("available_tools")
	called, _ := cs.(jsonvalue.Object).Get("tools_called")
	docs, _ := tools.([]any)
	calls, _ := called.([]any)
	for _, d := range docs {
		o, _ := d.(jsonvalue.Object)
		v, _ := o.Get("name")
		n, _ := v.(string)
		if !strings.Contains(n, ".") {
			continue
		}
		for _, c := range calls {
			co, _ := c.(jsonvalue.Object)
			cn, _ := co.Get("name")
			if cn == strings.ReplaceAll(n, ".", "_") {
				return true
			}
		}
	}
	return false
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
		`"reason":"type_error:simple: parameter \"days\": expected type integer, got float (3.0)"`,
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
		{"no data flag", []string{"bfcl", "--results", "x"}, "", `bfcl: give --data (required flag(s) "data" not set; toolgrade help bfcl lists every flag)`},
		{"data is not a directory", []string{"bfcl", "--data", "/nonexistent", "--results", "x"}, "", "not a directory"},
		{"missing results file", []string{"bfcl", "--data", dir, "--results", "/nonexistent/r.json"}, "", "no such file"},
		{"no data for a category", nil, `{"id": "parallel_0", "result": []}`, "no BFCL_v*_parallel.json"},
		{"bad JSON", nil, "{\"id\": \"simple_python_0\", \"result\": []}\n{oops\n", ":2: invalid JSON"},
		{"no id", nil, `{"result": []}`, ":1: want a result object with a string id"},
		{"no result", nil, `{"id": "simple_python_0"}`, "entry simple_python_0 has no result"},
		{"no entries", nil, "\n", "r.json: no result entries"},
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
