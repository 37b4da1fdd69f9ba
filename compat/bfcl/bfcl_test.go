package bfcl_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// TestBFCLConformance checks every line of bfcl.jsonl (the package's
// sample, and the shared corpus's bfcl/bfcl.jsonl when present): the
// verdict (score and success) through the metric built from the line's
// config, and BFCL's error_type exactly, both through Check and at the
// start of the metric's reason.
func TestBFCLConformance(t *testing.T) {
	for _, src := range conformance.Sources("bfcl") {
		t.Run(src.Name, func(t *testing.T) {
			testBFCLLines(t, src.Load(t, "bfcl.jsonl"))
		})
	}
}

func testBFCLLines(t *testing.T, lines []conformance.Line) {
	type failure struct {
		line int
		msg  string
	}
	var (
		mu       sync.Mutex
		failures []failure
	)
	fail := func(l conformance.Line, format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, failure{l.Line, fmt.Sprintf("%s (line %d): ", l.ID, l.Line) + fmt.Sprintf(format, args...)})
	}
	// The lines are independent; check them on every CPU.
	var wg sync.WaitGroup
	next := make(chan conformance.Line)
	for range 8 {
		wg.Go(func() {
			for l := range next {
				checkBFCLLine(t, l, fail)
			}
		})
	}
	for _, l := range lines {
		next <- l
	}
	close(next)
	wg.Wait()
	slices.SortFunc(failures, func(a, b failure) int { return a.line - b.line })
	for i, f := range failures {
		if i == 40 {
			t.Errorf("... and %d more", len(failures)-i)
			break
		}
		t.Error(f.msg)
	}
	t.Logf("%d lines, %d mismatches", len(lines), len(failures))
}

func checkBFCLLine(t *testing.T, l conformance.Line, fail func(conformance.Line, string, ...any)) {
	wantType := ""
	if et, _ := l.Expect.Get("error_type"); et != nil {
		wantType = et.(string)
	}
	r := conformance.Grade(t, l, nil)
	if r.Error != "" {
		fail(l, "unexpected error: %s", r.Error)
		return
	}
	wantValid := wantType == ""
	if got := r.Score == 1 && r.Success; got != wantValid {
		fail(l, "valid %v, want %v (reason: %s)", got, wantValid, r.Reason)
		return
	}
	if !wantValid && !strings.HasPrefix(r.Reason, wantType+": ") {
		fail(l, "reason %q does not start with error type %q", r.Reason, wantType)
	}

	c, err := dataset.DecodeCase(l.Case)
	if err != nil {
		fail(l, "%v", err)
		return
	}
	cat, _ := l.Config.Get("category")
	lang, _ := l.Config.Get("language")
	answer, _ := c.Raw.Get("possible_answer")
	v, err := bfcl.Check(cat.(string), lang.(string), schema.Definitions(c), answer, c.Called)
	if err != nil {
		fail(l, "Check: %v", err)
		return
	}
	if v.ErrorType != wantType || v.Valid != wantValid {
		fail(l, "Check: error type %q (valid %v), want %q; %s", v.ErrorType, v.Valid, wantType, v.Message)
	}
}

// TestBFCLDataFilesLoad reads every question and possible-answer file of
// BFCL's data (the package's sample of it, and the shared corpus's bfcl
// folder when present) and checks that the gold answer built from each
// entry's first acceptable values is graded without an error.
func TestBFCLDataFilesLoad(t *testing.T) {
	for _, src := range conformance.Sources("bfcl") {
		t.Run(src.Name, func(t *testing.T) {
			testBFCLDataFiles(t, src.Dir(t))
		})
	}
}

func testBFCLDataFiles(t *testing.T, dir string) {
	files, err := filepath.Glob(filepath.Join(dir, "possible_answer", "BFCL_v4_*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no possible-answer files in %s (%v)", dir, err)
	}
	for _, ansFile := range files {
		category := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(ansFile), "BFCL_v4_"), ".json")
		t.Run(category, func(t *testing.T) {
			questions := readBFCLFile(t, filepath.Join(dir, filepath.Base(ansFile)))
			answers := readBFCLFile(t, ansFile)
			if len(questions) != len(answers) {
				t.Fatalf("%d questions, %d answers", len(questions), len(answers))
			}
			for id, q := range questions {
				a, ok := answers[id]
				if !ok {
					t.Fatalf("%s: no possible answer", id)
				}
				docs, _ := q.Get("function")
				gt, _ := a.Get("ground_truth")
				calls := goldCalls(t, id, gt)
				if _, err := bfcl.Check(bfcl.Category(id), bfcl.Language(category), docs, gt, calls); err != nil {
					t.Errorf("%s: %v", id, err)
				}
			}
		})
	}
}

