package judge_test

import (
	"context"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/judge"
	"pgregory.net/rapid"
)

// The combined score is the lower of the two, zeroed by strict mode
// below 1, and success follows the threshold.
func TestMinToolSelectionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		det := rapid.Float64Range(0, 1).Draw(t, "deterministic")
		sel := rapid.Float64Range(0, 1).Draw(t, "selection")
		th := rapid.Float64Range(0, 1).Draw(t, "threshold")
		strict := rapid.Bool().Draw(t, "strict")
		inner := fixedMetric{toolgrade.MetricResult{Name: "tool_correctness", Score: det, Threshold: &th, Success: det >= th}}
		m := &judge.MinToolSelection{Metric: inner, Judge: answer(sel, ""), Strict: strict}
		r := m.Grade(context.Background(), weatherCase())
		want := min(det, sel)
		if strict && want < 1 {
			want = 0
		}
		if r.Score != want || r.Success != (want >= th) || r.Error != "" {
			t.Fatalf("det %v sel %v strict %v: score %v success %v error %q; want %v", det, sel, strict, r.Score, r.Success, r.Error, want)
		}
	})
}

func BenchmarkParseVerdict(b *testing.B) {
	reply := "Sure, here is my verdict.\n```json\n{\"score\": 0.75, \"reason\": \"one unneeded call to get_time\"}\n```"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := judge.ParseVerdict(reply); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkArgumentCorrectness grades a case of 8 calls against a judge
// that answers at once: what the metric itself costs, building the
// prompts and asking them together.
func BenchmarkArgumentCorrectness(b *testing.B) {
	m, err := judge.NewArgumentCorrectness(constantJudge(1), nil, judge.Options{})
	if err != nil {
		b.Fatal(err)
	}
	c := manyCalls(8)
	b.ReportAllocs()
	for b.Loop() {
		if r := m.Grade(context.Background(), c); r.Error != "" {
			b.Fatal(r.Error)
		}
	}
}
