package openai

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

var prompt = judge.Request{Task: "tool_selection", PromptVersion: "tool_selection/v1", System: "You grade.", User: "User input:\nhello"}

// sleeps records the waits between retries instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

// newJudge returns a judge on srv whose retries do not wait (their delays
// are recorded in the returned sleeps).
func newJudge(t *testing.T, srv *openaitest.Server, o Options, jo JudgeOptions) (*Judge, *sleeps) {
	t.Helper()
	o.BaseURL = srv.BaseURL()
	c, err := NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	s := &sleeps{}
	c.sleep = s.sleep
	if jo.Model == "" {
		jo.Model = "gpt-test"
	}
	j, err := NewJudge(c, jo)
	if err != nil {
		t.Fatal(err)
	}
	return j, s
}

func newCache(t *testing.T) *Cache {
	t.Helper()
	c, err := OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const chatRoute = "POST /v1/chat/completions"

func TestJudgeAndCache(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: `{"score": 0.75, "reason": "one extra call"}`, PromptTokens: 321, CompletionTokens: 12}
	}
	cache := newCache(t)
	j, _ := newJudge(t, srv, Options{Cache: cache}, JudgeOptions{MaxTokens: 50})
	v, err := j.Judge(context.Background(), prompt)
	if err != nil {
		t.Fatal(err)
	}
	if v.Score != 0.75 || v.Reason != "one extra call" {
		t.Errorf("verdict %+v", v)
	}
	if v.Usage.PromptTokens != 321 || v.Usage.CompletionTokens != 12 || v.Usage.Requests != 1 || v.Usage.CachedRequests != 0 {
		t.Errorf("usage %+v", v.Usage)
	}
	// The request on the wire: model, both messages, temperature 0, max
	// tokens, and a JSON-schema response format.
	r := srv.Chats()[0]
	if r.Model != "gpt-test" || r.System != prompt.System || r.User != prompt.User || !r.ResponseFormat {
		t.Errorf("request %+v", r)
	}
	if r.Body["temperature"] != 0.0 || r.Body["max_tokens"] != 50.0 {
		t.Errorf("temperature %v max_tokens %v", r.Body["temperature"], r.Body["max_tokens"])
	}
	rf, _ := r.Body["response_format"].(map[string]any)
	if rf["type"] != "json_schema" {
		t.Errorf("response_format %v", rf)
	}

	// A second judge on the same cache sends nothing.
	j2, _ := newJudge(t, srv, Options{Cache: cache}, JudgeOptions{MaxTokens: 50})
	v2, err := j2.Judge(context.Background(), prompt)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Hits(chatRoute); got != 1 {
		t.Errorf("server hit %d times, want 1 (the second answer is cached)", got)
	}
	if v2.Score != 0.75 || v2.Usage.CachedRequests != 1 || v2.Usage.Requests != 0 || v2.Usage.PromptTokens != 0 {
		t.Errorf("cached verdict %+v", v2)
	}

	// Anything in the request changes the key: the prompt version, the
	// model, the temperature.
	other := prompt
	other.PromptVersion = "tool_selection/v2"
	j3, _ := newJudge(t, srv, Options{Cache: cache}, JudgeOptions{MaxTokens: 50, Temperature: new(0.5)})
	for _, jp := range []struct {
		j *Judge
		p judge.Request
	}{{j, other}, {j3, prompt}} {
		if _, err := jp.j.Judge(context.Background(), jp.p); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Hits(chatRoute); got != 3 {
		t.Errorf("server hit %d times, want 3", got)
	}
}

func TestKeyIsStable(t *testing.T) {
	c, err := NewClient(Options{BaseURL: "http://127.0.0.1:1/v1"})
	if err != nil {
		t.Fatal(err)
	}
	j, _ := NewJudge(c, JudgeOptions{Model: "m"})
	want, err := c.Key(j.Request(prompt))
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if got, _ := c.Key(j.Request(prompt)); got != want {
			t.Fatalf("key changed between calls: %s != %s", got, want)
		}
	}
	c2, _ := NewClient(Options{BaseURL: "http://127.0.0.1:1/v1", APIKey: "sk-other"})
	j2, _ := NewJudge(c2, JudgeOptions{Model: "m"})
	if got, _ := c2.Key(j2.Request(prompt)); got != want {
		t.Error("the API key changed the cache key")
	}
}