// readBFCLFile reads one of BFCL's data files (JSON Lines despite the
// name), by entry id.
func readBFCLFile(t *testing.T, path string) map[string]jsonvalue.Object {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]jsonvalue.Object{}
	for rec, err := range dataset.Reader(path, f, dataset.JSONL) {
		if err != nil {
			t.Fatal(err)
		}
		c, err := rec.Decode()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[c.ID] = c.Raw
	}
	return out
}

// goldCalls builds the output that takes the first acceptable value of
// every parameter that may not be left out.
func goldCalls(t *testing.T, id string, gt any) []toolgrade.Call {
	list, ok := gt.([]any)
	if !ok {
		t.Fatalf("%s: ground truth is %s", id, jsonvalue.Kind(gt))
	}
	var calls []toolgrade.Call
	for _, e := range list {
		fn := e.(jsonvalue.Object)[0]
		args := jsonvalue.Object{}
		for _, p := range fn.Value.(jsonvalue.Object) {
			opts, _ := p.Value.([]any)
			for _, o := range opts {
				if o != "" {
					args = append(args, jsonvalue.Member{Key: p.Key, Value: o})
					break
				}
			}
		}
		calls = append(calls, toolgrade.Call{Name: fn.Key, Args: args})
	}
	return calls
}

// TestBFCLRules pins the checker's rules one by one, on small hand-written
// entries.
func TestBFCLRules(t *testing.T) {
	const weather = `[{"name":"get_weather","description":"","parameters":{"type":"dict","properties":{
		"city":{"type":"string"},"days":{"type":"integer"},"temp":{"type":"float"},
		"units":{"type":"array","items":{"type":"string"}},"opts":{"type":"dict","properties":{}},
		"stops":{"type":"array","items":{"type":"dict"}},"flag":{"type":"boolean"}},"required":["city"]}}]`
	tests := []struct {
		name     string
		category string
		called   string
		answer   string
		want     string // error type, "" for valid
	}{
		{"gold", "simple_python", `[{"name":"get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris"],"days":["",3]}}]`, ""},
		{"normalized string", "simple_python", `[{"name":"get_weather","args":{"city":"  p-A_r.I,s "}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, ""},
		{"tab is significant", "simple_python", `[{"name":"get_weather","args":{"city":"Par\tis"}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, "value_error:string"},
		{"quote becomes double quote", "simple_python", `[{"name":"get_weather","args":{"city":"it's"}}]`,
			`[{"get_weather":{"city":["it\"s"]}}]`, ""},
		{"two calls", "simple_python", `[{"name":"get_weather","args":{"city":"Paris"}},{"name":"get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, "simple_function_checker:wrong_count"},
		{"wrong name", "simple_python", `[{"name":"Get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, "simple_function_checker:wrong_func_name"},
		{"required before unexpected", "simple_python", `[{"name":"get_weather","args":{"x":1}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, "simple_function_checker:missing_required"},
		{"param missing from ground truth", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","days":3}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, "simple_function_checker:unexpected_param"},
		{"missing optional", "simple_python", `[{"name":"get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris"],"days":[3]}}]`, "simple_function_checker:missing_optional"},
		{"int for float", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","temp":20}}]`,
			`[{"get_weather":{"city":["Paris"],"temp":[20.0]}}]`, ""},
		{"float for int", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","days":3.0}}]`,
			`[{"get_weather":{"city":["Paris"],"days":[3]}}]`, "type_error:simple"},
		{"bool is not int", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","days":true}}]`,
			`[{"get_weather":{"city":["Paris"],"days":[1]}}]`, "type_error:simple"},
		{"variable mode takes the option's type", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","days":"dontcare"}}]`,
			`[{"get_weather":{"city":["Paris"],"days":["dontcare"]}}]`, ""},
		{"variable mode does not normalize", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","days":"DontCare"}}]`,
			`[{"get_weather":{"city":["Paris"],"days":["dontcare"]}}]`, "value_error:others"},
		{"null only in variable mode", "simple_python", `[{"name":"get_weather","args":{"city":null}}]`,
			`[{"get_weather":{"city":[null]}}]`, ""},
		{"nested int in float list", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","units":["c",1]}}]`,
			`[{"get_weather":{"city":["Paris"],"units":[["c","f"]]}}]`, "type_error:nested"},
		{"list order matters", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","units":["F","c"]}}]`,
			`[{"get_weather":{"city":["Paris"],"units":[["c","f"]]}}]`, "value_error:list/tuple"},
		{"explicit empty list passes through the empty-string option", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","units":[]}}]`,
			`[{"get_weather":{"city":["Paris"],"units":["",["c"]]}}]`, ""},
		{"dict value normalized", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","opts":{"a":"X-Y","b":true}}}]`,
			`[{"get_weather":{"city":["Paris"],"opts":[{"a":["xy"],"b":[1]}]}}]`, ""},
		{"dict missing key reported over a bad value", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","opts":{"a":"z"}}}]`,
			`[{"get_weather":{"city":["Paris"],"opts":[{"a":["x"],"b":[1]}]}}]`, "value_error:dict_key"},
		{"dict bad value", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","opts":{"a":"z","b":1}}}]`,
			`[{"get_weather":{"city":["Paris"],"opts":[{"a":["x"],"b":[1]}]}}]`, "value_error:dict_value"},
		{"list of dicts count", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","stops":[{"a":"x"}]}}]`,
			`[{"get_weather":{"city":["Paris"],"stops":[[{"a":["x"]},{"a":["y"]}]]}}]`, "value_error:list_dict_count"},
		{"int equals float and bool in options", "simple_python", `[{"name":"get_weather","args":{"city":"Paris","flag":true}}]`,
			`[{"get_weather":{"city":["Paris"],"flag":[true]}}]`, ""},
		{"multiple checks the first call only", "multiple", `[{"name":"get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris"]}}]`, ""},
		{"multiple count", "live_multiple", `[]`,
			`[{"get_weather":{"city":["Paris"]}}]`, "multiple_function_checker:wrong_count"},
		{"parallel any order", "parallel", `[{"name":"get_weather","args":{"city":"Rome"}},{"name":"get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris"]}},{"get_weather":{"city":["Rome"]}}]`, ""},
		{"parallel count", "parallel_multiple", `[{"name":"get_weather","args":{"city":"Rome"}}]`,
			`[{"get_weather":{"city":["Paris"]}},{"get_weather":{"city":["Rome"]}}]`, "parallel_function_checker_no_order:wrong_count"},
		{"parallel greedy trap", "live_parallel", `[{"name":"get_weather","args":{"city":"Rome"}},{"name":"get_weather","args":{"city":"Paris"}}]`,
			`[{"get_weather":{"city":["Paris","Rome"]}},{"get_weather":{"city":["Rome"]}}]`, "parallel_function_checker_no_order:cannot_find_match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := conformance.ParseCase(t, `{"tools_called":`+tt.called+`,"available_tools":`+weather+`,"possible_answer":`+tt.answer+`}`)
			m, err := bfcl.New(bfcl.Options{Category: tt.category})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), c)
			if r.Error != "" {
				t.Fatalf("error: %s", r.Error)
			}
			if tt.want == "" {
				if r.Score != 1 || !r.Success {
					t.Errorf("invalid, want valid: %s", r.Reason)
				}
				return
			}
			if r.Score != 0 || r.Success || !strings.HasPrefix(r.Reason, tt.want+": ") {
				t.Errorf("score %v, reason %q; want error type %s", r.Score, r.Reason, tt.want)
			}
		})
	}
}

