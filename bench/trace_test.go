package bench_test

import (
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// trajectories are the OpenAI chat transcripts of the generated cases that
// give their calls that way, decoded and as JSON text.
var trajectories = sync.OnceValues(func() ([]any, [][]byte) {
	var values []any
	var texts [][]byte
	for _, c := range cases() {
		if c.Trajectory != nil {
			values = append(values, c.Trajectory)
			texts = append(texts, jsonvalue.Append(nil, c.Trajectory))
		}
	}
	return values, texts
})

// BenchmarkTraceRead reads the calls out of one transcript: Extract from a
// decoded value (as a case's trajectory is), Read from its JSON text
// (detecting the format each time).
func BenchmarkTraceRead(b *testing.B) {
	values, texts := trajectories()
	b.Run("extract", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := trace.Extract(values[i%len(values)], ""); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := trace.Read(texts[i%len(texts)], ""); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
