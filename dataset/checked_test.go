package dataset_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/runner"
	"pgregory.net/rapid"
)

// A checkedRun is what grading a case file with a Checker gives: each
// result, what its error is to errors.Is and errors.As, and the fields the
// Checker counted.
type checkedRun struct {
	Lines   []string
	Errs    []string
	Ignored []dataset.FieldCount
}

// gradeChecked grades text as a case file named name with ch, checking
// each case after runner.CheckRun: as toolgrade.CheckCases does when
// checked is false, as the Source's records decode when it is true.
func gradeChecked(t interface{ Fatal(...any) }, name, text string, ch *dataset.Checker, checked bool) checkedRun {
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var src dataset.Source
	var opts []toolgrade.Option
	if checked {
		src = src.Checked(ch, runner.CheckRun)
	} else {
		opts = append(opts, toolgrade.CheckCases(runner.CheckRun), toolgrade.CheckCases(ch.CheckCase))
	}
	var out checkedRun
	emit := func(r *toolgrade.Result) error {
		out.Lines = append(out.Lines, string(r.AppendJSON(nil)))
		var uf *dataset.UnknownFieldError
		out.Errs = append(out.Errs, fmt.Sprintf("%v nothing=%v unknown=%v", r.Err, errors.Is(r.Err, dataset.ErrNothingToGrade), errors.As(r.Err, &uf)))
		return nil
	}
	if err := toolgrade.Evaluate(context.Background(), src.Reader(name, strings.NewReader(text), dataset.Auto), []toolgrade.Metric{m}, emit, opts...); err != nil {
		out.Errs = append(out.Errs, "run: "+err.Error())
	}
	out.Ignored = ch.Ignored()
	return out
}

// The keys a generated case draws from: the format's, a peer's, a run
// file's, unknown ones, and misspellings; each with values that pass, fail
// or mean nothing.
var genKeys = map[string][]string{
	"id":                   {`"a"`, `7`, `{"x":1}`, `null`, `""`},
	"trial":                {`1`, `"x"`, `null`},
	"tools_called":         {`[]`, `null`, `[{"name":"f","args":{"a":1}}]`, `"garbage"`, `[{"name":""}]`},
	"toolsCalled":          {`[]`, `[{"name":"g","args":{}}]`},
	"expected_tools":       {`[]`, `null`, `[{"name":"f","args":{"a":1}}]`, `[{"name":"f","arguments":"{a: 1}"}]`},
	"expectedTools":        {`[{"name":"g","args":{}}]`, `null`},
	"reference_tool_calls": {`[]`, `null`},
	"trajectory":           {`null`, `"text"`, `[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}]`},
	"agent_trajectory":     {`null`, `42`},
	"user_input":           {`"a question"`, `[{"role":"user","content":"hi"}]`, `null`},
	"expected_trajectory":  {`null`, `[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}]`},
	"input":                {`"hi"`, `42`, `null`},
	"query":                {`"q"`},
	"actual_output":        {`"done"`, `null`},
	"expected_output":      {`"done"`},
	"reference":            {`"r"`},
	"run":                  {`{"error":"the model timed out"}`, `{"error":""}`, `{}`, `null`, `"x"`, `{"error":3}`},
	"output":               {`null`, `"x"`},
	"value":                {`null`, `"v"`},
	"trace":                {`null`, `{}`},
	"expected_state":       {`null`, `{}`},
	"final_state":          {`{}`},
	"state_rules":          {`[]`},
	"process":              {`null`, `[]`},
	"available_tools":      {`[]`, `null`, `"get_weather"`},
	"tools":                {`[]`},
	"turns":                {`[]`, `null`, `[{"input":"hi","tools_called":[],"expected_tools":[]}]`},
	"invocations":          {`[]`, `null`},
	"messages":             {`[]`, `null`},
	"bfcl_id":              {`"b"`},
	"question":             {`null`, `[]`},
	"possible_answer":      {`null`},
	"snapshot":             {`{}`},
	"meta":                 {`{"a":1}`, `null`, `"m"`},
	"note":                 {`"n"`, `null`},
	"zz":                   {`1`},
	"tool_called":          {`[]`},
	"expected_tool":        {`[]`},
	"tool_calls":           {`[]`},
	"Tools_Called":         {`[]`},
}

