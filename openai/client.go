// Package openai talks to any endpoint that speaks OpenAI's Chat
// Completions API (OpenAI, Azure OpenAI, vLLM, Ollama, LM Studio,
// OpenRouter, ...). It speaks the wire protocol itself, over net/http:
// chat completions, file upload and download, and batches; no SDK.
//
// A [Client] is the transport: it bounds concurrency, keeps to request and
// token rate limits, retries with backoff, answers from an on-disk cache,
// and runs request sets through the Batch API. It sends any chat
// completion request, not only judge prompts. [Judge] builds on it to
// implement judge.Judge.
//
// Its types are toolgrade's own and carry only what toolgrade uses of the
// protocol; it is no general OpenAI client (no streaming, no other
// endpoints). Request bodies are part of cache keys, so their encoding is
// fixed: testdata/requests keeps it byte for byte.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/secret"
)

// Defaults of [Options].
const (
	DefaultBaseURL     = "https://api.openai.com/v1"
	DefaultTimeout     = 2 * time.Minute
	DefaultConcurrency = 8
	DefaultMaxRetries  = 4
)

// Backoff between retries: exponential from backoffBase, at most
// backoffMax, with jitter; a server's Retry-After wins, up to
// maxRetryAfter.
const (
	backoffBase   = 500 * time.Millisecond
	backoffMax    = 30 * time.Second
	maxRetryAfter = 10 * time.Minute
)

// Options configure a [Client]. Zero values mean the defaults.
type Options struct {
	// BaseURL is the API root, ending before /chat/completions
	// (default https://api.openai.com/v1).
	BaseURL string
	// APIKey is sent as "Authorization: Bearer KEY", or as "api-key: KEY"
	// with Azure. Empty sends no key (local servers need none). It is
	// added to Secrets.
	APIKey string
	// Secrets are the run's secrets (nil: a set of the client's own, its
	// key). What the client sends and receives is scrubbed of them (see
	// package secret): request bodies, replies (before they are read or
	// cached), error messages and logs. A server that echoes the key back
	// gets it no further.
	Secrets *secret.Set
	// Warn, if set, is told once when the cache cannot be written. The
	// reply is not lost: it stands, and is kept in memory for the rest of
	// the run (a batch's replies too).
	Warn func(msg string)
	// Azure sends the key in the api-key header, as Azure OpenAI wants.
	Azure bool
	// APIVersion, if set, is sent as the api-version query parameter
	// (Azure's deployment-style URLs need it).
	APIVersion string
	// Timeout bounds each HTTP attempt (default 2 minutes).
	Timeout time.Duration
	// Concurrency bounds the requests in flight (default 8).
	Concurrency int
	// RequestsPerMinute and TokensPerMinute limit the rate of requests,
	// and of tokens (estimated before sending: a quarter of the request's
	// bytes plus its max tokens). Zero means no limit.
	RequestsPerMinute float64
	TokensPerMinute   int
	// MaxRetries is how often a failed request is retried (nil: 4, 0:
	// never). 408, 409, 429 and 5xx replies, timeouts, broken connections
	// and reply bodies that are not valid JSON are retried.
	MaxRetries *int
	// MaxReplyBytes bounds the body of a chat completion's reply (default
	// 64 MiB): a larger reply is an error, not retried, and is read no
	// further than the budget.
	MaxReplyBytes int64
	// Cache, if set, answers repeated requests and keeps new replies.
	Cache *Cache
	// HTTPClient sends the requests (default: a new http.Client).
	HTTPClient *http.Client
}

// A Client sends chat completion requests. It is safe for concurrent use.
type Client struct {
	opts    Options
	retries int    // MaxRetries, the default filled in
	base    string // canonical base URL, part of every cache key
	slots   chan struct{}
	rpm     *rate.Limiter
	tpm     *rate.Limiter
	// replyFlag names what raises MaxReplyBytes, for the message.
	replyFlag string
	limits    serverLimits // what the server's rate-limit headers say
	// plain is set once the endpoint rejected response_format: later
	// requests go without it.
	plain atomic.Bool
	// sleep waits between retries; tests replace it to see the delays.
	sleep func(ctx context.Context, d time.Duration) error
	// kept holds the replies the cache could not keep (key -> reply).
	kept     sync.Map
	warnOnce sync.Once
}

