package trace_test

import (
	"os"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

func benchmarkFixture(b *testing.B, path ...string) []byte {
	b.Helper()
	data, err := os.ReadFile(shared.Path(b, append([]string{"fixtures", "traces"}, path...)...))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkExtractTauBench measures a decoded 27-call trajectory, as
// dataset.DecodeCase hands it over.
func BenchmarkExtractTauBench(b *testing.B) {
	v, err := jsonvalue.Parse(benchmarkFixture(b, "tau_bench", "gpt-4o-airline.task02.trial1.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := trace.Extract(v, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadAnthropicSSE(b *testing.B) {
	data := benchmarkFixture(b, "anthropic_messages", "parallel_tool_use_stream.sse")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := trace.Read(data, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadOTLP(b *testing.B) {
	data := benchmarkFixture(b, "otel_genai", "semconv_function_tool_call.otlp.json")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := trace.Read(data, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadHermes(b *testing.B) {
	data := benchmarkFixture(b, "hermes", "chatml_stock_fundamentals.txt")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := trace.Read(data, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// chatTrajectories are the agent_trajectory values of generated small
// cases (at most 3 expected calls, as bench/'s small data), each parsed
// from its line as a case file's is.
var chatTrajectories = sync.OnceValue(func() []any {
	g := bench.NewGenerator(1)
	g.MaxCalls = 3
	var out []any
	for _, l := range g.Lines(5000) {
		v, err := jsonvalue.Parse(l)
		if err != nil {
			panic(err)
		}
		if t, ok := v.(jsonvalue.Object).Get("agent_trajectory"); ok {
			out = append(out, t)
		}
	}
	return out
})

// BenchmarkExtractChat reads the calls of one small case's OpenAI chat
// transcript, as a case's agent_trajectory is read: detection, the
// reader, the arguments' JSON, the audit.
func BenchmarkExtractChat(b *testing.B) {
	trajectories := chatTrajectories()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := trace.Extract(trajectories[i%len(trajectories)], ""); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
