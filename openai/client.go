// Package openai talks to any endpoint that speaks OpenAI's Chat
// Completions API (OpenAI, Azure OpenAI, vLLM, Ollama, LM Studio,
// OpenRouter, ...) through the openai-go SDK. It is the only package of
// toolgrade that imports the SDK.
//
// A [Client] is the transport: it bounds concurrency, keeps to request and
// token rate limits, retries with backoff, answers from an on-disk cache,
// and runs request sets through the Batch API. It sends any chat
// completion request, not only judge prompts. [Judge] builds on it to
// implement judge.Judge.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"golang.org/x/time/rate"
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
	// with Azure. Empty sends no key (local servers need none). The key is
	// never written to the cache, to errors or to logs.
	APIKey string
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
	// MaxRetries is how often a failed request is retried (default 4;
	// negative: never). 408, 409, 429 and 5xx replies, timeouts, broken
	// connections and reply bodies that are not valid JSON are retried.
	MaxRetries int
	// Cache, if set, answers repeated requests and keeps new replies.
	Cache *Cache
	// HTTPClient sends the requests (default: a new http.Client).
	HTTPClient *http.Client
}

// A Client sends chat completion requests. It is safe for concurrent use.
type Client struct {
	opts    Options
	base    string // canonical base URL, part of every cache key
	chat    sdk.ChatCompletionService
	files   sdk.FileService
	batches sdk.BatchService
	slots   chan struct{}
	rpm     *rate.Limiter
	tpm     *rate.Limiter
	// plain is set once the endpoint rejected response_format: later
	// requests go without it.
	plain atomic.Bool
	// sleep waits between retries; tests replace it to see the delays.
	sleep func(ctx context.Context, d time.Duration) error
}

// NewClient checks the options and returns a client. Unlike the SDK's own
// client it reads nothing from the environment: the key is the caller's
// choice.
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
	if o.MaxRetries == 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	if o.MaxRetries < 0 {
		o.MaxRetries = 0
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.RequestsPerMinute < 0 || o.TokensPerMinute < 0 {
		return nil, errors.New("rate limits: want positive numbers (0: no limit)")
	}
	c := &Client{
		opts:  o,
		base:  strings.TrimSuffix(u.String(), "/"),
		slots: make(chan struct{}, o.Concurrency),
		sleep: sleepContext,
	}
	if o.RequestsPerMinute > 0 {
		c.rpm = rate.NewLimiter(rate.Limit(o.RequestsPerMinute/60), 1)
	}
	if o.TokensPerMinute > 0 {
		c.tpm = rate.NewLimiter(rate.Limit(float64(o.TokensPerMinute)/60), o.TokensPerMinute)
	}
	opts := []option.RequestOption{
		option.WithBaseURL(c.base + "/"),
		option.WithHTTPClient(o.HTTPClient),
		option.WithMaxRetries(0), // retries are ours, to honour Retry-After exactly
	}
	switch {
	case o.APIKey == "":
	case o.Azure:
		opts = append(opts, option.WithHeader("api-key", o.APIKey))
	default:
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	if o.APIVersion != "" {
		opts = append(opts, option.WithQuery("api-version", o.APIVersion))
	}
	// The services, not sdk.NewClient, which would read OPENAI_API_KEY and
	// OPENAI_BASE_URL from the environment behind the caller's back.
	c.chat = sdk.NewChatCompletionService(opts...)
	c.files = sdk.NewFileService(opts...)
	c.batches = sdk.NewBatchService(opts...)
	return c, nil
}

// Cache returns the client's cache, or nil.
func (c *Client) Cache() *Cache { return c.opts.Cache }

// A ChatRequest is one chat completion request.
type ChatRequest struct {
	// Tag names what the request is for and its version, such as a judge
	// prompt's version; it is part of the cache key, so that a changed
	// prompt never meets an old reply.
	Tag    string
	Params sdk.ChatCompletionNewParams
}

// A Completion is a chat completion reply.
type Completion struct {
	*sdk.ChatCompletion
	// Key is the request's cache key (also its custom_id in a batch).
	Key string
	// Cached reports that the reply came from the cache.
	Cached bool
}

// Key returns the request's cache key: a hash of the base URL, the tag and
// the whole request body (model, messages, temperature, response format,
// ...). The API key is no part of it.
func (c *Client) Key(req ChatRequest) (string, error) {
	key, _, err := c.key(req)
	return key, err
}

// key returns the request's cache key and its body.
func (c *Client) key(req ChatRequest) (string, []byte, error) {
	body, err := json.Marshal(req.Params)
	if err != nil {
		return "", nil, fmt.Errorf("encoding the request: %w", err)
	}
	return CacheKey("chat/v1", c.base, req.Tag, string(body)), body, nil
}

func (c *Client) cached(key string) (*Completion, bool) {
	if c.opts.Cache == nil {
		return nil, false
	}
	data, ok, err := c.opts.Cache.Get(key)
	if err != nil || !ok {
		return nil, false
	}
	var cc sdk.ChatCompletion
	if err := json.Unmarshal(data, &cc); err != nil {
		c.opts.Cache.Delete(key) // a damaged entry is asked again
		return nil, false
	}
	return &Completion{ChatCompletion: &cc, Key: key, Cached: true}, true
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
	return c.opts.Cache.Delete(key)
}

// Complete answers req from the cache, or sends it (within the
// concurrency and rate limits, retrying as [Options] says) and caches the
// reply. When the endpoint rejects the response_format of a request (HTTP
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
	params := req.Params
	if c.plain.Load() {
		params.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{}
	}
	tokens := estimateTokens(params, len(body))
	var cc *sdk.ChatCompletion
	err = c.retry(ctx, tokens, func(ctx context.Context) (*httpSnapshot, error) {
		var snap httpSnapshot
		res, err := c.chat.New(ctx, params, option.WithMiddleware(snap.capture))
		if err != nil && hasResponseFormat(params) && snap.rejectsResponseFormat() {
			c.plain.Store(true)
			params.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{}
			snap = httpSnapshot{}
			res, err = c.chat.New(ctx, params, option.WithMiddleware(snap.capture))
		}
		cc = res
		return &snap, err
	})
	if err != nil {
		return nil, err
	}
	if c.opts.Cache != nil {
		if err := c.opts.Cache.Put(key, []byte(cc.RawJSON())); err != nil {
			return nil, err
		}
	}
	return &Completion{ChatCompletion: cc, Key: key}, nil
}

