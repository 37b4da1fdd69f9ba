package report_test

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/report"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fataler is what the helpers need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// calls decodes a JSON list of calls.
func calls(t fataler, text string) []toolgrade.Call {
	t.Helper()
	v, err := jsonvalue.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := compat.DecodeCalls(v)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func value(t fataler, text string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// nasty is text from a hostile trace: markup, a script end tag, Markdown
// and table syntax, a terminal escape, a NUL, an invalid byte.
const nasty = "x</script><script>alert(1)</script>|*_[a](b) \x1b[31mred\x00 \xff &amp; \"q\" '"

// fixture is a fixed run: a pass, a partial pair, a missed and an extra
// call, a call with wrong arguments, hostile text, an unreadable record,
// a metric that erred, and a judge-style metric without a threshold.
func fixture(t fataler) []*toolgrade.Result {
	t.Helper()
	half, two3, one, zero := 0.5, 2.0/3, 1.0, 0.0
	thr := toolgrade.Float(0.8)
	tc := func(score float64, p, r, f *float64, matches []toolgrade.Match, missing, unexpected []int, reason string) toolgrade.MetricResult {
		return toolgrade.MetricResult{Name: "tool_correctness", Profile: "default", Score: score, Threshold: thr,
			Success: score >= *thr, Precision: p, Recall: r, F1: f, Matches: matches, Missing: missing, Unexpected: unexpected, Reason: reason}
	}
	judged := func(score float64) toolgrade.MetricResult {
		return toolgrade.MetricResult{Name: "tool_selection", Profile: "judge", Score: score, Reason: "the tools fit the request",
			Details: []toolgrade.Detail{toolgrade.Usage{PromptTokens: 100, CompletionTokens: 20, Requests: 1}}}
	}
	result := func(c *toolgrade.Case, ms ...toolgrade.MetricResult) *toolgrade.Result {
		r := &toolgrade.Result{ID: c.ID, Success: true, Metrics: ms, Case: c}
		for i := range ms {
			if !ms[i].Verdict() {
				r.Success = false
			}
		}
		return r
	}
	weather := `[{"name":"get_weather","args":{"city":"Paris","days":1}}]`
	return []*toolgrade.Result{
		result(&toolgrade.Case{ID: "weather-ok", Source: "cases.jsonl", Line: 1, Expected: calls(t, weather), Called: calls(t, weather)},
			tc(1, &one, &one, &one, []toolgrade.Match{{Expected: 0, Called: 0, Score: 1}}, []int{}, []int{}, "all 1 expected calls matched"),
			judged(0.9)),
		result(&toolgrade.Case{ID: "flight-partial", Source: "cases.jsonl", Line: 2,
			Expected: calls(t, `[{"name":"search_flights","args":{"from":"PAR","to":"NYC","date":"2025-01-02"}}]`),
			Called:   calls(t, `[{"name":"search_flights","args":{"from":"PAR","to":"NYC","date":"2025-01-03"}}]`)},
			tc(two3, &two3, &two3, &two3, []toolgrade.Match{{Expected: 0, Called: 0, Score: two3,
				Diffs: []toolgrade.ArgDiff{{Path: "date", Expected: "2025-01-02", Got: "2025-01-03"}}}}, []int{}, []int{},
				`search_flights (expected #0, called #0) scored 0.6667: date expected "2025-01-02", got "2025-01-03"`),
			judged(0.7)),
		result(&toolgrade.Case{ID: "hotel-missed-email-extra", Source: "cases.jsonl", Line: 3,
			Expected: calls(t, `[{"name":"get_weather","args":{"city":"Paris"}},{"name":"book_hotel","args":{"city":"Paris","nights":2}}]`),
			Called:   calls(t, `[{"name":"get_weather","args":{"city":"Paris"}},{"name":"send_email","args":{"to":"a@example.com"}}]`)},
			tc(half, &half, &half, &half, []toolgrade.Match{{Expected: 0, Called: 0, Score: 1}}, []int{1}, []int{1},
				`missing book_hotel({"city":"Paris","nights":2}) (expected #1); unexpected send_email({"to":"a@example.com"}) (called #1)`),
			judged(0.4)),
		result(&toolgrade.Case{ID: nasty, Source: "cases.jsonl", Line: 4,
			Expected: calls(t, `[{"name":"lookup","args":{"q":"ok"}}]`),
			Called:   []toolgrade.Call{{Name: "evil<img src=x onerror=alert(1)>", Args: value(t, `{"q":"\u001b[31m</script><b>bold</b> & \"quotes\""}`)}}},
			tc(0, &zero, &zero, &zero, []toolgrade.Match{}, []int{0}, []int{0}, "missing lookup; unexpected "+nasty),
			judged(0.1)),
		result(&toolgrade.Case{ID: "weather-wrong-args", Source: "cases.jsonl", Line: 5,
			Expected: calls(t, weather),
			Called:   calls(t, `[{"name":"get_weather","args":{"city":"Paris, Texas","days":1}}]`)},
			tc(0, &zero, &zero, &zero, []toolgrade.Match{}, []int{0}, []int{0},
				`missing get_weather({"city":"Paris","days":1}) (expected #0): called #0 differs: city expected "Paris", got "Paris, Texas"`),
			judged(0.8)),
		{ID: "line-6", Error: "cases.jsonl:6:12: invalid JSON: unexpected end of input", Metrics: []toolgrade.MetricResult{
			{Name: "tool_correctness", Profile: "default", Error: "cases.jsonl:6:12: invalid JSON: unexpected end of input"},
			{Name: "tool_selection", Profile: "judge", Error: "cases.jsonl:6:12: invalid JSON: unexpected end of input"}}},
		result(&toolgrade.Case{ID: "metric-erred", Source: "cases.jsonl", Line: 7, Expected: calls(t, weather), Called: calls(t, weather)},
			toolgrade.MetricResult{Name: "tool_correctness", Profile: "default", Threshold: thr, Error: "internal error in metric tool_correctness: boom\nstack line 1\nstack line 2"},
			judged(1)),
	}
}

// render runs the results through a writer and returns what it wrote.
func render(t fataler, results []*toolgrade.Result, newWriter func(w *bytes.Buffer) report.Writer) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := newWriter(&buf)
	s := report.Stats{Run: testRun}
	for _, r := range results {
		s.Add(r)
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(&s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// testRun is the run the golden reports describe.
var testRun = report.RunInfo{
	Started: time.Date(2025, 1, 2, 15, 4, 5, 0, time.FixedZone("", 3600)),
	Version: "v0.1.0",
	Command: []string{"toolgrade", "eval", "--config", "toolgrade.yaml", "--html", "report.html", "my cases.jsonl"},
	Config:  "toolgrade.yaml",
	Metrics: []report.RunMetric{{Label: "tool_correctness", Settings: `{"threshold":0.8}`}},
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update accepts the new output):\n%s", path, diff)
	}
}

func TestGolden(t *testing.T) {
	results := fixture(t)
	for _, tt := range []struct {
		file string
		make func(w *bytes.Buffer) report.Writer
	}{
		{"summary.txt", func(w *bytes.Buffer) report.Writer { return report.Text(w) }},
		{"summary.md", func(w *bytes.Buffer) report.Writer { return report.Markdown(w) }},
		{"junit.xml", func(w *bytes.Buffer) report.Writer { return report.JUnit(w) }},
		{"results.jsonl", func(w *bytes.Buffer) report.Writer { return report.JSONL(w) }},
	} {
		t.Run(tt.file, func(t *testing.T) {
			golden(t, tt.file, render(t, results, tt.make))
		})
	}
}

// TestJSONLinesRoundTrip checks that every line written is the result
// contract: it parses back to the same verdicts and scores.
func TestJSONLinesRoundTrip(t *testing.T) {
	results := fixture(t)
	lines := strings.Split(strings.TrimSuffix(string(render(t, results, func(w *bytes.Buffer) report.Writer { return report.JSONL(w) })), "\n"), "\n")
	if len(lines) != len(results) {
		t.Fatalf("%d lines for %d results", len(lines), len(results))
	}
	for i, line := range lines {
		r, err := toolgrade.ParseResult([]byte(line))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		// JSON carries text, so an invalid byte reads back as U+FFFD.
		if r.ID != strings.ToValidUTF8(results[i].ID, "\uFFFD") || r.Success != results[i].Success || len(r.Metrics) != len(results[i].Metrics) {
			t.Errorf("line %d reads back as id %q success %v, want %q %v", i+1, r.ID, r.Success, results[i].ID, results[i].Success)
		}
	}
}

// TestEmptyRun: every report copes with a run without results.
func TestEmptyRun(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(w *bytes.Buffer) report.Writer
		want string
	}{
		{"text", func(w *bytes.Buffer) report.Writer { return report.Text(w) }, "0 cases: 0 passed, 0 failed\n"},
		{"markdown", func(w *bytes.Buffer) report.Writer { return report.Markdown(w) }, "### ✅ toolgrade: 0 of 0 cases passed"},
		{"junit", func(w *bytes.Buffer) report.Writer { return report.JUnit(w) }, `<testsuites name="toolgrade" tests="0" failures="0" errors="0">`},
		{"html", func(w *bytes.Buffer) report.Writer { return report.HTML(w) }, "<strong>0 cases: 0 passed, 0 failed</strong>"},
		{"jsonl", func(w *bytes.Buffer) report.Writer { return report.JSONL(w) }, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := string(render(t, nil, tt.make))
			if tt.want == "" && out != "" || !strings.Contains(out, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, out)
			}
		})
	}
}

