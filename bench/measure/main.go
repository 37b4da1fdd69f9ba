//go:build unix

// Command measure runs a command and prints, on one line, its wall-clock
// time, CPU time and peak resident memory, for bench/run.sh:
//
//	go run ./bench/measure -- toolgrade eval --quiet --out results.jsonl cases.jsonl
//	wall=12.31 user=20.02 sys=0.61 maxrss_kb=48312 exit=1
//
// The command's own output is passed through. An exit status listed by
// -ok (default 0 and 1: toolgrade's "some case failed") is not an error.
// Non-goals: statistics over repeated runs (run.sh repeats them), and
// memory figures off Linux, where ru_maxrss may not count kilobytes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ok := flag.String("ok", "0,1", "exit statuses that count as success, comma-separated")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: measure [-ok 0,1] -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	code, err := run(flag.Args(), *ok)
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
	}
	os.Exit(code)
}

func run(args []string, ok string) (int, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return 2, err
	}
	st := cmd.ProcessState
	ru, _ := st.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return 2, fmt.Errorf("no resource usage for %s on this system", args[0])
	}
	// Linux reports ru_maxrss in kilobytes.
	fmt.Printf("wall=%.2f user=%.2f sys=%.2f maxrss_kb=%d exit=%d\n",
		wall.Seconds(), st.UserTime().Seconds(), st.SystemTime().Seconds(), ru.Maxrss, st.ExitCode())
	if !slices.Contains(strings.Split(ok, ","), strconv.Itoa(st.ExitCode())) {
		return 1, fmt.Errorf("%s exited with status %d", args[0], st.ExitCode())
	}
	return 0, nil
}