func hasResponseFormat(p sdk.ChatCompletionNewParams) bool {
	return p.ResponseFormat.OfJSONSchema != nil || p.ResponseFormat.OfJSONObject != nil || p.ResponseFormat.OfText != nil
}

// estimateTokens guesses a request's tokens for the token rate limit: a
// quarter of its body's bytes, plus the reply's maximum.
func estimateTokens(p sdk.ChatCompletionNewParams, bodyLen int) int {
	n := bodyLen/4 + 1
	if p.MaxTokens.Valid() {
		n += int(p.MaxTokens.Value)
	}
	if p.MaxCompletionTokens.Valid() {
		n += int(p.MaxCompletionTokens.Value)
	}
	return n
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
// retries are spent.
func (c *Client) retry(ctx context.Context, tokens int, attempt func(context.Context) (*httpSnapshot, error)) error {
	for n := 0; ; n++ {
		if err := c.wait(ctx, tokens); err != nil {
			return err
		}
		select {
		case c.slots <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
		snap, err := attempt(actx)
		timedOut := actx.Err() != nil && ctx.Err() == nil
		cancel()
		<-c.slots
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
		if retryable && n >= c.opts.MaxRetries && n > 0 {
			msg += fmt.Sprintf(" (after %d attempts)", n+1)
		}
		if !retryable || n >= c.opts.MaxRetries {
			if snap.status >= 400 {
				return &HTTPError{Status: snap.status, Message: c.redact(msg)}
			}
			return errors.New(c.redact(msg))
		}
		d, ok := retryAfter(snap.header, time.Now())
		if !ok {
			d = backoff(n)
		}
		if err := c.sleep(ctx, d); err != nil {
			return err
		}
	}
}

// An HTTPError is a request that failed with an HTTP error status.
type HTTPError struct {
	Status  int
	Message string // the status and the server's message, without the key
}

func (e *HTTPError) Error() string { return e.Message }

// redact removes the API key from a message that may quote a server's
// reply.
func (c *Client) redact(msg string) string {
	if k := c.opts.APIKey; len(k) >= 4 {
		msg = strings.ReplaceAll(msg, k, "[redacted]")
	}
	return msg
}

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

// An httpSnapshot keeps what an attempt's HTTP response said (status,
// headers, an error body), because the SDK's errors lose them when a
// server's error body is not OpenAI's shape.
type httpSnapshot struct {
	status int
	header http.Header
	body   []byte // error bodies only, cut to 64 KiB
}

func (s *httpSnapshot) capture(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if res != nil {
		s.status, s.header = res.StatusCode, res.Header.Clone()
		if res.StatusCode >= 400 && res.Body != nil {
			s.body, _ = io.ReadAll(io.LimitReader(res.Body, 64<<10))
			res.Body.Close()
			res.Body = io.NopCloser(bytes.NewReader(s.body))
		}
	}
	return res, err
}

// classify says whether a failed attempt is worth retrying, and describes
// it.
func (s *httpSnapshot) classify(err error, timedOut bool, timeout time.Duration) (bool, string) {
	switch {
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
