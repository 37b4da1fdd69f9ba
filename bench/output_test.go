package bench_test

import (
	"context"
	"io"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/report"
)

// smallResults are small generated cases (at most 3 expected calls, as
// BenchmarkEvalSmall's) graded with the native metric.
var smallResults = sync.OnceValue(func() []toolgrade.Result {
	g := bench.NewGenerator(1)
	g.MaxCalls = 3
	m := nativeMetric(nil)
	var out []toolgrade.Result
	for _, rec := range linesRecords(nil, g.Lines(2000)) {
		c, err := rec.Decode()
		if err != nil {
			panic(err)
		}
		out = append(out, toolgrade.Grade(context.Background(), c, m))
	}
	return out
})

// BenchmarkOutput is what `toolgrade eval` does with each result once it
// is graded: the run's statistics and the JSON Lines result line. One op
// is a run over 2,000 small cases, with fresh statistics and writer.
func BenchmarkOutput(b *testing.B) {
	results := smallResults()
	b.ReportAllocs()
	for b.Loop() {
		var s report.Stats
		out := report.JSONL(io.Discard)
		for i := range results {
			s.Add(&results[i])
			if err := out.Add(&results[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := out.Finish(&s); err != nil {
			b.Fatal(err)
		}
	}
	perCase(b, len(results))
}
