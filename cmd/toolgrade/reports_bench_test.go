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

// BenchmarkEvalReports runs `toolgrade eval --quiet --out /dev/null` on
// 20,000 generated cases with each report file alone and with all of them
// together, against none: what each report adds to a run (bench/README.md,
// "Every report together").
func BenchmarkEvalReports(b *testing.B) {
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
	junit, html, md := []string{"--junit", filepath.Join(dir, "r.xml")}, []string{"--html", filepath.Join(dir, "r.html")}, []string{"--markdown", filepath.Join(dir, "r.md")}
	for _, c := range []struct {
		name    string
		reports [][]string
	}{
		{"none", nil},
		{"junit", [][]string{junit}},
		{"html", [][]string{html}},
		{"markdown", [][]string{md}},
		{"all", [][]string{html, junit, md}},
	} {
		b.Run(c.name, func(b *testing.B) {
			args := []string{"eval", "--quiet", "--out", os.DevNull}
			for _, r := range c.reports {
				args = append(args, r...)
			}
			args = append(args, in)
			m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
			for b.Loop() {
				err := m.Run(context.Background(), args)
				var exit *ExitError
				if err != nil && !(errors.As(err, &exit) && exit.Code == 1 && exit.Err == nil) {
					b.Fatal(err) // exit status 1 is expected: generated cases fail on purpose
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "cases/s")
		})
	}
}
