package bench_test

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
	"github.com/toolgrade/toolgrade/report"
)

// trialResults feeds f the results of cases cases, each run trials times,
// the whole run over again for each trial (the trials of a case far
// apart, as when several run files are graded together). Results have
// one metric with one of seven scores, as the generated cases' are; the
// ids are made before.
func trialResults(ids []string, trials int, f func(*toolgrade.Result)) {
	th := 0.5
	r := &toolgrade.Result{Metrics: make([]toolgrade.MetricResult, 1)}
	for t := range trials {
		for i, id := range ids {
			s := float64((i+t)%7) / 6
			r.ID, r.Success = id, s >= th
			r.Metrics[0] = toolgrade.MetricResult{Name: "tool_correctness", Profile: "default", Score: s, Success: r.Success, Threshold: &th}
			f(r)
		}
	}
}

func caseIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "case-" + strconv.Itoa(i)
	}
	return ids
}

// BenchmarkTrials is the grouping of results into trials that every run's
// summary does ([reliability.Trials].Add), on a million cases, run once
// or three times: ns/result is its time, B/case the memory it keeps
// (measured once, after a collection, beside the timed loop).
func BenchmarkTrials(b *testing.B) {
	const cases = 1_000_000
	ids := caseIDs(cases)
	for _, trials := range []int{1, 3} {
		b.Run("cases=1M/trials="+strconv.Itoa(trials), func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var kept reliability.Trials
			trialResults(ids, trials, func(r *toolgrade.Result) { kept.Add(r) })
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(&kept)
			for b.Loop() {
				var t reliability.Trials
				trialResults(ids, trials, func(r *toolgrade.Result) { t.Add(r) })
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cases*trials), "ns/result")
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/cases, "B/case")
		})
	}
}

// BenchmarkManyTrials is one case run 100,000 times, through a run's
// summary: every result added, then the figures (pass@k and pass^k for
// every k, before for the suite's pass@k table). It took 55 s when each k
// cost O(n).
func BenchmarkManyTrials(b *testing.B) {
	const n = 100_000
	ids := []string{"the-case"}
	for b.Loop() {
		var s report.Stats
		trialResults(ids, n, s.Add)
		if rel := s.Reliability(); len(rel.Metrics[0].PassAtK) != n {
			b.Fatalf("%d pass@k figures, want %d", len(rel.Metrics[0].PassAtK), n)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(time.Millisecond), "ms/run")
}