// NewClient checks the options and returns a client. It reads nothing
// from the environment (no OPENAI_API_KEY, no OPENAI_BASE_URL): the key
// and the endpoint are the caller's choice.
func NewClient(o Options) (*Client, error) {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q: want an http or https URL", o.BaseURL)
	}
	if u.RawQuery != "" || u.User != nil {
		return nil, fmt.Errorf("base URL %q: want no query or user info (use api_version and the key settings)", redactURL(u))
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.MaxReplyBytes <= 0 {
		o.MaxReplyBytes = maxReplyBytes
	}
	retries := DefaultMaxRetries
	if o.MaxRetries != nil {
		if retries = *o.MaxRetries; retries < 0 {
			return nil, errors.New("max retries: want 0 or more (0: none)")
		}
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.RequestsPerMinute < 0 || o.TokensPerMinute < 0 {
		return nil, errors.New("rate limits: want positive numbers (0: no limit)")
	}
	if o.Secrets == nil {
		o.Secrets = &secret.Set{}
	}
	o.Secrets.Add(o.APIKey)
	c := &Client{
		opts:    o,
		retries: retries,
		base:    strings.TrimSuffix(u.String(), "/"),
		slots:   make(chan struct{}, o.Concurrency),
		sleep:   sleepContext,
		limits:  serverLimits{now: time.Now},
	}
	if o.RequestsPerMinute > 0 {
		c.rpm = rate.NewLimiter(rate.Limit(o.RequestsPerMinute/60), 1)
	}
	if o.TokensPerMinute > 0 {
		c.tpm = rate.NewLimiter(rate.Limit(float64(o.TokensPerMinute)/60), o.TokensPerMinute)
	}
	return c, nil
}

// Cache returns the client's cache, or nil.
func (c *Client) Cache() *Cache { return c.opts.Cache }

// Key returns the request's cache key: a hash of the base URL, the tag and
// the whole request body (model, messages, temperature, response format,
// ...). The API key is no part of it.
func (c *Client) Key(req ChatRequest) (string, error) {
	key, _, err := c.key(req)
	return key, err
}

// key returns the request's cache key and its body.
func (c *Client) key(req ChatRequest) (string, []byte, error) {
	body, err := req.body(false)
	if err != nil {
		return "", nil, err
	}
	return CacheKey("chat/v1", c.base, req.Tag, string(body)), body, nil
}

// load returns the reply kept under key: in the cache, or in memory when
// the cache could not keep it.
func (c *Client) load(key string) ([]byte, bool) {
	if c.opts.Cache == nil {
		return nil, false
	}
	if data, ok := c.kept.Load(key); ok {
		return data.([]byte), true
	}
	data, ok, err := c.opts.Cache.Get(key)
	return data, err == nil && ok
}

// store keeps a reply under key, scrubbed of the secrets. When the cache
// cannot be written, the reply is kept in memory for the run, and Warn is
// told once: a reply that was paid for is never lost for want of a
// cache.
func (c *Client) store(key string, data []byte) {
	if c.opts.Cache == nil {
		return
	}
	data = c.opts.Secrets.Bytes(data)
	err := c.opts.Cache.Put(key, data)
	if err == nil {
		c.kept.Delete(key)
		return
	}
	c.kept.Store(key, data)
	c.warnOnce.Do(func() {
		if c.opts.Warn != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the entry's name says nothing to the user
			}
			c.opts.Warn(c.redact(fmt.Sprintf("cannot write the reply cache in %s (%v): replies are kept until the run ends, not for the next run; the results stand", c.opts.Cache.Dir(), err)))
		}
	})
}

// forget removes the reply kept under key.
func (c *Client) forget(key string) error {
	if c.opts.Cache == nil {
		return nil
	}
	c.kept.Delete(key)
	return c.opts.Cache.Delete(key)
}

