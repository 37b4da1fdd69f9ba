package toolgrade_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/execution"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/process"
	"pgregory.net/rapid"
)

// fullResult sets every field of every level of the result contract, and
// every detail the module defines, to a value that is not zero.
func fullResult() (toolgrade.Result, string) {
	f := toolgrade.Float
	r := toolgrade.Result{ID: "c1", Success: false, Warnings: []string{"trajectory: skipped x"}, Error: "record: broken",
		Metrics: []toolgrade.MetricResult{{
			Name: "tool_correctness", Profile: "default", Score: 0.75, Threshold: f(0.5), Success: true,
			Precision: f(1), Recall: f(0.6), F1: f(0.75),
			Matches: []toolgrade.Match{{Expected: 1, Called: 2, Score: 0.5,
				Diffs: []toolgrade.ArgDiff{{Path: "city", Expected: "Paris", Got: json.Number("2.0"), Note: "fuzzy"}}}},
			Missing: []int{2}, Unexpected: []int{3}, Reason: "why",
			Details: []toolgrade.Detail{
				toolgrade.Components{"judge": 1, "deterministic": 0.5},
				match.Failed{1}, match.Retried{1},
				match.Turns{{Turn: 1, Score: 0.5, Success: true, Expected: []int{1}, Called: []int{0, 1}}},
				match.Flows{{From: -1, To: 2, Arg: "id", Ref: "find.output.id", OK: true}},
				process.RuleChecks{{Rule: "never: x", Kept: true, Breaches: []int{4}, Reason: "x was called"}},
				toolgrade.Diffs{{Path: "$.a", Expected: jsonvalue.Object{{Key: "k", Value: nil}}, Got: []any{true}, Note: "missing"}},
				toolgrade.Usage{PromptTokens: 10, CompletionTokens: 2, Requests: 1, CachedRequests: 3},
				execution.Outcomes{
					{Call: 0, Name: "get", Success: true, Output: "ok"},
					{Call: 1, Name: "rm", Skipped: "not on the allow-list"},
					{Call: 2, Name: "put", Error: "timeout"},
				},
				toolgrade.RawDetail{Name: "x_new", At: toolgrade.AfterReason, Value: jsonvalue.Object{{Key: "n", Value: json.Number("1e2")}}},
			},
		}, {
			Name: "other", Profile: "x", Score: 0.3, Threshold: f(0.5), Success: true, Error: "broken",
		}, {
			Name: "scored", Profile: "ragas", Score: 0.25,
		}},
	}
	line := `{"id":"c1","success":false,"metrics":[` +
		`{"name":"tool_correctness","profile":"default","score":0.75,"success":true,"threshold":0.5,"precision":1,"recall":0.6,"f1":0.75,` +
		`"components":{"deterministic":0.5,"judge":1},` +
		`"matches":[{"expected":1,"called":2,"score":0.5,"diffs":[{"path":"city","expected":"Paris","got":2.0,"note":"fuzzy"}]}],"missing":[2],"unexpected":[3],` +
		`"failed":[1],"retried":[1],"turns":[{"turn":1,"score":0.5,"success":true,"expected":[1],"called":[0,1]}],` +
		`"flows":[{"from":-1,"to":2,"arg":"id","ref":"find.output.id","ok":true}],` +
		`"rules":[{"rule":"never: x","kept":true,"breaches":[4],"reason":"x was called"}],` +
		`"diffs":[{"path":"$.a","expected":{"k":null},"got":[true],"note":"missing"}],` +
		`"reason":"why",` +
		`"usage":{"prompt_tokens":10,"completion_tokens":2,"requests":1,"cached_requests":3},` +
		`"executions":[{"call":0,"name":"get","success":true,"error":null,"output":"ok"},` +
		`{"call":1,"name":"rm","success":null,"skipped":"not on the allow-list","error":null,"output":null},` +
		`{"call":2,"name":"put","success":false,"error":"timeout","output":null}],` +
		`"x_new":{"n":1e2},"error":null},` +
		`{"name":"other","profile":"x","score":null,"success":null,"threshold":0.5,"error":"broken"},` +
		`{"name":"scored","profile":"ragas","score":0.25,"success":null,"threshold":null,"error":null}],` +
		`"warnings":["trajectory: skipped x"],"error":"record: broken"}`
	return r, line
}