func TestRetryAfter(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name     string
		header   map[string]string
		min, max time.Duration
	}{
		{"seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second, 2 * time.Second},
		{"fraction", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond, 250 * time.Millisecond},
		{"milliseconds win", map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}, 1500 * time.Millisecond, 1500 * time.Millisecond},
		{"http date", map[string]string{"Retry-After": date}, 80 * time.Second, 90 * time.Second},
		{"capped", map[string]string{"Retry-After": "86400"}, maxRetryAfter, maxRetryAfter},
		{"none: backoff", nil, backoffBase / 2, backoffBase},
		{"garbage: backoff", map[string]string{"Retry-After": "soon"}, backoffBase / 2, backoffBase},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			var n atomic.Int32
			srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
				if n.Add(1) == 1 {
					return openaitest.Reply{Status: http.StatusTooManyRequests, Header: tt.header}
				}
				return openaitest.Reply{Content: `{"score": 1, "reason": "ok"}`}
			}
			j, s := newJudge(t, srv, Options{}, JudgeOptions{})
			if _, err := j.Judge(context.Background(), prompt); err != nil {
				t.Fatal(err)
			}
			if len(s.d) != 1 || s.d[0] < tt.min || s.d[0] > tt.max {
				t.Errorf("waits %v, want one in [%v, %v]", s.d, tt.min, tt.max)
			}
		})
	}
}

func TestBackoffGrows(t *testing.T) {
	for n := range 20 {
		d := backoff(n)
		hi := min(backoffBase<<min(n, 16), backoffMax)
		if d < hi/2 || d > hi {
			t.Errorf("backoff(%d) = %v, want in [%v, %v]", n, d, hi/2, hi)
		}
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name    string
		reply   func(n int32) openaitest.Reply
		retries *int   // nil: the default
		hits    int    // requests the server sees
		err     string // "" for success
		status  int    // HTTPError status, if any
	}{
		{"500 then ok", func(n int32) openaitest.Reply {
			if n < 3 {
				return openaitest.Reply{Status: 500}
			}
			return openaitest.Reply{Content: `{"score": 1, "reason": "ok"}`}
		}, nil, 3, "", 0},
		{"500 always", func(int32) openaitest.Reply { return openaitest.Reply{Status: 503} }, new(2), 3,
			"HTTP 503 Service Unavailable: Service Unavailable (after 3 attempts)", 503},
		{"400 not retried", func(int32) openaitest.Reply {
			return openaitest.Reply{Status: 400, Body: `{"error": {"message": "bad temperature", "type": "invalid_request_error"}}`}
		}, nil, 1, "HTTP 400 Bad Request: bad temperature", 400},
		{"vLLM-style error body", func(int32) openaitest.Reply {
			return openaitest.Reply{Status: 404, Body: `{"object": "error", "message": "The model gpt-test does not exist.", "code": 404}`}
		}, nil, 1, "HTTP 404 Not Found: The model gpt-test does not exist.", 404},
		{"text error body", func(int32) openaitest.Reply {
			return openaitest.Reply{Status: 502, Body: "<html>Bad Gateway</html>"}
		}, new(0), 1, "HTTP 502 Bad Gateway: <html>Bad Gateway</html>", 502},
		{"malformed JSON then ok", func(n int32) openaitest.Reply {
			if n == 1 {
				return openaitest.Reply{Body: `{"id": "chatcmpl-1", "choices": [`}
			}
			return openaitest.Reply{Content: `{"score": 0.5, "reason": "ok"}`}
		}, nil, 2, "", 0},
		{"malformed JSON always", func(int32) openaitest.Reply { return openaitest.Reply{Body: `{"id": `} }, new(1), 2,
			"reply is not a valid chat completion", 0},
		{"reply not JSON", func(int32) openaitest.Reply { return openaitest.Reply{Content: "The agent did fine."} }, nil, 1,
			"judge reply has no JSON verdict", 0},
		{"score out of range", func(int32) openaitest.Reply { return openaitest.Reply{Content: `{"score": 4, "reason": "x"}`} }, nil, 1,
			"outside [0, 1]", 0},
		{"no choices", func(int32) openaitest.Reply {
			return openaitest.Reply{Body: `{"id": "x", "object": "chat.completion", "choices": []}`}
		}, nil, 1,
			"judge reply has no choices", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			var n atomic.Int32
			srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return tt.reply(n.Add(1)) }
			cache := newCache(t)
			j, _ := newJudge(t, srv, Options{MaxRetries: tt.retries, Cache: cache}, JudgeOptions{})
			v, err := j.Judge(context.Background(), prompt)
			if got := srv.Hits(chatRoute); got != tt.hits {
				t.Errorf("server hit %d times, want %d", got, tt.hits)
			}
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("got %+v, %v; want error %q", v, err, tt.err)
			}
			var he *HTTPError
			if got := errors.As(err, &he); got != (tt.status != 0) || got && he.Status != tt.status {
				t.Errorf("HTTPError %v, want status %d", he, tt.status)
			}
			// A failed judgment leaves nothing in the cache: a re-run asks
			// again.
			if key, _ := j.Client().Key(j.Request(prompt)); cacheHas(j.Client(), key) {
				t.Error("a failed judgment was cached")
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	srv := openaitest.NewServer(t)
	var n atomic.Int32
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		if n.Add(1) == 1 {
			return openaitest.Reply{Hang: true}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "ok"}`}
	}
	j, s := newJudge(t, srv, Options{Timeout: 50 * time.Millisecond}, JudgeOptions{})
	if _, err := j.Judge(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	if len(s.d) != 1 {
		t.Errorf("retried %d times, want once", len(s.d))
	}

	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Hang: true} }
	j, _ = newJudge(t, srv, Options{Timeout: 20 * time.Millisecond, MaxRetries: new(1)}, JudgeOptions{})
	if _, err := j.Judge(context.Background(), prompt); err == nil || !strings.Contains(err.Error(), "no reply within 20ms (after 2 attempts)") {
		t.Fatalf("err = %v", err)
	}
}

func TestContextCancelled(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Status: 500} }
	j, _ := newJudge(t, srv, Options{}, JudgeOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := j.Judge(ctx, prompt); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestStructuredOutputFallback(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.NoStructuredOutput = true
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: "Here you go:\n```json\n{\"score\": 0.5, \"reason\": \"partly\"}\n```\nAnything else?"}
	}
	j, _ := newJudge(t, srv, Options{}, JudgeOptions{})
	v, err := j.Judge(context.Background(), prompt)
	if err != nil {
		t.Fatal(err)
	}
	if v.Score != 0.5 {
		t.Errorf("score %v", v.Score)
	}
	// The first request is rejected and sent again without the format;
	// later requests go without it at once.
	second := prompt
	second.User = "another"
	if _, err := j.Judge(context.Background(), second); err != nil {
		t.Fatal(err)
	}
	if got := srv.Hits(chatRoute); got != 3 {
		t.Errorf("server hit %d times, want 3", got)
	}
	chats := srv.Chats() // the rejected request never reached Reply
	if len(chats) != 2 || chats[0].ResponseFormat || chats[1].ResponseFormat {
		t.Errorf("answered requests carried a response_format")
	}
}

