package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// judgedRun is a suite of n judged cases, "case-0" to "case-(n-1)", and
// a fake judge that answers at once except for case-stuck, which hangs
// until the client gives up; stuck is closed when its request arrives.
type judgedRun struct {
	srv   *openaitest.Server
	cases string
	stuck chan struct{}
}

func newJudgedRun(t *testing.T, n, stuckAt int) *judgedRun {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"case-%d","input":"Weather in city %d?","tools_called":[{"name":"get_weather","args":{"city":"c%d"}}],"expected_tools":[{"name":"get_weather","args":{"city":"c%d"}}],"available_tools":[{"name":"get_weather","description":"Weather"}]}`+"\n", i, i, i, i)
	}
	j := &judgedRun{srv: openaitest.NewServer(t), cases: writeFile(t, "cases.jsonl", b.String()), stuck: make(chan struct{})}
	var once sync.Once
	stuck := fmt.Sprintf("Weather in city %d?", stuckAt)
	j.srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, stuck) {
			once.Do(func() { close(j.stuck) })
			return openaitest.Reply{Hang: true}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "the right tool"}`}
	}
	// The server's lock orders this write before the requests of a child
	// process, which the race detector cannot see come after it.
	j.srv.Hits("")
	return j
}

func (j *judgedRun) args(more ...string) []string {
	return append([]string{"eval", "--metric", "tool_selection", "--judge-base-url", j.srv.BaseURL(), "--judge-model", "judge-1",
		"--judge-key-env=", "--no-cache", "--workers", "4"}, more...)
}

// checkPrefix checks that out holds whole result lines, of the cases
// from case-0 on, in order, none of them an error: the cases in flight
// were left out, not written as "context canceled".
func checkPrefix(t *testing.T, out []byte, before int) int {
	t.Helper()
	n := 0
	for line := range strings.SplitSeq(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		r, err := toolgrade.ParseResult([]byte(line))
		if err != nil {
			t.Fatalf("line %d is not a whole result: %v: %q", n+1, err, line)
		}
		if want := "case-" + strconv.Itoa(n); r.ID != want || r.Metrics[0].Error != "" {
			t.Errorf("line %d: %s (error %q), want %s graded", n+1, r.ID, r.Metrics[0].Error, want)
		}
		n++
	}
	if n > before {
		t.Errorf("%d results, want at most %d (the cases before the stuck one)", n, before)
	}
	return n
}

// TestInterruptEval: an interrupted eval leaves out the cases in flight,
// says it was interrupted and how many cases were graded, exits 128 plus
// the signal, and writes no report file, leaving earlier ones as they
// were; result lines on stdout are those graded before.
func TestInterruptEval(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			j := newJudgedRun(t, 30, 12)
			dir := t.TempDir()
			html, junit := filepath.Join(dir, "r.html"), filepath.Join(dir, "j.xml")
			os.WriteFile(html, []byte("earlier"), 0o644)
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				<-j.stuck
				cancel(&interruption{sig: sig})
			}()
			var out bytes.Buffer
			code, stderr := runMain(t, ctx, &Main{Stdout: &out}, j.args("--html", html, "--junit", junit, j.cases)...)
			if code != 128+int(sig) {
				t.Errorf("exit code %d, want %d", code, 128+int(sig))
			}
			n := checkPrefix(t, out.Bytes(), 12)
			name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}[sig]
			want := fmt.Sprintf("interrupted by %s after %d %s: the summary covers the cases graded before it; the cases in flight were left out; not written: %s, %s", name, n, plural(n, "case", "cases"), junit, html)
			if !strings.Contains(stderr, want) || strings.Contains(stderr, "wrote") || !strings.Contains(stderr, fmt.Sprintf("%d %s: %d passed", n, plural(n, "case", "cases"), n)) {
				t.Errorf("stderr:\n%s\nwant the summary of %d cases and %q", stderr, n, want)
			}
			if b, _ := os.ReadFile(html); string(b) != "earlier" {
				t.Errorf("the earlier HTML report was replaced: %.40q", b)
			}
			if _, err := os.Stat(junit); err == nil {
				t.Error("a JUnit report was written")
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left %q", l)
			}
		})
	}
}