// TestResultRoundTrip writes every field of every level and every detail,
// compares the line with the contract, and reads it back to the same
// value: what the writer drops (the score and verdict of an erred metric,
// Unwritten details) is all that differs.
func TestResultRoundTrip(t *testing.T) {
	in, want := fullResult()
	checkEveryField(t, reflect.ValueOf([]toolgrade.Result{in, {Success: true}}), "Results")
	in.Metrics[0].Details = append(in.Metrics[0].Details, match.NearMisses{{Expected: 2, Called: 3}})
	line := string(in.AppendJSON(nil))
	if line != want {
		t.Fatalf("line:\n%s\nwant:\n%s", line, want)
	}
	out, err := toolgrade.ParseResult([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	expect := in
	expect.Metrics = slices.Clone(in.Metrics)
	expect.Metrics[0].Details = slices.DeleteFunc(slices.Clone(expect.Metrics[0].Details), func(d toolgrade.Detail) bool {
		return d.Place() == toolgrade.Unwritten
	})
	expect.Metrics[1].Score, expect.Metrics[1].Success = 0, false // an erred metric has neither
	if diff := cmp.Diff(expect, out); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if again := string(out.AppendJSON(nil)); again != line {
		t.Errorf("written again:\n%s\nwant:\n%s", again, line)
	}
}

// TestResultLineAgreesWithFields: the result line, written member by
// member, is what the contract's field codecs write, for every result
// of the golden files and fullResult's, and for random ones.
func TestResultLineAgreesWithFields(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, r *toolgrade.Result) {
		if got, want := string(r.AppendJSON(nil)), string(toolgrade.AppendResultFields(nil, r)); got != want {
			t.Fatalf("line:\n%s\nfields:\n%s", got, want)
		}
	}
	full, _ := fullResult()
	check(t, &full)
	check(t, &toolgrade.Result{})
	for _, line := range resultLines(t) {
		r, err := toolgrade.ParseResult([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		check(t, &r)
	}
	details := full.Metrics[0].Details
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.SampledFrom([]string{"", "a", "quote \" and \\ and \n", "日本", "\x7f\x00"})
		num := rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, 0.5, 1.0 / 3, -2, 1e-7, 1e21, math.NaN(), math.Inf(1)})
		ptr := func(label string) *float64 {
			if rapid.Bool().Draw(t, label+" set") {
				return toolgrade.Float(num.Draw(t, label))
			}
			return nil
		}
		ints := func(label string) []int {
			if rapid.Bool().Draw(t, label+" nil") {
				return nil
			}
			return rapid.SliceOfN(rapid.IntRange(-1, 120), 0, 3).Draw(t, label)
		}
		r := toolgrade.Result{ID: text.Draw(t, "id"), Success: rapid.Bool().Draw(t, "success"), Error: text.Draw(t, "error"),
			Warnings: rapid.SliceOfN(text, 0, 2).Draw(t, "warnings")}
		for range rapid.IntRange(0, 3).Draw(t, "metrics") {
			m := toolgrade.MetricResult{Name: text.Draw(t, "name"), Profile: text.Draw(t, "profile"), Score: num.Draw(t, "score"),
				Threshold: ptr("threshold"), Success: rapid.Bool().Draw(t, "verdict"),
				Precision: ptr("precision"), Recall: ptr("recall"), F1: ptr("f1"),
				Missing: ints("missing"), Unexpected: ints("unexpected"), Reason: text.Draw(t, "reason"), Error: text.Draw(t, "metric error")}
			if !rapid.Bool().Draw(t, "matches nil") {
				m.Matches = []toolgrade.Match{}
				for range rapid.IntRange(0, 3).Draw(t, "matches") {
					p := toolgrade.Match{Expected: rapid.IntRange(0, 120).Draw(t, "expected"), Called: rapid.IntRange(0, 120).Draw(t, "called"), Score: num.Draw(t, "match score")}
					if rapid.Bool().Draw(t, "diffs") {
						p.Diffs = []toolgrade.ArgDiff{{Path: text.Draw(t, "path"), Expected: text.Draw(t, "want"), Got: nil, Note: text.Draw(t, "note")}}
					}
					m.Matches = append(m.Matches, p)
				}
			}
			for _, d := range details {
				if rapid.IntRange(0, 3).Draw(t, "detail") == 0 {
					m.Details = append(m.Details, d)
				}
			}
			r.Metrics = append(r.Metrics, m)
		}
		check(t, &r)
	})
}