func TestPlainOutput(t *testing.T) {
	srv := openaitest.NewServer(t)
	j, _ := newJudge(t, srv, Options{}, JudgeOptions{PlainOutput: true, Temperature: new(1.0)})
	if _, err := j.Judge(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	r := srv.Chats()[0]
	if r.ResponseFormat || r.Body["temperature"] != 1.0 {
		t.Errorf("response_format sent: %v, temperature %v", r.ResponseFormat, r.Body["temperature"])
	}
}

func TestAuth(t *testing.T) {
	const key = "sk-test-abcdef123456"
	t.Run("bearer", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		srv.Key = key
		j, _ := newJudge(t, srv, Options{APIKey: key}, JudgeOptions{})
		if _, err := j.Judge(context.Background(), prompt); err != nil {
			t.Fatal(err)
		}
		if h := srv.Chats()[0].Header; h.Get("Authorization") != "Bearer "+key || h.Get("Api-Key") != "" {
			t.Errorf("headers %v", h)
		}
	})
	t.Run("azure", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		srv.Key = key
		j, _ := newJudge(t, srv, Options{APIKey: key, Azure: true, APIVersion: "2024-10-21"}, JudgeOptions{})
		if _, err := j.Judge(context.Background(), prompt); err != nil {
			t.Fatal(err)
		}
		r := srv.Chats()[0]
		if r.Header.Get("Api-Key") != key || r.Header.Get("Authorization") != "" || r.Query.Get("api-version") != "2024-10-21" {
			t.Errorf("headers %v query %v", r.Header, r.Query)
		}
	})
	t.Run("wrong key", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		srv.Key = key
		j, _ := newJudge(t, srv, Options{APIKey: "sk-wrong-key-999"}, JudgeOptions{})
		_, err := j.Judge(context.Background(), prompt)
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != 401 || srv.Hits(chatRoute) != 1 {
			t.Fatalf("err = %v after %d hits; want one 401", err, srv.Hits(chatRoute))
		}
	})
	t.Run("no key, no ambient key", func(t *testing.T) {
		t.Setenv("OPENAI_API_KEY", key)
		srv := openaitest.NewServer(t)
		j, _ := newJudge(t, srv, Options{}, JudgeOptions{})
		if _, err := j.Judge(context.Background(), prompt); err != nil {
			t.Fatal(err)
		}
		if h := srv.Chats()[0].Header; h.Get("Authorization") != "" {
			t.Errorf("the environment's key was sent: %v", h)
		}
	})
}