func (c *Client) cached(key string) (*Completion, bool) {
	data, ok := c.load(key)
	if !ok {
		return nil, false
	}
	comp, err := decodeCompletion(data)
	if err != nil {
		c.forget(key) // a damaged entry is asked again
		return nil, false
	}
	comp.Usage = toolgrade.Usage{CachedRequests: 1}
	comp.Key, comp.Cached = key, true
	return comp, true
}

// Forget removes the cached reply to req, so that the next Complete asks
// again: for replies that turned out unusable.
func (c *Client) Forget(req ChatRequest) error {
	if c.opts.Cache == nil {
		return nil
	}
	key, err := c.Key(req)
	if err != nil {
		return err
	}
	return c.forget(key)
}

// Complete answers req from the cache, or sends it (within the
// concurrency and rate limits, retrying as [Options] says) and caches the
// reply (a cache that cannot be written is no error: see [Options.Warn]).
// When the endpoint rejects the response_format of a request (HTTP
// 400 or 422 naming it), the request is sent again without it, and so
// are all later ones; the cache key stays that of the request as given.
func (c *Client) Complete(ctx context.Context, req ChatRequest) (*Completion, error) {
	key, body, err := c.key(req)
	if err != nil {
		return nil, err
	}
	if comp, ok := c.cached(key); ok {
		return comp, nil
	}
	tokens := len(body)/4 + 1 + max(req.MaxTokens, 0)
	bare := body // the body without the response format
	if req.ResponseFormat != nil {
		if bare, err = req.body(true); err != nil {
			return nil, err
		}
	}
	plain := c.plain.Load()
	if plain {
		body = bare
	}
	var reply []byte
	var comp *Completion
	err = c.retry(ctx, tokens, func(ctx context.Context) (*httpSnapshot, error) {
		snap, data, err := c.send(ctx, http.MethodPost, "chat/completions", "application/json", body, c.opts.MaxReplyBytes)
		if err != nil && req.ResponseFormat != nil && !plain && snap.rejectsResponseFormat() {
			c.plain.Store(true)
			plain, body = true, bare
			snap, data, err = c.send(ctx, http.MethodPost, "chat/completions", "application/json", body, c.opts.MaxReplyBytes)
		}
		if err == nil {
			comp, err = decodeCompletion(data)
		}
		reply = data
		return snap, err
	})
	if err != nil {
		return nil, err
	}
	c.store(key, reply)
	comp.Key = key
	return comp, nil
}

// wait waits for the rate limiters to let a request of this many tokens
// go; a negative count is not limited.
func (c *Client) wait(ctx context.Context, tokens int) error {
	if tokens < 0 {
		return nil
	}
	if c.rpm != nil {
		if err := c.rpm.Wait(ctx); err != nil {
			return err
		}
	}
	if c.tpm != nil {
		if err := c.tpm.WaitN(ctx, min(tokens, c.tpm.Burst())); err != nil {
			return err
		}
	}
	return nil
}