// TestBFCLErrors checks that input on which BFCL's checker raises gives an
// error result, never a verdict or a panic.
func TestBFCLErrors(t *testing.T) {
	tests := []struct{ name, js string }{
		{"no possible answer", `{"id":"simple_python_1","tools_called":[{"name":"f","args":{}}],"available_tools":[{"name":"f","parameters":{"type":"dict","properties":{},"required":[]}}]}`},
		{"unknown doc type", `{"id":"simple_python_1","tools_called":[{"name":"f","args":{"x":1}}],"available_tools":[{"name":"f","parameters":{"type":"dict","properties":{"x":{"type":"object"}},"required":[]}}],"possible_answer":[{"f":{"x":[1]}}]}`},
		{"doc without required", `{"id":"simple_python_1","tools_called":[{"name":"f","args":{}}],"available_tools":[{"name":"f","parameters":{"type":"dict","properties":{}}}],"possible_answer":[{"f":{}}]}`},
		{"no doc for the expected function", `{"id":"multiple_1","tools_called":[{"name":"g","args":{}}],"available_tools":[{"name":"f","parameters":{"type":"dict","properties":{},"required":[]}}],"possible_answer":[{"g":{}}]}`},
		{"no category", `{"tools_called":[],"available_tools":[],"possible_answer":[]}`},
	}
	m, _ := bfcl.New(bfcl.Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.js))
			if r.Error == "" {
				t.Errorf("want an error, got score %v (%s)", r.Score, r.Reason)
			}
		})
	}
}

