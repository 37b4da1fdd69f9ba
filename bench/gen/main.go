// Command gen writes a realistic case dataset as JSON Lines, for
// benchmarks:
//
//	go run ./bench/gen -n 200000 -o bench/data/200k.jsonl
//
// The same -n and -seed always give the same file; see bench.Generator for
// what the cases hold. Non-goals: cases from any real agent; the mistakes
// in them are drawn to exercise every path of grading, not to look like
// one model's.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolgrade/toolgrade/bench"
)

func main() {
	n := flag.Int("n", 10000, "number of cases")
	out := flag.String("o", "-", "output file (- for stdout)")
	seed := flag.Uint64("seed", 1, "random seed")
	calls := flag.Int("calls", 8, "the most expected calls a case has (8: lines of about 1,470 bytes; 3: about 660)")
	flag.Parse()
	if err := run(*n, *out, *seed, *calls); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(n int, out string, seed uint64, calls int) error {
	if n < 0 {
		return fmt.Errorf("-n must not be negative, got %d", n)
	}
	if calls < 1 {
		return fmt.Errorf("-calls must be at least 1, got %d", calls)
	}
	var w io.Writer = os.Stdout
	if out != "-" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	g := bench.NewGenerator(seed)
	g.MaxCalls = calls
	if err := g.Write(w, n); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		return f.Close()
	}
	return nil
}