// genCase draws a record: usually an object of keys drawn from genKeys,
// repeated keys among them, now and then something else.
func genCase(t *rapid.T) string {
	switch rapid.IntRange(0, 30).Draw(t, "kind") {
	case 0:
		return `[1]`
	case 1:
		return `{"id":"broken"`
	case 2:
		return `{}`
	}
	keys := make([]string, 0, len(genKeys))
	for k := range genKeys {
		keys = append(keys, k)
	}
	// Sorted so that rapid can shrink a failure and replay it.
	slices.Sort(keys)
	// The calls and a run's record often, so that most cases get as far
	// as the Checker, and a run's error meets the Checker's.
	var drawn []string
	for _, k := range []string{"tools_called", "expected_tools", "run"} {
		if rapid.IntRange(0, 2).Draw(t, "has "+k) > 0 {
			drawn = append(drawn, k)
		}
	}
	for range rapid.IntRange(0, 5).Draw(t, "keys") {
		if len(drawn) > 0 && rapid.IntRange(0, 5).Draw(t, "repeat") == 0 {
			drawn = append(drawn, rapid.SampledFrom(drawn).Draw(t, "repeated"))
		} else {
			drawn = append(drawn, rapid.SampledFrom(keys).Draw(t, "key"))
		}
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range rapid.Permutation(drawn).Draw(t, "order") {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", k, rapid.SampledFrom(genKeys[k]).Draw(t, "value"))
	}
	b.WriteByte('}')
	return b.String()
}

// genChecker draws a Checker's settings: it returns a new Checker of
// them at each call.
func genChecker(t *rapid.T) func() *dataset.Checker {
	strict := rapid.Bool().Draw(t, "strict")
	var notGraded map[string]string
	for _, k := range []string{"available_tools", "process", "meta", "zz", "tools_called", "final_state", "run", "nope"} {
		if rapid.IntRange(0, 3).Draw(t, "notGraded "+k) == 0 {
			if notGraded == nil {
				notGraded = map[string]string{}
			}
			notGraded[k] = "no metric reads " + k
		}
	}
	return func() *dataset.Checker { return &dataset.Checker{StrictFields: strict, NotGraded: notGraded} }
}

// TestCheckedAsCheckCases holds a Source's check as its records decode
// (Source.Checked) to checking each case after decoding, as
// toolgrade.CheckCases does, after runner.CheckRun: every result line,
// error, warning and count of unknown fields the same, on generated
// files of cases with extra, misspelled and repeated keys, cases that fail
// a run, a check or both, and records that are not cases.
func TestCheckedAsCheckCases(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lines := rapid.SliceOfN(rapid.Custom(genCase), 1, 6).Draw(t, "lines")
		text := strings.Join(lines, "\n") + "\n"
		checker := genChecker(t)
		want := gradeChecked(t, "cases.jsonl", text, checker(), false)
		got := gradeChecked(t, "cases.jsonl", text, checker(), true)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("checked as the records decode (+) against after decoding (-):\n%s\n%s", text, diff)
		}
	})
}

// TestCheckedAsCheckCasesFiles is TestCheckedAsCheckCases on the ADK
// eval files, whose records are read as several cases each, and on
// files that are not case files.
func TestCheckedAsCheckCasesFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "trace", "testdata", "adk_evalset", "*.json"))
	if len(files) == 0 {
		t.Fatal("no ADK eval files")
	}
	texts := map[string]string{"cases.csv": "id,input\n1,hello\n", "empty.jsonl": "", "array.json": `[{"id":"a"},{"tools_called":[],"expected_tools":[],"x":1}]`}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(data)
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			for _, checker := range []func() *dataset.Checker{
				func() *dataset.Checker { return &dataset.Checker{} },
				func() *dataset.Checker { return &dataset.Checker{StrictFields: true} },
				func() *dataset.Checker {
					return &dataset.Checker{NotGraded: map[string]string{"invocations": "x", "input": "y"}}
				},
			} {
				want := gradeChecked(t, name, text, checker(), false)
				got := gradeChecked(t, name, text, checker(), true)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("checked as the records decode (+) against after decoding (-):\n%s", diff)
				}
			}
		})
	}
}

// FuzzCheckedAsCheckCases is TestCheckedAsCheckCases on any text read as
// a case file of any format, under the settings its first byte picks.
func FuzzCheckedAsCheckCases(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","run":{"error":"boom"},"meta":1}`,
		`{"tools_called":[],"expected_tools":[],"meta":1,"available_tools":[]}`,
		`{"tool_called":[],"expected_tools":[]}` + "\n" + `{"x":1}`,
		`{"eval_cases":[{"eval_id":"e","conversation":[]}]}`,
		`"{\"eval_cases\":[]}"`,
		"- tools_called: []\n  expected_tools: []\n  note: x\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var pick byte
		if len(text) > 0 {
			pick = text[0]
		}
		checker := func() *dataset.Checker {
			ch := &dataset.Checker{StrictFields: pick&1 != 0}
			if pick&2 != 0 {
				ch.NotGraded = map[string]string{"available_tools": "a", "meta": "m", "tools_called": "t"}
			}
			return ch
		}
		want := gradeChecked(t, "cases", text, checker(), false)
		got := gradeChecked(t, "cases", text, checker(), true)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("checked as the records decode (+) against after decoding (-):\n%q\n%s", text, diff)
		}
	})
}

// TestCheckedWithoutChecker: a Source checked with no Checker checks its
// cases with the functions before alone, as CheckCases(runner.CheckRun)
// alone does, rather than failing on the missing Checker.
func TestCheckedWithoutChecker(t *testing.T) {
	text := `{"id":"a","tools_called":[],"expected_tools":[],"extra":1}
{"id":"b","run":{"error":"the model timed out"},"tools_called":[],"expected_tools":[]}
{"id":"c","tools_called":[{"name":"f","args":{}}],"expected_tools":[{"name":"f","args":{}}]}
`
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	grade := func(src dataset.Source, opts ...toolgrade.Option) []string {
		var lines []string
		emit := func(r *toolgrade.Result) error {
			lines = append(lines, string(r.AppendJSON(nil)))
			return nil
		}
		if err := toolgrade.Evaluate(context.Background(), src.Reader("cases.jsonl", strings.NewReader(text), dataset.Auto), []toolgrade.Metric{m}, emit, opts...); err != nil {
			t.Fatal(err)
		}
		return lines
	}
	want := grade(dataset.Source{}, toolgrade.CheckCases(runner.CheckRun))
	got := grade(dataset.Source{}.Checked(nil, runner.CheckRun))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Checked(nil, CheckRun) grades otherwise than CheckCases(CheckRun) (-want +got):\n%s", diff)
	}
}
