//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the program itself in a child process (see
// startChild), to send it real signals.
func TestMain(m *testing.M) {
	if os.Getenv("TOOLGRADE_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startChild runs the program in a child process with args, in dir, with
// TMPDIR set to tmp; it returns the command and its stdout and stderr.
func startChild(t *testing.T, dir, tmp string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TOOLGRADE_TEST_MAIN=1", "TMPDIR="+tmp)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errOut
}

// TestSignals sends real signals to a child process grading a suite: each
// of SIGINT, SIGTERM and SIGHUP stops it the same way (exit 128 plus the
// signal, the cases in flight left out, no report file replaced, nothing
// left in the temporary directory or beside the outputs); SIGKILL leaves
// the earlier files, and the next run clears what it left.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			j := newJudgedRun(t, 40, 15)
			dir, tmp := t.TempDir(), t.TempDir()
			outs := []string{"r.jsonl", "r.html", "j.xml", "s.md"}
			for _, o := range outs {
				os.WriteFile(filepath.Join(dir, o), []byte("earlier"), 0o644)
			}
			cmd, stdout, stderr := startChild(t, dir, tmp, j.args("--out", "r.jsonl", "--html", "r.html", "--junit", "j.xml", "--markdown", "s.md", j.cases)...)
			select {
			case <-j.stuck:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("the stuck case was never asked for; stderr:\n%s", stderr)
			}
			time.Sleep(100 * time.Millisecond) // the JUnit report holds test cases by now
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if sig == syscall.SIGKILL {
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
					t.Fatalf("%v", err)
				}
			} else if code != 128+int(sig) || !strings.Contains(stderr.String(), "interrupted by SIG") {
				t.Errorf("exit code %d, stderr:\n%s", code, stderr)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %.200q", stdout)
			}
			for _, o := range outs {
				if b, _ := os.ReadFile(filepath.Join(dir, o)); string(b) != "earlier" {
					t.Errorf("%s = %.40q, want the earlier file", o, b)
				}
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				t.Errorf("the temporary directory holds %v", entries)
			}
			left := leftovers(t, dir)
			if sig != syscall.SIGKILL && len(left) > 0 {
				t.Errorf("left %q", left)
			}
			if sig == syscall.SIGKILL {
				// The temporary files beside the outputs stay; the next run
				// that writes those outputs removes them.
				if len(left) != len(outs) {
					t.Errorf("after SIGKILL: %q, want a temporary file per output", left)
				}
				code, stderr := runMain(t, context.Background(), &Main{}, "eval", "-q", "--out", filepath.Join(dir, "r.jsonl"), "--html", filepath.Join(dir, "r.html"),
					"--junit", filepath.Join(dir, "j.xml"), "--markdown", filepath.Join(dir, "s.md"), writeFile(t, "one.jsonl", passing))
				if code != 0 {
					t.Fatalf("exit code %d: %s", code, stderr)
				}
				if l := leftovers(t, dir); len(l) > 0 {
					t.Errorf("the next run left %q", l)
				}
			}
		})
	}
}

// TestSignalsStdout: results streamed to stdout stop at whole lines of the
// cases graded before the signal.
func TestSignalsStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	j := newJudgedRun(t, 40, 15)
	cmd, stdout, stderr := startChild(t, t.TempDir(), t.TempDir(), j.args(j.cases)...)
	<-j.stuck
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit code %d, stderr:\n%s", code, stderr)
	}
	n := checkPrefix(t, stdout.Bytes(), 15)
	sc := bufio.NewScanner(stderr)
	last := ""
	for sc.Scan() {
		last = sc.Text()
	}
	if want := fmt.Sprintf("toolgrade: interrupted by SIGTERM after %d %s", n, plural(n, "case", "cases")); !strings.HasPrefix(last, want) {
		t.Errorf("last line %q, want %q", last, want)
	}
}
