package trace_test

import (
	"os"
	"testing"

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
