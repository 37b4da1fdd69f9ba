package openai

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// prompts returns n distinct judge prompts.
func prompts(n int) []judge.Request {
	out := make([]judge.Request, n)
	for i := range out {
		out[i] = prompt
		out[i].User = fmt.Sprintf("User input:\ncase %d", i)
	}
	return out
}

// plan collects the requests of ps through a planner, as a first pass of
// a batch run does.
func plan(t *testing.T, j *Judge, ps []judge.Request) []ChatRequest {
	t.Helper()
	p := j.Planner()
	for _, r := range ps {
		v, err := p.Judge(context.Background(), r)
		if err != nil || v.Score != 1 {
			t.Fatalf("planner: %v, %v", v, err)
		}
	}
	return p.Requests()
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// answerByInput scores each prompt by the case number in it, so that
// replies mapped to the wrong request show.
func answerByInput(r *openaitest.ChatRequest) openaitest.Reply {
	var n int
	fmt.Sscanf(r.User[strings.LastIndex(r.User, " ")+1:], "%d", &n)
	return openaitest.Reply{Content: fmt.Sprintf(`{"score": %g, "reason": "case %d"}`, float64(n%5)/4, n), PromptTokens: 10, CompletionTokens: 2}
}

func TestBatchCompleted(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = answerByInput
	srv.BatchPolls = 2
	j, s := newJudge(t, srv, Options{Cache: newCache(t)}, JudgeOptions{})
	ps := prompts(5)
	ps = append(ps, ps[0]) // a repeated prompt goes once
	reqs := plan(t, j, ps)
	if len(reqs) != 5 {
		t.Fatalf("planned %d requests, want 5", len(reqs))
	}
	var log logLines
	rep, err := j.Client().Batch(context.Background(), reqs, BatchOptions{PollInterval: 7 * time.Second, Log: log.log})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ID == "" || rep.Status != "completed" || rep.Requests != 5 || rep.Answered != 5 || rep.Resumed {
		t.Errorf("report %+v", rep)
	}
	if rep.Usage.PromptTokens != 50 || rep.Usage.CompletionTokens != 10 || rep.Usage.Requests != 5 {
		t.Errorf("usage %+v", rep.Usage)
	}
	// Polled every PollInterval: twice in progress, then done.
	if len(s.d) != 3 || s.d[0] != 7*time.Second {
		t.Errorf("waits %v, want three of 7s", s.d)
	}
	if !strings.Contains(log.String(), "created for 5 requests") || !strings.Contains(log.String(), "completed, 5 of 5 done") {
		t.Errorf("log:\n%s", log.String())
	}
	// Every answer is now in the cache, under the right request.
	for i, p := range ps[:5] {
		v, err := j.Judge(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if v.Usage.CachedRequests != 1 || v.Reason != fmt.Sprintf("case %d", i) {
			t.Errorf("prompt %d: %+v", i, v)
		}
	}
	if got := srv.Hits(chatRoute); got != 0 {
		t.Errorf("%d synchronous requests, want none", got)
	}
	// The input file was real JSONL on the wire.
	for _, c := range srv.Chats() {
		if !c.InBatch || !c.ResponseFormat || c.Model != "gpt-test" {
			t.Errorf("batch request %+v", c)
		}
	}
	// Planning again finds nothing to send; Batch then does nothing.
	if reqs := plan(t, j, ps); len(reqs) != 0 {
		t.Errorf("planned %d requests after the batch", len(reqs))
	}
	if rep, err := j.Client().Batch(context.Background(), reqs, BatchOptions{}); err != nil || rep.ID != "" {
		t.Errorf("empty batch: %+v, %v", rep, err)
	}
	if got := srv.Hits("POST /v1/batches"); got != 1 {
		t.Errorf("%d batches created, want 1", got)
	}
}

func TestBatchIncomplete(t *testing.T) {
	tests := []struct {
		name     string
		end      openaitest.BatchEnd
		answered int
		maxPolls int
		polls    int // BatchPolls of the server
		status   string
		log      string
	}{
		{"expired", openaitest.BatchExpired, 2, 0, 0, "expired", "expired with 3 of 5 requests unanswered (first error: batch_expired: "},
		{"failed", openaitest.BatchFailed, 0, 0, 0, "failed", "failed with 5 of 5 requests unanswered (first error: server_error: the batch failed)"},
		{"cancelled after max polls", openaitest.BatchCompleted, 1, 3, 100, "cancelled", "still in_progress after 3 polls; cancelling it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			srv.Reply = answerByInput
			srv.BatchEnd, srv.BatchAnswered, srv.BatchPolls = tt.end, tt.answered, tt.polls
			j, _ := newJudge(t, srv, Options{Cache: newCache(t)}, JudgeOptions{})
			ps := prompts(5)
			var log logLines
			rep, err := j.Client().Batch(context.Background(), plan(t, j, ps), BatchOptions{MaxPolls: tt.maxPolls, Log: log.log})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != tt.status || rep.Answered != tt.answered {
				t.Errorf("report %+v, want status %s with %d answered", rep, tt.status, tt.answered)
			}
			if !strings.Contains(log.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, log.String())
			}
			if tt.maxPolls > 0 && srv.Hits("POST /v1/batches/"+rep.ID+"/cancel") != 1 {
				t.Error("the batch was not cancelled")
			}
			// The unanswered requests are sent one by one, with the right
			// answers; the answered ones come from the cache.
			for i, p := range ps {
				v, err := j.Judge(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if v.Reason != fmt.Sprintf("case %d", i) || (v.Usage.CachedRequests == 1) != (i < tt.answered) {
					t.Errorf("prompt %d: %+v", i, v)
				}
			}
			if got := srv.Hits(chatRoute); got != 5-tt.answered {
				t.Errorf("%d synchronous requests, want %d", got, 5-tt.answered)
			}
		})
	}
}

// An interrupted run leaves its batch running; the next run with the same
// requests resumes it instead of creating another.
func TestBatchResume(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = answerByInput
	srv.BatchPolls = 3
	cache := newCache(t)
	j, _ := newJudge(t, srv, Options{Cache: cache}, JudgeOptions{})
	ps := prompts(4)

	// Interrupted at the second wait.
	ctx, cancel := context.WithCancel(context.Background())
	waits := 0
	j.Client().sleep = func(ctx context.Context, _ time.Duration) error {
		if waits++; waits == 2 {
			cancel()
		}
		return ctx.Err()
	}
	if _, err := j.Client().Batch(ctx, plan(t, j, ps), BatchOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}

	// A new run (a new client on the same cache) resumes it.
	j2, _ := newJudge(t, srv, Options{Cache: cache}, JudgeOptions{})
	var log logLines
	rep, err := j2.Client().Batch(context.Background(), plan(t, j2, ps), BatchOptions{Log: log.log})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Resumed || rep.Answered != 4 || rep.Status != "completed" {
		t.Errorf("report %+v", rep)
	}
	if got := srv.Hits("POST /v1/batches"); got != 1 {
		t.Errorf("%d batches created, want 1", got)
	}
	if !strings.Contains(log.String(), "resuming (in_progress)") {
		t.Errorf("log:\n%s", log.String())
	}
	// Done: the batch id is forgotten, and everything is cached.
	if reqs := plan(t, j2, ps); len(reqs) != 0 {
		t.Errorf("%d requests still unanswered", len(reqs))
	}
}

// A saved batch the server no longer knows is replaced by a new one.
func TestBatchResumeGone(t *testing.T) {
	srv := openaitest.NewServer(t)
	cache := newCache(t)
	j, _ := newJudge(t, srv, Options{Cache: cache}, JudgeOptions{})
	reqs := plan(t, j, prompts(2))
	_, keys, err := j.Client().batchInput(reqs)
	if err != nil || len(keys) != 2 {
		t.Fatal(keys, err)
	}
	if err := cache.Put(j.Client().stateKey(keys), []byte(`{"batch_id": "batch_gone"}`)); err != nil {
		t.Fatal(err)
	}
	rep, err := j.Client().Batch(context.Background(), reqs, BatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Hits("GET /v1/batches/batch_gone") != 1 {
		t.Error("the saved batch was not looked up")
	}
	if rep.Resumed || rep.Answered != 2 || srv.Hits("POST /v1/batches") != 1 {
		t.Errorf("report %+v", rep)
	}
}

func TestBatchNeedsCache(t *testing.T) {
	srv := openaitest.NewServer(t)
	j, _ := newJudge(t, srv, Options{}, JudgeOptions{})
	if _, err := j.Client().Batch(context.Background(), plan(t, j, prompts(1)), BatchOptions{}); err == nil {
		t.Fatal("Batch without a cache succeeded")
	}
}

// The key goes in the header of every Batch API call, and never into the
// files, the log or the cache.
func TestBatchKey(t *testing.T) {
	const key = "sk-batch-SECRET-42424242"
	srv := openaitest.NewServer(t)
	srv.Key = key
	srv.BatchEnd, srv.BatchAnswered = openaitest.BatchExpired, 1
	cache := newCache(t)
	j, _ := newJudge(t, srv, Options{Cache: cache, APIKey: key}, JudgeOptions{})
	var log logLines
	rep, err := j.Client().Batch(context.Background(), plan(t, j, prompts(3)), BatchOptions{Log: log.log})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Answered != 1 {
		t.Errorf("report %+v", rep)
	}
	if strings.Contains(log.String(), key) {
		t.Error("the log shows the key")
	}
	assertNoKey(t, cache.Dir(), key)
}
