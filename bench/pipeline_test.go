package bench_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/report"
)

// lines are the generated cases the benchmarks share.
var lines = sync.OnceValue(func() [][]byte { return bench.NewGenerator(1).Lines(2000) })

// nativeMetric is the metric `toolgrade eval` runs without a config.
func nativeMetric(tb testing.TB) toolgrade.Metric {
	m, err := config.Metric(jsonvalue.Object{}, &config.Env{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkEvaluate is `toolgrade eval --quiet` without the file system:
// split JSON Lines, decode and grade on the workers, write result lines
// and the run's statistics. One op is a run over all the cases; ns/case
// and cases/s are per case.
func BenchmarkEvaluate(b *testing.B) {
	input := bytes.Join(lines(), []byte("\n"))
	metrics := []toolgrade.Metric{nativeMetric(b)}
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		out := report.JSONL(io.Discard)
		var stats report.Stats
		err := toolgrade.Evaluate(context.Background(), dataset.Reader("bench.jsonl", bytes.NewReader(input), dataset.JSONL), metrics,
			func(r *toolgrade.Result) error { stats.Add(r); return out.Add(r) })
		if err != nil {
			b.Fatal(err)
		}
	}
	perCase(b, len(lines()))
}

// perCase reports the time per case of benchmarks whose op is n cases.
func perCase(b *testing.B, n int) {
	cases := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/cases, "ns/case")
	b.ReportMetric(cases/b.Elapsed().Seconds(), "cases/s")
}