// resultLines are the result lines of the golden files.
func resultLines(t testing.TB) []string {
	var lines []string
	for _, name := range []string{"cmd/toolgrade/testdata/examples_agent.golden.jsonl", "cmd/toolgrade/testdata/examples_mcp_schema.golden.jsonl", "report/testdata/trajectory.jsonl"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			if line = strings.TrimSpace(line); line != "" {
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// checkEveryField fails when a field of v, at any depth, is the zero
// value in every element of the lists it is in, so that a field added to
// the contract is added here too. Values of the JSON model (any) are not
// looked into.
func checkEveryField(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	set := map[string]bool{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if set[path] = set[path] || !v.IsNil(); !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Interface:
			if v.Type() == reflect.TypeFor[any]() || v.IsNil() {
				set[path] = set[path] || !v.IsNil()
				return
			}
			walk(v.Elem(), path+"("+v.Elem().Type().String()+")")
		case reflect.Slice, reflect.Map:
			set[path] = set[path] || v.Len() > 0
			if v.Kind() == reflect.Slice {
				for i := range v.Len() {
					walk(v.Index(i), path+"[]")
				}
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() && f.Name != "Err" && f.Name != "Case" {
					walk(v.Field(i), path+"."+f.Name)
				}
			}
		default:
			set[path] = set[path] || !v.IsZero()
		}
	}
	walk(v, path)
	for p, ok := range set {
		if !ok {
			t.Errorf("%s is zero throughout", p)
		}
	}
}

// TestParseResultStrict: a member of the wrong kind, at any depth, is an
// error naming it; so are a missing member the contract always writes, an
// unknown member where no detail can be, and a null where the writer
// writes a value.
func TestParseResultStrict(t *testing.T) {
	const head = `{"id":"c","success":true,"metrics":[{"name":"m","profile":"p","score":1,"success":true,"threshold":1,`
	const pairs = `"matches":[],"missing":[],"unexpected":[],`
	for _, tt := range []struct{ name, line, want string }{
		{"expected is text", head + `"matches":[{"expected":"zero","called":true,"score":1}],"missing":[],"unexpected":[],"error":null}]}`,
			`field metrics[0].matches[0].expected: want an integer, got string`},
		{"matches is text", head + `"matches":"oops","missing":[],"unexpected":[],"error":null}]}`, `field metrics[0].matches: want a list, got string`},
		{"called is a float", head + `"matches":[{"expected":0,"called":1.5,"score":1}],"missing":[],"unexpected":[],"error":null}]}`,
			`field metrics[0].matches[0].called: want an integer, got number`},
		{"score out of range", head[:len(head)-len(`"score":1,"success":true,"threshold":1,`)] + `"score":1e999,"success":true,"threshold":1,"error":null}]}`,
			`field metrics[0].score: want a number a float64 holds, got 1e999`},
		{"diff path", head + `"matches":[{"expected":0,"called":1,"score":0,"diffs":[{"path":1,"expected":1,"got":2}]}],"missing":[],"unexpected":[],"error":null}]}`,
			`field metrics[0].matches[0].diffs[0].path: want a string, got integer`},
		{"diff lacks got", head + `"matches":[{"expected":0,"called":1,"score":0,"diffs":[{"path":"a","expected":1}]}],"missing":[],"unexpected":[],"error":null}]}`,
			`field metrics[0].matches[0].diffs[0].got: missing`},
		{"unknown in a match", head + `"matches":[{"expected":0,"called":1,"score":1,"weight":2}],"missing":[],"unexpected":[],"error":null}]}`,
			`field metrics[0].matches[0].weight: unknown member`},
		{"missing without matches", head + `"missing":[1],"error":null}]}`, `field metrics[0].matches: missing: matches, missing and unexpected come together`},
		{"missing holds text", head + `"matches":[],"missing":["1"],"unexpected":[],"error":null}]}`, `field metrics[0].missing[0]: want an integer, got string`},
		{"no error member", head + pairs[:len(pairs)-1] + `}]}`, `field metrics[0].error: missing`},
		{"score beside an error", head + `"error":"x"}]}`, `field metrics[0].score: want null when error is set`},
		{"null score without an error", strings.Replace(head, `"score":1`, `"score":null`, 1) + `"error":null}]}`, `field metrics[0].score: want a number when error is null`},
		{"verdict without a threshold", strings.Replace(head, `"threshold":1`, `"threshold":null`, 1) + `"error":null}]}`,
			`field metrics[0].success: want null when error is set or threshold is null`},
		{"reason is null", head + `"reason":null,"error":null}]}`, `field metrics[0].reason: want a string, got null`},
		{"components hold text", head + `"components":{"a":"1"},"error":null}]}`, `field metrics[0].components.a: want a number, got string`},
		{"turn success is a number", head + pairs + `"turns":[{"turn":1,"score":1,"success":1,"expected":[],"called":[]}],"error":null}]}`,
			`field metrics[0].turns[0].success: want a boolean, got integer`},
		{"flows not a list", head + pairs + `"flows":{},"error":null}]}`, `field metrics[0].flows: want a list, got object`},
		{"failed holds null", head + pairs + `"failed":[null],"error":null}]}`, `field metrics[0].failed[0]: want an integer, got null`},
		{"rule breaches text", head + `"rules":[{"rule":"r","kept":false,"breaches":"1"}],"error":null}]}`, `field metrics[0].rules[0].breaches: want a list, got string`},
		{"state diffs null", head + `"diffs":null,"error":null}]}`, `field metrics[0].diffs: want a list, got null`},
		{"usage tokens float", head + `"usage":{"prompt_tokens":1.5,"completion_tokens":0,"requests":0,"cached_requests":0},"error":null}]}`,
			`field metrics[0].usage.prompt_tokens: want an integer, got number`},
		{"skipped call with a verdict", head + `"executions":[{"call":0,"name":"a","success":true,"skipped":"no","error":null,"output":null}],"error":null}]}`,
			`field metrics[0].executions[0].success: want null for a skipped call`},
		{"result id", `{"id":1,"success":true,"metrics":[]}`, `field id: want a string, got integer`},
		{"result member unknown", `{"id":"a","success":true,"metrics":[],"score":1}`, `field score: unknown member`},
		{"no metrics", `{"id":"a","success":true}`, `field metrics: missing`},
		{"metric not an object", `{"id":"a","success":true,"metrics":[1]}`, `field metrics[0]: want a metric result object, got integer`},
		{"warnings", `{"id":"a","success":true,"metrics":[],"warnings":[1]}`, `field warnings[0]: want a string, got integer`},
		{"not an object", `[1]`, `want an object, got array`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := toolgrade.ParseResult([]byte(tt.line))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %s", err, tt.want)
			}
			var fe *toolgrade.FieldError
			if strings.HasPrefix(tt.want, "field ") && !errors.As(err, &fe) {
				t.Errorf("%T is not a *FieldError", err)
			}
		})
	}
}

