package runner_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/runner"
)

var update = flag.Bool("update", false, "rewrite golden files")

// runFileCases are cases, one per line, and their scripts.
var runFileCases = []struct {
	line    string
	replies []string
}{
	{`{"id":"ok","input":"Weather in Paris?",` + weatherTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}],"tools_called":[{"name":"old"}],"actual_output":"old answer"}`,
		[]string{completion(toolCalls(`get_weather {"city":"Paris"}`, `get_time "UTC"`)), completion(text("Sunny."))}},
	{`{"input":"Bad arguments",` + weatherTools + `}`,
		[]string{completion(toolCalls(`get_weather {"city": Paris}`, `launch {}`)), completion(text("Sorry."))}},
	{`{"id":"trip","input":"Trip",` + weatherTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Oslo"},"output":"snow"}]}`,
		[]string{completion(toolCalls(`get_weather {"city":"Oslo"}`)), completion(text("Pack boots."))}},
	{`{"id":"down","input":"Anyone there?"}`,
		[]string{"!HTTP 503 Service Unavailable: overloaded (after 5 attempts)"}},
	{`{"id":"broken", "input": `, nil},
}

func runFile(t *testing.T) ([]*runner.Run, []byte) {
	t.Helper()
	script := map[string][]string{}
	var lines []string
	for _, c := range runFileCases {
		lines = append(lines, c.line)
		if c.replies != nil {
			v, _ := jsonvalue.ParseString(c.line)
			in, _ := v.(jsonvalue.Object).Get("input")
			script[in.(string)] = c.replies
		}
	}
	r, err := runner.New(&fake{script: script}, runner.Options{Model: "m", MultiTurn: true})
	if err != nil {
		t.Fatal(err)
	}
	var runs []*runner.Run
	var out []byte
	src := dataset.Reader("cases.jsonl", strings.NewReader(strings.Join(lines, "\n")), dataset.JSONL)
	err = r.Run(context.Background(), src, func(run *runner.Run) error {
		runs = append(runs, run)
		out = append(run.AppendJSON(out), '\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return runs, out
}

var latency = regexp.MustCompile(`"latency_ms":[0-9.e+-]+`)

func TestRunFileGolden(t *testing.T) {
	_, out := runFile(t)
	out = latency.ReplaceAll(out, []byte(`"latency_ms":0`))
	golden := filepath.Join("testdata", "runfile.golden.jsonl")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("run file differs from %s (go test -update to accept):\n%s", golden, cmp.Diff(string(want), string(out)))
	}
}

// TestRunFileReadsBack checks that each run-file line reads back, as
// toolgrade eval reads it, into the case that ran with the model's calls,
// and that failed runs read back as errors.
func TestRunFileReadsBack(t *testing.T) {
	runs, out := runFile(t)
	i := 0
	for rec, err := range dataset.Reader("run.jsonl", bytes.NewReader(out), dataset.JSONL) {
		if err != nil {
			t.Fatal(err)
		}
		run := runs[i]
		i++
		c, err := rec.Decode()
		if err == nil {
			err = runner.CheckRun(c)
		}
		if c == nil || c.ID != run.ID {
			t.Fatalf("line %d: case %+v, want id %s", i, c, run.ID)
		}
		if run.Error != "" {
			if err == nil || err.Error() != run.Error {
				t.Errorf("%s: error %v, want %q", run.ID, err, run.Error)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", run.ID, err)
		}
		if !sameCalls(run.Calls, c.Called) {
			t.Errorf("%s: calls read back as\n%v\nwant\n%v", run.ID, c.Called, run.Calls)
		}
		if diff := cmp.Diff(run.Case.Input, c.Input); diff != "" {
			t.Errorf("%s: input (-ran +read):\n%s", run.ID, diff)
		}
		if len(c.Expected) != len(run.Case.Expected) || c.ActualOutput != nonEmpty(run.Text) {
			t.Errorf("%s: expected %v, actual output %v", run.ID, c.Expected, c.ActualOutput)
		}
		if runner.RunError(c) != "" {
			t.Errorf("%s: run error %q", run.ID, runner.RunError(c))
		}
	}
	if i != len(runs) {
		t.Errorf("%d lines read back, want %d", i, len(runs))
	}
	// The case's own calls and answer are kept, not lost.
	first, _, _ := bytes.Cut(out, []byte("\n"))
	if !bytes.Contains(first, []byte(`"replaced":{"tools_called":[{"name":"old"}],"actual_output":"old answer"}`)) {
		t.Errorf("first line does not keep the replaced fields: %s", first)
	}
}

func sameCalls(a, b []toolgrade.Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Name != y.Name || x.ID != y.ID || x.Invalid != y.Invalid || x.ArgsRaw != y.ArgsRaw ||
			!jsonvalue.Equal(x.Args, y.Args) || !jsonvalue.Equal(x.Output, y.Output) {
			return false
		}
	}
	return true
}

func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func TestTallyText(t *testing.T) {
	runs, _ := runFile(t)
	var tally runner.Tally
	for _, r := range runs {
		tally.Add(r)
	}
	var b strings.Builder
	if err := tally.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`[0-9.]+s waiting`).ReplaceAllString(b.String(), "Xs waiting")
	want := "model: 5 cases, 7 requests (1 failed), 60 prompt + 30 completion tokens, Xs waiting per case\n" +
		"processing errors: 3 of 5 cases (60.0%): 1 bad_case, 1 invalid_arguments, 1 model_error, 1 unknown_tool\n"
	if got != want {
		t.Errorf("tally:\n%s\nwant:\n%s", got, want)
	}
}
