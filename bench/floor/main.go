// Command floor reads a JSON Lines file as toolgrade eval reads it and
// parses every line into toolgrade's value model, and does nothing else:
// the floor under grading the file, for bench/run.sh and bench/README.md.
//
//	go run ./bench/floor [-workers N] [-read-only] FILE
//
// With -workers above 1 (default GOMAXPROCS) the lines are parsed on that
// many goroutines, in batches, as grading spreads its cases; -read-only
// only splits the file into lines. Unless GOGC is set, the collector runs
// as toolgrade eval's does for a run that keeps little alive. Non-goals:
// decoding cases (the dataset package's work) or anything after it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func main() {
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines parsing lines")
	readOnly := flag.Bool("read-only", false, "split the file into lines, parse nothing")
	flag.Parse()
	if flag.NArg() != 1 || *workers < 1 {
		fmt.Fprintln(os.Stderr, "usage: floor [-workers N] [-read-only] FILE")
		os.Exit(2)
	}
	if os.Getenv("GOGC") == "" {
		// As toolgrade eval paces its collector for a run that keeps
		// little alive: a collection when the heap reaches about 32 MB.
		debug.SetGCPercent(800)
	}
	n, bad, err := run(flag.Arg(0), *workers, *readOnly)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "floor: %d lines, %d not JSON\n", n, bad)
}

// run reads path's lines and parses them on workers goroutines; it
// returns how many lines there were and how many did not parse.
func run(path string, workers int, readOnly bool) (lines, bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	lr := jsonvalue.NewLineReader(f)
	batches := make(chan []string, 4*workers)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			failed := 0
			for batch := range batches {
				for _, line := range batch {
					if _, err := jsonvalue.ParseString(line); err != nil {
						failed++
					}
				}
			}
			mu.Lock()
			bad += failed
			mu.Unlock()
		})
	}
	const batchSize = 16 // as toolgrade.Evaluate's largest batches
	batch := make([]string, 0, batchSize)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			close(batches)
			wg.Wait()
			return lines, bad, err
		}
		lines++
		if readOnly {
			continue
		}
		if batch = append(batch, line); len(batch) == batchSize {
			batches <- batch
			batch = make([]string, 0, batchSize)
		}
	}
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	wg.Wait()
	return lines, bad, nil
}