// TestParseResultKeepsUnknownMembers: members no reader knows, the
// details of metrics the reading program does not import, are kept in
// their place and written back unchanged.
func TestParseResultKeepsUnknownMembers(t *testing.T) {
	for _, line := range []string{
		`{"id":"a","success":true,"metrics":[{"name":"m","profile":"p","score":1,"success":true,"threshold":1,"precision":1,"recall":1,"f1":1,"x_parts":{"a":[1,2.50,"é"]},"matches":[],"missing":[],"unexpected":[],"failed":[0],"x_found":null,"reason":"r","x_spent":1,"usage":{"prompt_tokens":1,"completion_tokens":1,"requests":1,"cached_requests":0},"x_last":true,"error":null}]}`,
		`{"id":"a","success":true,"metrics":[{"name":"m","profile":"p","score":1,"success":true,"threshold":1,"x_one":1,"turns":[],"x_two":2,"error":null}]}`,
		`{"id":"a","success":true,"metrics":[{"name":"m","profile":"p","score":1,"success":true,"threshold":1,"x_one":1,"reason":"r","error":null}]}`,
	} {
		r, err := toolgrade.ParseResult([]byte(line))
		if err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if got := string(r.AppendJSON(nil)); got != line {
			t.Errorf("written back:\n%s\nwant:\n%s", got, line)
		}
	}
	r, _ := toolgrade.ParseResult([]byte(`{"id":"a","success":true,"metrics":[{"name":"m","profile":"p","score":1,"success":true,"threshold":1,"matches":[],"missing":[],"unexpected":[],"x":[1],"error":null}]}`))
	want := toolgrade.RawDetail{Name: "x", At: toolgrade.AfterMatches, Value: []any{json.Number("1")}}
	if diff := cmp.Diff([]toolgrade.Detail{want}, r.Metrics[0].Details); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
}