// retry runs attempt, each time after the rate limiters (for a request of
// this many tokens; negative: not limited), in a concurrency slot and
// under the per-attempt timeout, until it succeeds, fails for good, or the
// retries are spent. A chat completion (tokens not negative) also waits
// for the limits the server's headers told (see serverLimits).
func (c *Client) retry(ctx context.Context, tokens int, attempt func(context.Context) (*httpSnapshot, error)) error {
	cost := [2]float64{1, float64(tokens)}
	for n := 0; ; n++ {
		if err := c.wait(ctx, tokens); err != nil {
			return err
		}
		select {
		case c.slots <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		var adm admission
		if tokens >= 0 {
			var err error
			if adm, err = c.limits.admit(ctx, cost, c.sleep); err != nil {
				<-c.slots
				return err
			}
		}
		actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
		snap, err := attempt(actx)
		timedOut := actx.Err() != nil && ctx.Err() == nil
		cancel()
		<-c.slots
		told := tokens >= 0 && snap != nil && c.limits.observe(adm, snap)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if snap == nil {
			snap = &httpSnapshot{}
		}
		retryable, msg := snap.classify(err, timedOut, c.opts.Timeout)
		if retryable && n >= c.retries && n > 0 {
			msg += fmt.Sprintf(" (after %d attempts)", n+1)
		}
		if !retryable || n >= c.retries {
			if snap.status == http.StatusNotFound {
				msg += c.notFoundHint()
			}
			if snap.status >= 400 {
				return &HTTPError{Status: snap.status, Code: c.redact(errorCode(snap.body)), Message: c.redact(msg)}
			}
			return errors.New(c.redact(msg))
		}
		d, ok := retryAfter(snap.header, time.Now())
		switch {
		case ok:
		case told && snap.status == http.StatusTooManyRequests && c.limits.holds(cost):
			d = 0 // the limits the reply told hold the retry back as long as needed
		default:
			d = backoff(n)
		}
		if err := c.sleep(ctx, d); err != nil {
			return err
		}
	}
}

// notFoundHint explains a 404 from a base URL with no path, the usual
// slip with servers that answer below /v1 (vLLM, Ollama, LM Studio, a
// fake model): "" for other base URLs, where 404 means something else.
func (c *Client) notFoundHint() string {
	u, err := url.Parse(c.base)
	if err != nil || strings.Trim(u.Path, "/") != "" || c.opts.Azure {
		return ""
	}
	return fmt.Sprintf(" (the base URL %s has no path: did you mean %s/v1?)", c.base, c.base)
}

// An HTTPError is a request that failed with an HTTP error status.
type HTTPError struct {
	Status int
	// Code is the error code the server's reply names, if any:
	// "invalid_api_key", "rate_limit_exceeded", "context_length_exceeded",
	// "404", ... (a number is given as its text).
	Code    string
	Message string // the status and the server's message, without the key
}

func (e *HTTPError) Error() string { return e.Message }

// redact removes the secrets from a message that may quote a server's
// reply.
func (c *Client) redact(msg string) string { return c.opts.Secrets.String(msg) }

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// backoff is the wait before retry n+1 when the server names none:
// exponential, capped, with the upper half jittered so that parallel
// clients spread out.
func backoff(n int) time.Duration {
	d := backoffMax
	if n < 16 {
		d = min(backoffBase<<n, backoffMax)
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads how long the server asks to wait: retry-after-ms
// (milliseconds), or Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	// capped converts n units to a duration, capped before it can overflow.
	capped := func(n float64, unit time.Duration) time.Duration {
		if n*float64(unit) >= float64(maxRetryAfter) {
			return maxRetryAfter
		}
		return time.Duration(n * float64(unit))
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms >= 0 {
			return capped(ms, time.Millisecond), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return capped(s, time.Second), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter), true
	}
	return 0, false
}

// Budgets of what a reply may bring: a chat completion or an API object,
// and a batch's output or error file.
const (
	maxReplyBytes = 64 << 20
	maxFileBytes  = 1 << 30
	maxErrorBytes = 64 << 10
)

// An httpSnapshot keeps what an attempt's HTTP response said: its status,
// headers, and, for an error status, its body (cut to maxErrorBytes).
type httpSnapshot struct {
	status int
	header http.Header
	body   []byte
	// wrote is when the request was written out (Unix nanoseconds; 0:
	// not known): about when the server began on it.
	wrote atomic.Int64
}

// send makes one HTTP request to the API: method on path (below the base
// URL), with body (nil: none) of the given content type. It returns the
// reply's body (at most limit bytes) when the status is 2xx, else an
// error; the snapshot says what came back, for classify.
func (c *Client) send(ctx context.Context, method, path, contentType string, body []byte, limit int64) (*httpSnapshot, []byte, error) {
	snap := &httpSnapshot{}
	u := c.base + "/" + path
	if c.opts.APIVersion != "" {
		u += "?" + url.Values{"api-version": {c.opts.APIVersion}}.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(c.opts.Secrets.Bytes(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return snap, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	switch {
	case c.opts.APIKey == "":
	case c.opts.Azure:
		req.Header.Set("Api-Key", c.opts.APIKey)
	default:
		req.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
	}
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { snap.wrote.Store(time.Now().UnixNano()) },
	}))
	res, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return snap, nil, err
	}
	defer res.Body.Close()
	snap.status, snap.header = res.StatusCode, res.Header
	if res.StatusCode < 200 || res.StatusCode > 299 {
		if res.StatusCode >= 400 {
			snap.body, _ = io.ReadAll(io.LimitReader(res.Body, maxErrorBytes))
			snap.body = c.opts.Secrets.Bytes(snap.body)
		}
		return snap, nil, fmt.Errorf("unexpected status %s", res.Status)
	}
	data, err := budget.ReadAll(res.Body, &budget.Error{What: "reply", Limit: limit, Flag: c.replyFlag})
	return snap, c.opts.Secrets.Bytes(data), err
}

// classify says whether a failed attempt is worth retrying, and describes
// it.
func (s *httpSnapshot) classify(err error, timedOut bool, timeout time.Duration) (bool, string) {
	var tooLarge *budget.Error
	switch {
	case errors.As(err, &tooLarge):
		return false, err.Error() // asking again gets as much again
	case timedOut:
		return true, fmt.Sprintf("no reply within %v", timeout)
	case s.status >= 400:
		msg := fmt.Sprintf("HTTP %d %s", s.status, http.StatusText(s.status))
		if detail := errorDetail(s.body); detail != "" {
			msg += ": " + detail
		}
		switch {
		case s.status == http.StatusRequestTimeout, s.status == http.StatusConflict,
			s.status == http.StatusTooManyRequests, s.status >= 500:
			return true, msg
		}
		return false, msg
	case s.status >= 200 && s.status < 300:
		return true, "reply is not a valid chat completion: " + shorten(err.Error(), 300)
	case s.status == 0:
		return true, "request failed: " + shorten(err.Error(), 300)
	}
	return false, fmt.Sprintf("HTTP %d: %s", s.status, shorten(err.Error(), 300))
}

// rejectsResponseFormat reports whether the attempt failed because the
// endpoint does not support the response_format (structured output).
func (s *httpSnapshot) rejectsResponseFormat() bool {
	if s.status != http.StatusBadRequest && s.status != http.StatusUnprocessableEntity {
		return false
	}
	b := strings.ToLower(string(s.body))
	return strings.Contains(b, "response_format") || strings.Contains(b, "json_schema") || strings.Contains(b, "structured output")
}

// errorDetail pulls the message out of an error body in the shapes servers
// use: OpenAI's {"error": {"message"}}, {"error": "..."}, vLLM's
// {"message"}, FastAPI's {"detail"}; else the text itself.
func errorDetail(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			return shorten(inner.Message, 300)
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return shorten(s, 300)
		case v.Message != "":
			return shorten(v.Message, 300)
		case v.Detail != nil:
			d, _ := json.Marshal(v.Detail)
			return shorten(string(d), 300)
		}
	}
	return shorten(strings.TrimSpace(string(body)), 300)
}

// errorCode pulls the error code out of an error body: OpenAI's
// {"error": {"code"}}, or vLLM's {"code"}; a string or a number.
func errorCode(body []byte) string {
	var v struct {
		Error struct {
			Code json.RawMessage `json:"code"`
		} `json:"error"`
		Code json.RawMessage `json:"code"`
	}
	json.Unmarshal(body, &v) // a body of another shape has no code
	for _, code := range []json.RawMessage{v.Error.Code, v.Code} {
		var s string
		var n json.Number
		switch {
		case json.Unmarshal(code, &s) == nil && s != "":
			return shorten(s, 100)
		case json.Unmarshal(code, &n) == nil && n != "":
			return n.String()
		}
	}
	return ""
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}

// redactURL writes u without user info.
func redactURL(u *url.URL) string {
	v := *u
	v.User = nil
	v.RawQuery = ""
	return v.String()
}
