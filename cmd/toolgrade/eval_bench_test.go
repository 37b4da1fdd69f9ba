package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/internal/poison"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// BenchmarkEval runs `toolgrade eval --quiet --out FILE` in-process on
// 20,000 generated cases, as bench/run.sh runs the binary. Its CPU profile
// is the one a release build can be optimized with (see bench/README.md).
// BenchmarkEvalSmall does the same on cases of at most 3 expected calls
// (lines of about 720 bytes instead of 1,470).
func BenchmarkEval(b *testing.B) { benchmarkEval(b, 8) }

func BenchmarkEvalSmall(b *testing.B) { benchmarkEval(b, 3) }

func benchmarkEval(b *testing.B, calls int) {
	// Released memory is cleared, as in a real run, not poisoned (see
	// reuse_test.go).
	defer poison.Set(false)()
	const n = 20000
	dir := b.TempDir()
	in := filepath.Join(dir, "cases.jsonl")
	f, err := os.Create(in)
	if err != nil {
		b.Fatal(err)
	}
	g := bench.NewGenerator(1)
	g.MaxCalls = calls
	if err := g.Write(f, n); err != nil {
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

// BenchmarkEvalJudge grades judged cases against a fake judge whose every
// reply takes a second, at the default concurrency of 8: 40 cases with
// the tool_selection judge (one request each), and 5 cases of 8 calls
// with the argument_correctness judge (one request a call). Either way 40
// requests: five seconds is what 8 in flight allow. It reports the most
// requests the fake judge saw in flight at once, one by one and after a
// batch that answered none (requests then go one by one).
func BenchmarkEvalJudge(b *testing.B) {
	dir := b.TempDir()
	for _, metric := range []struct {
		name  string
		cases string
	}{
		{"tool_selection", judgedCaseLines(40)},
		{"argument_correctness", argumentCaseLines(5, 8)},
	} {
		in := filepath.Join(dir, metric.name+".jsonl")
		if err := os.WriteFile(in, []byte(metric.cases), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			args []string
		}{
			{"one-by-one", nil},
			{"batch-unanswered", []string{"--judge-batch", "--batch-poll-interval", "1ms"}},
		} {
			b.Run(metric.name+"/"+mode.name, func(b *testing.B) {
				srv := openaitest.NewServer(b)
				srv.BatchEnd = openaitest.BatchFailed
				srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
					time.Sleep(time.Second)
					return openaitest.Reply{Content: `{"score": 1, "reason": "right"}`}
				}
				for b.Loop() {
					args := append([]string{"eval", "--judge-base-url", srv.BaseURL(), "--judge-model", "judge-1",
						"--cache-dir", filepath.Join(b.TempDir(), "cache"), "--metric", metric.name, "--quiet", "--out", os.DevNull, in}, mode.args...)
					m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
					if err := m.Run(context.Background(), args); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(srv.MostInFlight()), "in-flight-max")
			})
		}
	}
}

// BenchmarkRunRateLimited runs `toolgrade run` on 100 cases against a
// model that allows 5 requests a second (a bucket of 5, full at the
// start) and says so only in its x-ratelimit-* headers and 429s: the
// limit allows the 100 in 19 seconds. It reports the 429s met.
func BenchmarkRunRateLimited(b *testing.B) {
	const cases = 100
	var lines strings.Builder
	for i := range cases {
		fmt.Fprintf(&lines, `{"id":"c%d","input":"question %d","expected_tools":[]}`+"\n", i, i)
	}
	dir := b.TempDir()
	in := filepath.Join(dir, "cases.jsonl")
	if err := os.WriteFile(in, []byte(lines.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	limited := 0
	for b.Loop() {
		srv := openaitest.NewServer(b)
		srv.RequestLimit, srv.RequestWindow = 5, time.Second
		m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
		err := m.Run(context.Background(), []string{"run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache", "--quiet",
			"--record", filepath.Join(dir, "run.jsonl"), "--out", os.DevNull, in})
		var exit *ExitError
		if err != nil && !(errors.As(err, &exit) && exit.Code == 1 && exit.Err == nil) {
			b.Fatal(err)
		}
		if n := srv.Hits("POST /v1/chat/completions") - srv.RateLimited(); n != cases {
			b.Fatalf("%d requests answered, want %d", n, cases)
		}
		limited += srv.RateLimited()
	}
	b.ReportMetric(float64(limited)/float64(b.N), "429s/op")
}