func TestBFCLDecoderErrors(t *testing.T) {
	docs := jsonvalue.MustFrom([]any{map[string]any{"name": "f", "parameters": map[string]any{"type": "dict", "properties": map[string]any{}, "required": []any{}}}})
	answer := jsonvalue.MustFrom([]any{map[string]any{"f": map[string]any{}}})
	for _, tt := range []struct {
		call toolgrade.Call
		want string
	}{
		{toolgrade.Call{Name: "f", ArgsRaw: "{oops", Invalid: true}, "ast_decoder:decoder_failed"},
		{toolgrade.Call{Name: "f", Args: []any{}}, "ast_decoder:decoder_wrong_output_format"},
		{toolgrade.Call{Name: "f"}, ""},
	} {
		v, err := bfcl.Check("simple_python", "python", docs, answer, []toolgrade.Call{tt.call})
		if err != nil || v.ErrorType != tt.want {
			t.Errorf("%v: error type %q, %v; want %q", tt.call, v.ErrorType, err, tt.want)
		}
	}
}

func TestBFCLCategoryAndLanguage(t *testing.T) {
	for _, tt := range []struct{ id, category, language string }{
		{"simple_python_12", "simple_python", "python"},
		{"live_multiple_862-181-3", "live_multiple", "python"},
		{"simple_java_3", "simple_java", "java"},
		{"simple_javascript_0", "simple_javascript", "javascript"},
		{"noid", "", "python"},
	} {
		if got := bfcl.Category(tt.id); got != tt.category {
			t.Errorf("Category(%q) = %q, want %q", tt.id, got, tt.category)
		}
		if got := bfcl.Language(tt.category); got != tt.language {
			t.Errorf("Language(%q) = %q, want %q", tt.category, got, tt.language)
		}
	}
	// The category option takes BFCL's AST categories only: a misspelling
	// would otherwise pick a check by substring ("paralel_multiple" the
	// multiple check), and a relevance category has no possible answer.
	for _, c := range []string{"simple_python", "java", "live_parallel_multiple"} {
		if _, err := bfcl.New(bfcl.Options{Category: c}); err != nil {
			t.Errorf("category %q: %v", c, err)
		}
	}
	for _, c := range []string{"simple_pythn", "paralel_multiple", "irrelevance", "multi_turn_base"} {
		if _, err := bfcl.New(bfcl.Options{Category: c}); err == nil || !strings.HasPrefix(err.Error(), `category: unknown value "`+c+`"`) {
			t.Errorf("category %q: error %v, want an unknown value", c, err)
		}
	}
	var oe *toolgrade.OptionError
	if _, err := bfcl.New(bfcl.Options{Language: "go"}); !errors.As(err, &oe) || oe.Option != "language" || oe.Value != "go" {
		t.Errorf("language go: error %v, want an *OptionError for language", err)
	}
}

