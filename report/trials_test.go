package report_test

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/reliability"
	"github.com/toolgrade/toolgrade/report"
)

// trialsFixture is a run of three cases, four trials each: steady passes
// flaky, fails one trial by an argument, and never.
func trialsFixture(t *testing.T) []*toolgrade.Result {
	t.Helper()
	thr := toolgrade.Float(0.5)
	right := `[{"name":"get_weather","args":{"city":"Paris","days":1}}]`
	wrongCity := `[{"name":"get_weather","args":{"city":"Lyon","days":1}}]`
	var out []*toolgrade.Result
	for _, c := range []struct {
		id    string
		calls []string
	}{
		{"steady", []string{right, right, right, right}},
		{"flaky", []string{right, wrongCity, right, wrongCity}},
		{"never", []string{`[]`, `[]`, `[]`, `[]`}},
	} {
		for i, called := range c.calls {
			pass := called == right
			score := 0.0
			if pass {
				score = 1
			}
			raw := value(t, `{"id":"`+c.id+`","trial":`+strconv.Itoa(i+1)+`}`).(jsonvalue.Object)
			cs := &toolgrade.Case{ID: c.id, Trial: i + 1, Source: "runs.jsonl", Line: len(out) + 1, Raw: raw,
				Expected: calls(t, right), Called: calls(t, called)}
			out = append(out, &toolgrade.Result{ID: c.id, Success: pass, Case: cs,
				Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default", Score: score, Success: pass, Threshold: thr}}})
		}
	}
	return out
}

func TestTrialsGolden(t *testing.T) {
	results := trialsFixture(t)
	for _, tt := range []struct {
		file string
		make func(w *bytes.Buffer) report.Writer
	}{
		{"trials.txt", func(w *bytes.Buffer) report.Writer { return report.Text(w) }},
		{"trials.md", func(w *bytes.Buffer) report.Writer { return report.Markdown(w) }},
		{"trials.xml", func(w *bytes.Buffer) report.Writer { return report.JUnit(w) }},
		{"trials.jsonl", func(w *bytes.Buffer) report.Writer { return report.JSONL(w) }},
		{"trials.html", func(w *bytes.Buffer) report.Writer { return report.HTML(w) }},
	} {
		t.Run(tt.file, func(t *testing.T) {
			golden(t, tt.file, render(t, results, tt.make))
		})
	}
}

func TestTrialsReliability(t *testing.T) {
	var s report.Stats
	for _, r := range trialsFixture(t) {
		s.Add(r)
	}
	rel := s.Reliability()
	if rel == nil {
		t.Fatal("no reliability figures for a run with trials")
	}
	if rel.Cases != 3 || rel.Trials != 12 || rel.Passed != 1 || len(rel.Flaky) != 1 || rel.Flaky[0].ID != "flaky" {
		t.Errorf("cases %d trials %d passed %d flaky %v", rel.Cases, rel.Trials, rel.Passed, rel.Flaky)
	}
	m := rel.Metrics[0]
	// Per case pass^2: steady 1, flaky C(2,2)/C(4,2) = 1/6, never 0.
	if want := (1 + 1.0/6) / 3; !closeTo(m.PassHatK[1], want) {
		t.Errorf("suite pass^2 = %v, want %v", m.PassHatK[1], want)
	}
	// pass@2: steady 1, flaky 1 − C(2,2)/C(4,2) = 5/6, never 0.
	if want := (1 + 5.0/6) / 3; !closeTo(m.PassAtK[1], want) {
		t.Errorf("suite pass@2 = %v, want %v", m.PassAtK[1], want)
	}
	t.Run("gate", func(t *testing.T) {
		s := report.Stats{Gates: map[string]reliability.PassK{"tool_correctness": {K: 2, Min: 0.1}}}
		for _, r := range trialsFixture(t) {
			s.Add(r)
		}
		// flaky's pass^2 is 1/6 ≥ 0.1: it passes the gate.
		if rel := s.Reliability(); rel.Passed != 2 || s.CasePassed() {
			t.Errorf("passed %d, want 2 (steady and flaky)", rel.Passed)
		}
	})
	t.Run("single trials report nothing new", func(t *testing.T) {
		var s report.Stats
		for _, r := range fixture(t) {
			s.Add(r)
		}
		if s.Reliability() != nil {
			t.Error("reliability figures for a run without trials")
		}
	})
}

func closeTo(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestTrialsHTML(t *testing.T) {
	page := string(render(t, trialsFixture(t), func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
	for _, want := range []string{
		`<h2>Reliability over trials</h2>`,
		`title="trial 2: failed"`,
		`trial 1 passed, trial 2 failed: call #0 get_weather, argument city: &#34;Paris&#34; in the passing trial, &#34;Lyon&#34; in the failing one`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// Cases of two files, with ids generated per file, each show their own
// trials' parting on the page.
func TestTrialsHTMLGeneratedIDs(t *testing.T) {
	thr := toolgrade.Float(0.5)
	right := `[{"name":"get_weather","args":{"city":"Paris"}}]`
	var results []*toolgrade.Result
	for _, f := range []struct{ source, wrong string }{{"a.jsonl", "Lyon"}, {"b.jsonl", "Nice"}} {
		for i, called := range []string{right, `[{"name":"get_weather","args":{"city":"` + f.wrong + `"}}]`} {
			pass := i == 0
			id := f.source + ":line-1"
			cs := &toolgrade.Case{ID: id, Trial: i + 1, Source: f.source, Line: 1, Expected: calls(t, right), Called: calls(t, called)}
			results = append(results, &toolgrade.Result{ID: id, Success: pass, Case: cs,
				Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default", Success: pass, Threshold: thr}}})
		}
	}
	for range 5 { // the lookup once depended on map order
		page := string(render(t, results, func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
		for _, city := range []string{"Lyon", "Nice"} {
			if want := `&#34;Paris&#34; in the passing trial, &#34;` + city + `&#34; in the failing one`; strings.Count(page, want) != 1 {
				t.Fatalf("page shows %q %d times, want once", want, strings.Count(page, want))
			}
		}
	}
}

// TestTrialsWorstCases: with trials the worst cases are cases, each once,
// the lowest pass rate first: a case that failed one trial of five by a
// score of 0 comes after one that failed all five by 0.25.
func TestTrialsWorstCases(t *testing.T) {
	thr := toolgrade.Float(0.5)
	var s report.Stats
	add := func(id string, trial int, score float64) {
		m := toolgrade.MetricResult{Name: "tool_correctness", Profile: "default", Score: score, Threshold: thr, Success: score >= 0.5}
		s.Add(&toolgrade.Result{ID: id, Success: m.Success, Case: &toolgrade.Case{ID: id, Trial: trial},
			Metrics: []toolgrade.MetricResult{m}})
	}
	for trial := 1; trial <= 5; trial++ {
		mostly := 1.0
		if trial == 1 {
			mostly = 0
		}
		add("mostly", trial, mostly)
		add("never", trial, 0.25)
		add("twice", trial, float64(trial%2)*0.1) // fails every trial, at 0 and 0.1
	}
	var got []string
	for _, f := range s.Failures() {
		got = append(got, f.ID+" "+strconv.Itoa(f.Passed)+"/"+strconv.Itoa(f.Trials)+" "+strconv.FormatFloat(f.Metrics[0].Score, 'f', 2, 64))
	}
	// Among cases that failed every trial, the lower worst score first;
	// each case shows its worst trial.
	want := []string{"twice 0/5 0.00", "never 0/5 0.25", "mostly 4/5 0.00"}
	if !slices.Equal(got, want) {
		t.Errorf("worst cases %q, want %q", got, want)
	}
	var out strings.Builder
	if err := report.Text(&out).Finish(&s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 cases: 0 passed, 3 failed; 15 trials (5 per case): 4 passed, 11 failed\n", "  twice: 0 of 5 trials passed; worst trial:\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, out.String())
		}
	}
}
