package toolgradetest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/process"
	"github.com/toolgrade/toolgrade/toolgradetest"
)

// recorder stands in for *testing.T and records what a check reports.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()                  {}
func (r *recorder) Context() context.Context { return context.Background() }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// fixed is a metric with a fixed verdict.
type fixed struct{ r toolgrade.MetricResult }

func (f fixed) Name() string                                                  { return f.r.Name }
func (f fixed) Profile() string                                               { return "default" }
func (f fixed) Grade(context.Context, *toolgrade.Case) toolgrade.MetricResult { return f.r }

// asWritten is a passing metric that reads the calls as written.
type asWritten struct{ fixed }

func (asWritten) CaseFields() []string    { return []string{"tools_called", "expected_tools"} }
func (asWritten) WrittenFields() []string { return []string{"tools_called", "expected_tools"} }

func TestCheck(t *testing.T) {
	passing := fixed{toolgrade.MetricResult{Name: "a", Score: 1, Threshold: toolgrade.Float(0.5), Success: true}}
	failing := fixed{toolgrade.MetricResult{Name: "b", Score: 0.25, Threshold: toolgrade.Float(0.5), Reason: "missing get_weather"}}
	erring := fixed{toolgrade.MetricResult{Name: "c", Error: "no expected calls given"}}
	scoreOnly := fixed{toolgrade.MetricResult{Name: "d", Score: 0}}
	tests := []struct {
		name    string
		metrics []toolgrade.Metric
		want    []string // the one message reported, in parts; nil for none
	}{
		{"all pass", []toolgrade.Metric{passing, scoreOnly}, nil},
		{"a failure shows score, threshold and reason", []toolgrade.Metric{passing, failing},
			[]string{"case c1: b scored 0.25, below its threshold 0.5: missing get_weather"}},
		{"every failure is shown", []toolgrade.Metric{failing, erring},
			[]string{"case c1: b scored 0.25", "\ncase c1: c erred: no expected calls given"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			r := toolgradetest.Check(rec, &toolgrade.Case{ID: "c1"}, tt.metrics...)
			if len(r.Metrics) != len(tt.metrics) {
				t.Errorf("result has %d metrics, want %d", len(r.Metrics), len(tt.metrics))
			}
			if tt.want == nil {
				if len(rec.errors) != 0 {
					t.Errorf("reported %q, want nothing", rec.errors)
				}
				return
			}
			if len(rec.errors) != 1 {
				t.Fatalf("reported %q, want one message", rec.errors)
			}
			for _, w := range tt.want {
				if !strings.Contains(rec.errors[0], w) {
					t.Errorf("message %q lacks %q", rec.errors[0], w)
				}
			}
		})
	}
}

// TestCheckFileSubtests runs a CheckFile over testdata/cases.jsonl in a
// child test process and reads its verbose output: one subtest per case,
// named by its id, failing with the metric's reason, or with the reason
// the case could not be read.
func TestCheckFileSubtests(t *testing.T) {
	if os.Getenv("TOOLGRADETEST_CHILD") == "1" {
		t.Skip("in the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckFileChild$", "-test.v")
	cmd.Env = append(os.Environ(), "TOOLGRADETEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child test passed; its cases should fail:\n%s", out)
	}
	// Failures point at the test's own line, not at toolgradetest.go.
	if at := regexp.MustCompile(`(?m)^\s+(\S+\.go):\d+: `).FindAllStringSubmatch(string(out), -1); len(at) != 2 || at[0][1] != "toolgradetest_test.go" || at[1][1] != "toolgradetest_test.go" {
		t.Errorf("failures are not reported at the test's line (%v):\n%s", at, out)
	}
	for _, want := range []string{
		"--- PASS: TestCheckFileChild/weather-right",
		"--- FAIL: TestCheckFileChild/weather-wrong-city",
		`case weather-wrong-city: tool_correctness scored 0, below its threshold 1: missing get_weather({"city":"Paris"})`,
		"--- FAIL: TestCheckFileChild/broken",
		"cannot read the case: testdata/cases.jsonl:3: field expected_tools[0].name: missing",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
	// A case whose calls do not decode is left to a metric that reads
	// them as written, as toolgrade eval leaves it.
	cmd = exec.Command(os.Args[0], "-test.run=^TestCheckFileChild$", "-test.v")
	cmd.Env = append(os.Environ(), "TOOLGRADETEST_CHILD=1", "TOOLGRADETEST_AS_WRITTEN=1")
	if out, err = cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestCheckFileChild/broken") {
		t.Errorf("with a metric that reads the calls as written, the case broken did not pass:\n%s", out)
	}
}

func TestCheckFileChild(t *testing.T) {
	if os.Getenv("TOOLGRADETEST_CHILD") != "1" {
		t.Skip("run by TestCheckFileSubtests")
	}
	if os.Getenv("TOOLGRADETEST_AS_WRITTEN") == "1" {
		toolgradetest.CheckFile(t, "testdata/cases.jsonl", asWritten{fixed{toolgrade.MetricResult{Name: "written", Score: 1}}})
		return
	}
	m, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	toolgradetest.CheckFile(t, "testdata/cases.jsonl", m)
}

// A failure names the case's file and line, and a peer's profile beside
// the metric's name, so that two profiles of one metric are told apart.
func TestFailuresNameFileLineAndProfile(t *testing.T) {
	th := 0.5
	r := toolgrade.Result{
		ID:   "weather",
		Case: &toolgrade.Case{ID: "weather", Source: "testdata/cases.jsonl", Line: 3},
		Metrics: []toolgrade.MetricResult{
			{Name: "tool_correctness", Profile: "default", Score: 0, Threshold: &th, Reason: "missing f"},
			{Name: "tool_correctness", Profile: "deepeval", Score: 0, Threshold: &th, Reason: "0 of 1"},
		},
	}
	want := "testdata/cases.jsonl:3: case weather: tool_correctness scored 0, below its threshold 0.5: missing f\n" +
		"testdata/cases.jsonl:3: case weather: tool_correctness (deepeval) scored 0, below its threshold 0.5: 0 of 1"
	if got := toolgradetest.Failures(&r); got != want {
		t.Errorf("Failures =\n%s\nwant\n%s", got, want)
	}
}

// TestCheckTrajectory: a failed turn, a failed call and a broken process
// rule each reach the test's failure message, in the metrics' words.
func TestCheckTrajectory(t *testing.T) {
	tc, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := process.New(process.Options{Rules: process.RuleList{map[string]any{"before": []string{"confirm", "cancel"}}}})
	if err != nil {
		t.Fatal(err)
	}
	c := &toolgrade.Case{ID: "c1",
		Turns: []toolgrade.Turn{{Input: "find W1"}, {Input: "cancel it"}},
		Called: []toolgrade.Call{
			{Name: "find", Args: jsonvalue.Object{}, Turn: 1, Status: toolgrade.StatusError},
			{Name: "find", Args: jsonvalue.Object{}, Turn: 1, Status: toolgrade.StatusOK},
			{Name: "cancel", Args: jsonvalue.Object{}, Turn: 2},
		},
		Expected: []toolgrade.Call{{Name: "find", Turn: 1}, {Name: "confirm", Turn: 2}, {Name: "cancel", Turn: 2}},
	}
	rec := &recorder{}
	toolgradetest.Check(rec, c, tc, pm)
	msg := strings.Join(rec.errors, "\n")
	for _, want := range []string{
		"tool_correctness scored 0.8333",
		"find (called #0) failed and was retried",
		"1 of 2 turns passed",
		"missing confirm()",
		"tool_process scored 0",
		"cancel (#2) has no confirm before it",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}