// TestParseResultReadsTrialMembers: the members the JSON Lines report
// adds to trials are read past.
func TestParseResultReadsTrialMembers(t *testing.T) {
	r, err := toolgrade.ParseResult([]byte(`{"id":"a","success":true,"metrics":[],"trial":2,"reliability":{"trials":2}}`))
	if err != nil || r.ID != "a" {
		t.Fatalf("%+v, %v", r, err)
	}
}

// A metric whose details would break its line gets an error result.
type doubleDetail struct{}

func (doubleDetail) Name() string    { return "double" }
func (doubleDetail) Profile() string { return "test" }
func (doubleDetail) Grade(context.Context, *toolgrade.Case) toolgrade.MetricResult {
	return toolgrade.MetricResult{Name: "double", Profile: "test", Details: []toolgrade.Detail{match.Failed{0}, match.Failed{1}}}
}

func TestGradeRefusesBrokenDetails(t *testing.T) {
	r := toolgrade.Grade(context.Background(), &toolgrade.Case{}, doubleDetail{})
	if m := r.Metrics[0]; !strings.Contains(m.Error, `metric double gave two details named "failed"`) || len(m.Details) != 0 {
		t.Errorf("%+v", m)
	}
}

// FuzzParseResult: reading never panics, and whatever reads writes back
// to a line that reads to the same value and writes to the same line.
func FuzzParseResult(f *testing.F) {
	_, full := fullResult()
	f.Add([]byte(full))
	for _, line := range resultLines(f) {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"id":"a","success":true,"metrics":[{"name":"m","profile":"p","score":-0,"success":null,"threshold":null,"x":{"b":1,"b":2},"reason":"","error":""}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := toolgrade.ParseResult(line)
		if err != nil {
			return
		}
		again := r.AppendJSON(nil)
		if fields := toolgrade.AppendResultFields(nil, &r); string(fields) != string(again) {
			t.Fatalf("line:\n%s\nfields:\n%s", again, fields)
		}
		r2, err := toolgrade.ParseResult(again)
		if err != nil {
			t.Fatalf("%v reading back\n%s\nfrom\n%s", err, again, line)
		}
		if diff := cmp.Diff(r, r2); diff != "" {
			t.Fatalf("read back (-first +second):\n%s\n%s", diff, again)
		}
		if third := r2.AppendJSON(nil); string(third) != string(again) {
			t.Fatalf("written again:\n%s\nfirst:\n%s", third, again)
		}
	})
}

// TestResultLineFiguresRemembered: metric results whose figures differ
// in one thing only (a verdict, a threshold, an error, a figure left out,
// the metric's name or profile) are each written as the fields write
// them, however often and in whatever order: the line keeps the text of
// metrics and figures written lately.
func TestResultLineFiguresRemembered(t *testing.T) {
	nums := []*float64{nil, toolgrade.Float(0), toolgrade.Float(0.5), toolgrade.Float(1), toolgrade.Float(math.Copysign(0, -1))}
	var results []toolgrade.Result
	for _, score := range []float64{0, 0.5, 1} {
		for _, threshold := range nums[:3] {
			for _, success := range []bool{false, true} {
				for _, erred := range []string{"", "bad"} {
					for _, p := range nums {
						for _, rec := range nums[:3] {
							for _, f1 := range nums[:3] {
								for _, head := range [][2]string{{"m", "default"}, {"m", "strict"}, {"n", "default"}, {"tool_correctness", "default"}} {
									m := toolgrade.MetricResult{Name: head[0], Profile: head[1], Score: score, Threshold: threshold, Success: success,
										Error: erred, Precision: p, Recall: rec, F1: f1}
									results = append(results, toolgrade.Result{ID: "c", Metrics: []toolgrade.MetricResult{m}})
								}
							}
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 3 {
		rng.Shuffle(len(results), func(i, j int) { results[i], results[j] = results[j], results[i] })
		for i := range results {
			r := &results[i]
			if got, want := string(r.AppendJSON(nil)), string(toolgrade.AppendResultFields(nil, r)); got != want {
				t.Fatalf("round %d: line:\n%s\nfields:\n%s", round, got, want)
			}
		}
	}
}
