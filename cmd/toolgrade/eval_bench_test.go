package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/bench"
)

// BenchmarkEval runs `toolgrade eval --quiet --out FILE` in-process on
// 20,000 generated cases, as bench/run.sh runs the binary. Its CPU profile
// is the one a release build can be optimized with (see bench/README.md).
func BenchmarkEval(b *testing.B) {
	const n = 20000
	dir := b.TempDir()
	in := filepath.Join(dir, "cases.jsonl")
	f, err := os.Create(in)
	if err != nil {
		b.Fatal(err)
	}
	if err := bench.NewGenerator(1).Write(f, n); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "results.jsonl")
	m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	for b.Loop() {
		err := m.Run(context.Background(), []string{"eval", "--quiet", "--out", out, in})
		var exit *ExitError
		if err != nil && !(errors.As(err, &exit) && exit.Code == 1 && exit.Err == nil) {
			b.Fatal(err) // exit status 1 is expected: generated cases fail on purpose
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "cases/s")
}