// TestInterruptRun: an interrupted run keeps the cases it recorded, whole
// lines of the cases before the one in flight, and does not grade them.
func TestInterruptRun(t *testing.T) {
	srv := openaitest.NewServer(t)
	stuck := make(chan struct{})
	var once sync.Once
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(lastUser(r), "city 7") {
			once.Do(func() { close(stuck) })
			return openaitest.Reply{Hang: true}
		}
		return chatBody(callsMessage("get_weather", `{"city":"x"}`))
	}
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, `{"id":"case-%d","input":"Weather in city %d?","expected_tools":[{"name":"get_weather","args":{"city":"x"}}]}`+"\n", i, i)
	}
	cases := writeFile(t, "cases.jsonl", b.String())
	dir := t.TempDir()
	record, out := filepath.Join(dir, "s.jsonl"), filepath.Join(dir, "r.jsonl")
	os.WriteFile(out, []byte("earlier"), 0o644)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-stuck
		time.Sleep(50 * time.Millisecond) // the cases before it end
		cancel(&interruption{sig: syscall.SIGTERM})
	}()
	code, stderr := runMain(t, ctx, &Main{}, "run", "--model", "m", "--key-env=", "--base-url", srv.BaseURL(), "--no-cache",
		"--concurrency", "2", "--record", record, "--out", out, cases)
	if code != 143 {
		t.Errorf("exit code %d, want 143; stderr:\n%s", code, stderr)
	}
	text, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) != 7 {
		t.Errorf("%d lines recorded, want the 7 cases before the stuck one", len(lines))
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, `{"id":"case-`+strconv.Itoa(i)+`"`) || strings.Contains(l, "context canceled") {
			t.Errorf("line %d: %.120s", i+1, l)
		}
	}
	want := fmt.Sprintf("interrupted by SIGTERM after 7 cases were recorded in %s (the cases in flight were left out): grade them with toolgrade eval %s; running again asks the model everything again (--no-cache)", record, record)
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr:\n%s\nwant %q", stderr, want)
	}
	if b, _ := os.ReadFile(out); string(b) != "earlier" {
		t.Errorf("the results were replaced: %.40q", b)
	}
}

// TestRunFileKeptUntilFirstCase: a run stopped before its first case
// leaves the earlier run file as it was, and creates none.
func TestRunFileKeptUntilFirstCase(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Hang: true} }
	cases := writeFile(t, "cases.jsonl", `{"id":"a","input":"x","expected_tools":[]}`+"\n")
	dir := t.TempDir()
	for _, earlier := range []string{"earlier run\n", ""} {
		record := filepath.Join(dir, "s.jsonl")
		os.Remove(record)
		if earlier != "" {
			os.WriteFile(record, []byte(earlier), 0o644)
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(200*time.Millisecond, func() { cancel(&interruption{sig: syscall.SIGHUP}) })
		code, stderr := runMain(t, ctx, &Main{}, "run", "--model", "m", "--key-env=", "--base-url", srv.BaseURL(), "--no-cache", "--record", record, cases)
		if code != 129 || !strings.Contains(stderr, "interrupted by SIGHUP before a case was recorded: "+record+" was not touched") {
			t.Errorf("exit code %d, stderr:\n%s", code, stderr)
		}
		b, err := os.ReadFile(record)
		if earlier == "" && err == nil {
			t.Errorf("a run file was left: %q", b)
		}
		if earlier != "" && string(b) != earlier {
			t.Errorf("the earlier run file holds %q", b)
		}
	}
}

// TestInterruptJudgeBatch: a signal while a judge batch is polled stops
// the run with the signal's exit status, saying the batch goes on.
func TestInterruptJudgeBatch(t *testing.T) {
	srv := judgeServer(t)
	srv.BatchPolls = 1000000
	cases := writeFile(t, "cases.jsonl", judgedCases)
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(200*time.Millisecond, func() { cancel(&interruption{sig: syscall.SIGTERM}) })
	code, stderr := runMain(t, ctx, &Main{Getenv: func(k string) string { return judgeEnv[k] }},
		judgeArgs(srv, filepath.Join(t.TempDir(), "cache"), "--metric", "tool_selection", "--judge-batch", "--batch-poll-interval", "1ms", "--batch-max-polls", "1000000", "-q", cases)...)
	if code != 143 || !strings.Contains(stderr, "interrupted by SIGTERM: judge batch:") || !strings.Contains(stderr, "goes on: run again with the same cases to resume it") {
		t.Errorf("exit code %d, stderr:\n%s", code, stderr)
	}
}
