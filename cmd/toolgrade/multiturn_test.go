package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/process"
)

// TestMultiTurnTraces grades real multi-turn traces (a BFCL multi-turn
// result, two τ-bench airline conversations, two ADK recordings as two
// invocations) turn by turn from the command line, and checks the results
// against the values worked out by hand in testdata/multiturn/README.md:
// each turn's score and calls, the case's score (mean of the turns, and
// BFCL's all-or-nothing), precision, recall and F1 over all turns, failed
// and retried calls, data-flow links and process rules.
func TestMultiTurnTraces(t *testing.T) {
	type turn struct {
		score            float64
		expected, called []int
	}
	type rule struct {
		kept     bool
		breaches []int
	}
	type want struct {
		turns             []turn
		score             float64 // turn_aggregate: mean (the default)
		all               float64 // turn_aggregate: all
		precision, recall float64
		f1                float64
		missing           []int
		unexpected        int // how many; which of two equal calls is left over is not fixed
		failed, retried   []int
		flows             match.Flows
		reason            []string // parts the reason must say
		process           []rule   // nil: no process rules, score 1
		processScore      float64
	}
	none := []int{}
	tests := []struct {
		file string
		code int
		want map[string]want
	}{{
		file: "bfcl_multi_turn_base_0.jsonl",
		code: 1,
		want: map[string]want{"bfcl-multi_turn_base_0-glyphh-ada-1.1": {
			turns: []turn{
				{6.0 / 7, []int{0, 1, 2}, []int{0, 1, 2, 3}},
				{4.0 / 5, []int{3, 4}, []int{4, 5, 6}},
				{1, []int{5}, []int{7}},
				{1, []int{6, 7, 8, 9}, []int{8, 9, 10, 11}},
			},
			score: 32.0 / 35, all: 0,
			precision: 10.0 / 12, recall: 1, f1: 10.0 / 11,
			missing: none, unexpected: 2,
			reason:       []string{`unexpected mv({"source":"final_report.pdf","destination":"temp/final_report.pdf"}) (called #2)`, "2 of 4 turns passed"},
			processScore: 1,
		}},
	}, {
		file: "tau_bench_airline.jsonl",
		code: 1,
		want: map[string]want{
			"tau-airline-task00-trial0": {
				turns: []turn{
					{1, none, none},
					{1, none, none},
					{1, []int{0, 1}, []int{0, 1}},
					{1, []int{2}, []int{2}},
					{1, []int{3}, []int{3}},
					{0, []int{4}, []int{5, 6}},
					{0, none, []int{7}},
					{1, none, none},
				},
				score: 6.0 / 8, all: 0,
				precision: 4.0 / 7, recall: 4.0 / 5, f1: 2.0 / 3,
				missing: []int{4}, unexpected: 3,
				failed: []int{4}, retried: []int{4},
				reason:       []string{"called #7 is in turn 7, not 6", "book_reservation (called #4) failed and was retried: not counted", "6 of 8 turns passed"},
				process:      []rule{{true, none}, {false, []int{7}}},
				processScore: 0.5,
			},
			"tau-airline-task06-trial0": {
				turns: []turn{
					{1, none, none},
					{1, []int{0}, []int{0}},
					{1, []int{1}, []int{1}},
					{4.0 / 5, []int{2, 3}, []int{2, 3, 4}},
					{1, []int{4}, []int{5}},
					{1, none, none},
				},
				score: 29.0 / 30, all: 0,
				precision: 5.0 / 6, recall: 1, f1: 10.0 / 11,
				missing: none, unexpected: 1,
				flows: []match.Flow{
					{From: 0, To: 1, Arg: "reservation_id", Ref: "get_user_details.output.reservations[0]", OK: true},
					{From: 2, To: 5, Arg: "flights.0.flight_number", Ref: "search_onestop_flight.output[1][0].flight_number", OK: true},
					{From: 2, To: 5, Arg: "flights.1.flight_number", Ref: "search_onestop_flight.output[1][1].flight_number", OK: true},
					{From: 1, To: 5, Arg: "payment_id", Ref: "get_reservation_details.output.payment_history[0].payment_id", OK: true},
					{From: 1, To: 5, Arg: "reservation_id", Ref: "get_reservation_details.output.reservation_id", OK: true},
				},
				reason:       []string{"unexpected think(", "(called #3)", "5 of 6 turns passed"},
				process:      []rule{{true, none}, {true, none}, {true, none}},
				processScore: 1,
			},
		},
	}, {
		file: "adk_weather_invocations.jsonl",
		code: 0,
		want: map[string]want{"adk-weather-two-invocations": {
			turns: []turn{
				{1, []int{0}, []int{0}},
				{1, []int{1, 2}, []int{1, 2}},
			},
			score: 1, all: 1,
			precision: 1, recall: 1, f1: 1,
			missing: none, unexpected: 0,
			reason:       []string{"all 3 expected calls matched", "2 of 2 turns passed"},
			processScore: 1,
		}},
	}}

	config := writeFile(t, "toolgrade.yaml", `metrics:
  - profile: default
  - name: every_turn
    turn_aggregate: all
  - metric: tool_process
`)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	ints := func(s []int) []int {
		if s == nil {
			return []int{}
		}
		return s
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code, out, stderr := run(t, "", "eval", "--config", config, "--quiet", filepath.Join("testdata", "multiturn", tt.file))
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			seen := map[string]bool{}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				r, err := toolgrade.ParseResult([]byte(line))
				if err != nil {
					t.Fatalf("%v: %s", err, line)
				}
				w, ok := tt.want[r.ID]
				if !ok {
					t.Errorf("unexpected case %q", r.ID)
					continue
				}
				seen[r.ID] = true
				if len(r.Warnings) > 0 {
					t.Errorf("%s: warnings %q", r.ID, r.Warnings)
				}
				byName := map[string]toolgrade.MetricResult{}
				for _, m := range r.Metrics {
					if m.Error != "" {
						t.Fatalf("%s: %s: %s", r.ID, m.Name, m.Error)
					}
					byName[m.Name] = m
				}
				for _, name := range []string{"tool_correctness", "every_turn"} {
					m, ok := byName[name]
					if !ok {
						t.Fatalf("%s: no %s result", r.ID, name)
					}
					score := w.score
					if name == "every_turn" {
						score = w.all
					}
					if !near(m.Score, score) {
						t.Errorf("%s %s: score %v, want %v", r.ID, name, m.Score, score)
					}
					if m.Precision == nil || m.Recall == nil || m.F1 == nil ||
						!near(*m.Precision, w.precision) || !near(*m.Recall, w.recall) || !near(*m.F1, w.f1) {
						t.Errorf("%s %s: precision, recall, F1 %v %v %v, want %v %v %v", r.ID, name,
							floatOrNil(m.Precision), floatOrNil(m.Recall), floatOrNil(m.F1), w.precision, w.recall, w.f1)
					}
					turns := toolgrade.DetailOf[match.Turns](&m)
					if len(turns) != len(w.turns) {
						t.Fatalf("%s %s: %d turns, want %d: %+v", r.ID, name, len(turns), len(w.turns), turns)
					}
					for i, got := range turns {
						wt := w.turns[i]
						if got.Turn != i+1 || !near(got.Score, wt.score) || got.Success != (wt.score >= 1) ||
							!cmp.Equal(ints(got.Expected), wt.expected) || !cmp.Equal(ints(got.Called), wt.called) {
							t.Errorf("%s %s: turn %d is %+v, want score %v expected %v called %v", r.ID, name, i+1, got, wt.score, wt.expected, wt.called)
						}
					}
					if !cmp.Equal(ints(m.Missing), w.missing) || len(m.Unexpected) != w.unexpected {
						t.Errorf("%s %s: missing %v unexpected %v, want missing %v and %d unexpected", r.ID, name, m.Missing, m.Unexpected, w.missing, w.unexpected)
					}
					failed, retried := toolgrade.DetailOf[match.Failed](&m), toolgrade.DetailOf[match.Retried](&m)
					if !cmp.Equal(ints(failed), ints(w.failed)) || !cmp.Equal(ints(retried), ints(w.retried)) {
						t.Errorf("%s %s: failed %v retried %v, want %v %v", r.ID, name, failed, retried, w.failed, w.retried)
					}
					if diff := cmp.Diff(w.flows, toolgrade.DetailOf[match.Flows](&m)); diff != "" {
						t.Errorf("%s %s: flows (-want +got):\n%s", r.ID, name, diff)
					}
					for _, part := range w.reason {
						if !strings.Contains(m.Reason, part) {
							t.Errorf("%s %s: reason %q does not say %q", r.ID, name, m.Reason, part)
						}
					}
				}
				p := byName["tool_process"]
				if !near(p.Score, w.processScore) {
					t.Errorf("%s tool_process: score %v, want %v (%s)", r.ID, p.Score, w.processScore, p.Reason)
				}
				rules := toolgrade.DetailOf[process.RuleChecks](&p)
				if len(rules) != len(w.process) {
					t.Fatalf("%s tool_process: %d rules, want %d: %+v", r.ID, len(rules), len(w.process), rules)
				}
				for i, got := range rules {
					if got.Kept != w.process[i].kept || !cmp.Equal(ints(got.Breaches), w.process[i].breaches) {
						t.Errorf("%s tool_process: rule %q kept %v breaches %v, want %v %v", r.ID, got.Rule, got.Kept, got.Breaches, w.process[i].kept, w.process[i].breaches)
					}
				}
			}
			for id := range tt.want {
				if !seen[id] {
					t.Errorf("no result for %s", id)
				}
			}
		})
	}
}

func floatOrNil(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