// BenchmarkStreaming measures the per-result cost of the streaming
// reports eval runs on every result.
func BenchmarkStreaming(b *testing.B) {
	results := fixture(b)
	var s report.Stats
	jsonl, junit := report.JSONL(io.Discard), report.JUnit(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range results {
			s.Add(r)
			jsonl.Add(r)
			junit.Add(r)
		}
	}
	b.StopTimer()
	junit.Finish(&s)
}

// TestScoreBelowThreshold: a score that rounds to its threshold is shown
// with the decimals that show it below, in every report that sets scores
// against thresholds.
func TestScoreBelowThreshold(t *testing.T) {
	res := &toolgrade.Result{ID: "close", Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default",
		Score: 0.9997, Threshold: toolgrade.Float(1), Reason: "nearly"}}}
	for _, w := range []struct {
		name string
		make func(io.Writer) report.Writer
		want string
	}{
		{"text", report.Text, "0.9997 < 1.0000"},
		{"markdown", report.Markdown, "0.9997 &lt; 1.0000"},
		{"junit", report.JUnit, "score 0.9997 below threshold 1.0000"},
		{"html", report.HTML, ">0.9997<"},
	} {
		t.Run(w.name, func(t *testing.T) {
			var buf bytes.Buffer
			rw := w.make(&buf)
			var st report.Stats
			st.Add(res)
			if err := rw.Add(res); err != nil {
				t.Fatal(err)
			}
			if err := rw.Finish(&st); err != nil {
				t.Fatal(err)
			}
			if out := buf.String(); !strings.Contains(out, w.want) || strings.Contains(out, "1.000 < 1.000") {
				t.Errorf("lacks %q (or says 1.000 < 1.000):\n%s", w.want, out)
			}
		})
	}
}