func ExampleCheck() {
	docs := jsonvalue.MustFrom([]any{map[string]any{
		"name": "calculate_triangle_area",
		"parameters": map[string]any{
			"type": "dict",
			"properties": map[string]any{
				"base":   map[string]any{"type": "integer"},
				"height": map[string]any{"type": "integer"},
				"unit":   map[string]any{"type": "string"},
			},
			"required": []any{"base", "height"},
		},
	}})
	answer, _ := jsonvalue.ParseString(`[{"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}]`)
	for _, args := range []string{`{"base": 10, "height": 5}`, `{"base": 10, "height": 5, "unit": "Units"}`, `{"base": 10, "height": 5.0}`} {
		a, _ := jsonvalue.ParseString(args)
		v, _ := bfcl.Check("simple_python", "python", docs, answer, []toolgrade.Call{{Name: "calculate_triangle_area", Args: a}})
		if v.Valid {
			fmt.Println("valid")
		} else {
			fmt.Println("invalid:", v.ErrorType)
		}
	}
	// Output:
	// valid
	// valid
	// invalid: type_error:simple
}

// TestBFCLFunctionCallingNames grades every conformance line as a
// function-calling model's result file gives it: BFCL sends such a model
// the tool names with "." replaced by "_", so the calls come back so
// named. The verdicts must be BFCL's, as for the names as documented.
func TestBFCLFunctionCallingNames(t *testing.T) {
	for _, src := range conformance.Sources("bfcl") {
		t.Run(src.Name, func(t *testing.T) {
			renamed := 0
			for _, l := range src.Load(t, "bfcl.jsonl") {
				c, err := dataset.DecodeCase(l.Case)
				if err != nil {
					t.Fatalf("line %d: %v", l.Line, err)
				}
				if underscoredAlready(c) {
					continue // a mutation that names a dotted function in "_" form
				}
				changed := false
				for i := range c.Called {
					if n := strings.ReplaceAll(c.Called[i].Name, ".", "_"); n != c.Called[i].Name {
						c.Called[i].Name = n
						changed = true
					}
				}
				if !changed {
					continue // a prompting model's names: graded as today
				}
				renamed++
				wantType := ""
				if et, _ := l.Expect.Get("error_type"); et != nil {
					wantType = et.(string)
				}
				cat, _ := l.Config.Get("category")
				lang, _ := l.Config.Get("language")
				answer, _ := c.Raw.Get("possible_answer")
				v, err := bfcl.CheckFunctionCalling(cat.(string), lang.(string), schema.Definitions(c), answer, c.Called)
				if err != nil {
					t.Errorf("%s (line %d): Check: %v", l.ID, l.Line, err)
					continue
				}
				if v.ErrorType != wantType || v.Valid != (wantType == "") {
					t.Errorf("%s (line %d): error type %q, want %q; %s", l.ID, l.Line, v.ErrorType, wantType, v.Message)
				}
			}
			if renamed == 0 {
				t.Fatal("no call had a dotted name: the test checks nothing")
			}
			t.Logf("%d lines with renamed calls", renamed)
		})
	}
}

// underscoredAlready reports a case whose calls already name a dotted
// function with "_" for "." (a wrong name for a prompting model).
func underscoredAlready(c *toolgrade.Case) bool {
	docs, _ := schema.Definitions(c).([]any)
	for _, d := range docs {
		o, _ := d.(jsonvalue.Object)
		v, _ := o.Get("name")
		n, _ := v.(string)
		if !strings.Contains(n, ".") {
			continue
		}
		for _, call := range c.Called {
			if call.Name == strings.ReplaceAll(n, ".", "_") {
				return true
			}
		}
	}
	return false
}

func TestFunctionName(t *testing.T) {
	docs := []any{
		jsonvalue.Object{{Key: "name", Value: "math.factorial"}},
		jsonvalue.Object{{Key: "name", Value: "a.b_c"}},
		jsonvalue.Object{{Key: "name", Value: "a_b.c"}},
		jsonvalue.Object{{Key: "name", Value: "get_weather"}},
		"not a doc",
	}
	tests := []struct {
		called, want string
		ok           bool
	}{
		{"math.factorial", "math.factorial", true}, // as documented
		{"get_weather", "get_weather", true},
		{"math_factorial", "math.factorial", true}, // the "_" form BFCL sends
		{"a_b_c", "", false},                       // two dotted names have it
		{"math_sqrt", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.called, func(t *testing.T) {
			got, ok := bfcl.FunctionName(docs, tt.called)
			if got != tt.want || ok != tt.ok {
				t.Errorf("%q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
	if got, ok := bfcl.FunctionName(docs[0], "math_factorial"); got != "math.factorial" || !ok {
		t.Errorf("one doc: %q, %v", got, ok)
	}
}