// A server that echoes the key in its errors must not get it into ours,
// nor into the cache.
func TestKeyRedacted(t *testing.T) {
	const key = "sk-test-SECRET-0123456789"
	srv := openaitest.NewServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Status: 400, Body: `{"error": {"message": "key ` + key + ` is not allowed"}}`}
	}
	cache := newCache(t)
	j, _ := newJudge(t, srv, Options{APIKey: key, Cache: cache}, JudgeOptions{})
	_, err := j.Judge(context.Background(), prompt)
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("err = %v", err)
	}
	srv.Reply = nil
	if _, err := j.Judge(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	assertNoKey(t, cache.Dir(), key)
}

// assertNoKey fails if any file under dir contains key.
func assertNoKey(t *testing.T, dir, key string) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
		}
		if strings.Contains(string(data), key) {
			t.Errorf("%s contains the API key", p)
		}
		return nil
	})
	if n == 0 {
		t.Errorf("no files under %s to check", dir)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	srv := openaitest.NewServer(t)
	var inFlight, peak atomic.Int32
	release := make(chan struct{})
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		inFlight.Add(-1)
		return openaitest.Reply{Content: `{"score": 1, "reason": "ok"}`}
	}
	j, _ := newJudge(t, srv, Options{Concurrency: 2, RequestsPerMinute: 1e6, TokensPerMinute: 1e9}, JudgeOptions{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			p := prompt
			p.User += strings.Repeat("!", i)
			if _, err := j.Judge(context.Background(), p); err != nil {
				t.Error(err)
			}
		})
	}
	// Let requests through one at a time until all are done.
	go func() {
		for range 8 {
			release <- struct{}{}
		}
	}()
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak concurrency %d, want at most 2", p)
	}
}

func TestNewClientChecks(t *testing.T) {
	for _, o := range []Options{
		{BaseURL: "ftp://example.com"},
		{BaseURL: "localhost:8000"},
		{BaseURL: "http://example.com/v1?key=x"},
		{BaseURL: "http://user:pw@example.com/v1"},
		{RequestsPerMinute: -1},
		{MaxRetries: new(-1)},
	} {
		if _, err := NewClient(o); err == nil {
			t.Errorf("NewClient(%+v) succeeded", o)
		} else if strings.Contains(err.Error(), "pw@") {
			t.Errorf("error shows user info: %v", err)
		}
	}
	c, _ := NewClient(Options{})
	if _, err := NewJudge(c, JudgeOptions{}); err == nil {
		t.Error("NewJudge without a model succeeded")
	}
}

// A request larger than the token limit's whole minute still goes (the
// wait is capped at the limiter's burst), rather than failing.
func TestTokenLimitLargeRequest(t *testing.T) {
	srv := openaitest.NewServer(t)
	j, _ := newJudge(t, srv, Options{TokensPerMinute: 10}, JudgeOptions{MaxTokens: 1000})
	if _, err := j.Judge(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"2", "0.5", "-1", "Wed, 21 Oct 2015 07:28:00 GMT", "1e400", "NaN", ""} {
		f.Add(s, s)
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, ms, secs string) {
		h := http.Header{}
		h.Set("Retry-After-Ms", ms)
		h.Set("Retry-After", secs)
		if d, ok := retryAfter(h, now); ok && (d < 0 || d > maxRetryAfter) {
			t.Fatalf("retryAfter(%q, %q) = %v", ms, secs, d)
		}
	})
}

func FuzzErrorDetail(f *testing.F) {
	for _, s := range []string{`{"error": {"message": "m"}}`, `{"error": "e"}`, `{"message": "v"}`, `{"detail": [1]}`, "<html>", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if d := errorDetail(body); len(d) > 303 {
			t.Fatalf("errorDetail gave %d bytes", len(d))
		}
	})
}

func cacheHas(c *Client, key string) bool {
	_, ok := c.cached(key)
	return ok
}
