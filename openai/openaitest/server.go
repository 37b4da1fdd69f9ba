// Package openaitest provides a fake OpenAI-compatible API on loopback,
// for tests that must not reach the internet: chat completions, file
// upload and download, and batches (create, retrieve, cancel), on the real
// wire format.
//
// Non-goals: a model. Replies are what the test scripts ([Server.Reply]);
// other endpoints and streaming are not served.
package openaitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Server is a fake OpenAI API. Set its fields before the first request;
// they are read while requests are served.
type Server struct {
	*httptest.Server

	// Key, if set, must come with every request, as "Authorization:
	// Bearer KEY" or "api-key: KEY"; other requests get a 401.
	Key string
	// Reply answers each chat completion request, also those inside a
	// batch; it may be called concurrently. Nil answers every request
	// with {"score": 1, "reason": "ok"}.
	Reply func(r *ChatRequest) Reply
	// NoStructuredOutput rejects requests with a response_format with a
	// 400 naming it, as endpoints without structured output do.
	NoStructuredOutput bool

	// BatchPolls is how many status checks find a batch in progress
	// before it ends (default 0: the first check finds it ended).
	BatchPolls int
	// BatchEnd is how a batch ends (default BatchCompleted); with
	// BatchExpired, only the first BatchAnswered requests are answered.
	BatchEnd      BatchEnd
	BatchAnswered int

	// RequestLimit, when set, limits chat completion requests as a token
	// bucket of that many requests refilled evenly over RequestWindow
	// (default a minute: RequestLimit is then requests per minute), full at
	// the start. Every reply carries OpenAI's x-ratelimit-limit-requests,
	// x-ratelimit-remaining-requests and x-ratelimit-reset-requests (the
	// time until the bucket is full again, as "1.2s"); a request beyond the
	// limit gets a 429 (code rate_limit_exceeded) with the same headers and
	// no Retry-After. [Server.RateLimited] counts those.
	RequestLimit  int
	RequestWindow time.Duration

	// Together, when above 1, holds every chat completion request until
	// that many are held, then answers them all: a test that a client
	// keeps so many requests in flight. A request held longer than
	// Patience (default 3s) is answered alone; [Server.Stranded] counts
	// those.
	Together int
	Patience time.Duration

	mu       sync.Mutex
	inFlight int // chat completion requests being answered
	most     int // the most at once
	held     int // requests held for Together
	release  chan struct{}
	stranded int
	bucket   float64   // requests left in the bucket at filled
	filled   time.Time // when bucket was last brought up to date
	limited  int
	hits     map[string]int
	chats    []*ChatRequest
	files    map[string]*file
	batches  map[string]*batch
	nextID   int
}

// A BatchEnd is how a batch of the fake API ends.
type BatchEnd string

const (
	// BatchCompleted answers every request.
	BatchCompleted BatchEnd = "completed"
	// BatchExpired answers the first [Server.BatchAnswered] requests and
	// puts the rest in the error file as batch_expired.
	BatchExpired BatchEnd = "expired"
	// BatchFailed gives no output at all.
	BatchFailed BatchEnd = "failed"
)

// A ChatRequest is a chat completion request as the server read it.
type ChatRequest struct {
	Model          string
	System, User   string // the first system and user messages' text
	ResponseFormat bool   // whether a response_format was sent
	Body           map[string]any
	Raw            []byte // the body as sent
	Header         http.Header
	Query          url.Values
	InBatch        bool // the request came in a batch's input file
}

// A Reply is the server's answer to one chat completion request.
type Reply struct {
	// Content is the assistant's message.
	Content string
	// Status, when not 0 or 200, answers with that HTTP status, Header
	// and Body (default: an OpenAI error object) instead of a completion.
	Status int
	Header map[string]string
	// Body, when set, is sent as it is in place of the completion
	// (with Status 200: a malformed reply).
	Body string
	// Hang waits until the client gives up (a timeout).
	Hang bool
	// PromptTokens and CompletionTokens are the usage reported (default
	// 100 and 20).
	PromptTokens, CompletionTokens int
}

type file struct {
	obj  map[string]any
	data []byte
}

type batch struct {
	obj   map[string]any
	input []*batchInput
	polls int
}

type batchInput struct {
	customID string
	req      *ChatRequest
}

// NewServer starts a fake API; it is closed when the test ends. Its base
// URL (for a client) is [Server.BaseURL].
func NewServer(t testing.TB) *Server {
	s := &Server{hits: map[string]int{}, files: map[string]*file{}, batches: map[string]*batch{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/files", s.upload)
	mux.HandleFunc("GET /v1/files/{id}/content", s.content)
	mux.HandleFunc("POST /v1/batches", s.createBatch)
	mux.HandleFunc("GET /v1/batches/{id}", s.getBatch)
	mux.HandleFunc("POST /v1/batches/{id}/cancel", s.cancelBatch)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		if s.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.Key && r.Header.Get("Api-Key") != s.Key {
			writeError(w, http.StatusUnauthorized, "Incorrect API key provided.", "invalid_api_key")
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the API root to give a client: the server's URL plus /v1.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Hits returns how many requests came for route, e.g.
// "POST /v1/chat/completions" or "GET /v1/batches/batch_1".
func (s *Server) Hits(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[route]
}

// Chats returns the chat completion requests received, in order, batch
// requests included.
func (s *Server) Chats() []*ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*ChatRequest(nil), s.chats...)
}

// MostInFlight returns the most chat completion requests the server was
// answering at once.
func (s *Server) MostInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.most
}

// Stranded returns how many chat completion requests waited in vain for
// [Server.Together] requests to be held with them.
func (s *Server) Stranded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stranded
}

// hold holds a chat completion request as Together says.
func (s *Server) hold() {
	if s.Together <= 1 {
		return
	}
	patience := s.Patience
	if patience <= 0 {
		patience = 3 * time.Second
	}
	s.mu.Lock()
	if s.release == nil {
		s.release = make(chan struct{})
	}
	release := s.release
	if s.held++; s.held == s.Together {
		close(release)
		s.release, s.held = nil, 0
	}
	s.mu.Unlock()
	select {
	case <-release:
	case <-time.After(patience):
		s.mu.Lock()
		s.stranded++
		s.mu.Unlock()
	}
}

// RateLimited returns how many chat completion requests were answered
// with a 429 for going beyond [Server.RequestLimit].
func (s *Server) RateLimited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limited
}

// admit takes a request from the bucket, if RequestLimit is set, and sets
// the rate-limit headers; it reports whether the request may go on.
func (s *Server) admit(h http.Header) bool {
	if s.RequestLimit <= 0 {
		return true
	}
	window := s.RequestWindow
	if window <= 0 {
		window = time.Minute
	}
	limit := float64(s.RequestLimit)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if s.filled.IsZero() {
		s.bucket = limit
	} else {
		s.bucket = min(limit, s.bucket+limit*float64(now.Sub(s.filled))/float64(window))
	}
	s.filled = now
	ok := s.bucket >= 1
	if ok {
		s.bucket--
	} else {
		s.limited++
	}
	reset := time.Duration((limit - s.bucket) / limit * float64(window)).Round(time.Millisecond)
	h.Set("X-Ratelimit-Limit-Requests", strconv.Itoa(s.RequestLimit))
	h.Set("X-Ratelimit-Remaining-Requests", strconv.Itoa(int(s.bucket)))
	h.Set("X-Ratelimit-Reset-Requests", reset.String())
	return ok
}

func (s *Server) id(prefix string) string {
	s.nextID++
	return prefix + strconv.Itoa(s.nextID)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg, code string) {
	writeJSON(w, status, errorBody(msg, code))
}

func errorBody(msg, code string) map[string]any {
	return map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nil, "code": code,
	}}
}

// parseChat reads a chat completion request body.
func parseChat(data []byte) (*ChatRequest, error) {
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, fmt.Errorf("could not parse the JSON body of the request: %v", err)
	}
	r := &ChatRequest{Body: body, Raw: data}
	r.Model, _ = body["model"].(string)
	if r.Model == "" {
		return nil, fmt.Errorf("you must provide a model parameter")
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return nil, fmt.Errorf("'messages' is a required property")
	}
	for _, m := range msgs {
		mo, _ := m.(map[string]any)
		text, _ := mo["content"].(string)
		switch mo["role"] {
		case "system", "developer":
			if r.System == "" {
				r.System = text
			}
		case "user":
			if r.User == "" {
				r.User = text
			}
		}
	}
	_, r.ResponseFormat = body["response_format"]
	return r, nil
}

func (s *Server) reply(r *ChatRequest) Reply {
	s.mu.Lock()
	s.chats = append(s.chats, r)
	s.mu.Unlock()
	if s.Reply == nil {
		return Reply{Content: `{"score": 1, "reason": "ok"}`}
	}
	return s.Reply(r)
}

// completion is the chat.completion object for a reply.
func (s *Server) completion(model string, rep Reply) map[string]any {
	p, c := rep.PromptTokens, rep.CompletionTokens
	if p == 0 && c == 0 {
		p, c = 100, 20
	}
	s.mu.Lock()
	id := s.id("chatcmpl-")
	s.mu.Unlock()
	return map[string]any{
		"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": rep.Content, "refusal": nil},
			"logprobs":      nil,
			"finish_reason": "stop",
		}},
		"usage": map[string]any{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
	}
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	if mt := r.Header.Get("Content-Type"); !strings.HasPrefix(mt, "application/json") {
		writeError(w, http.StatusBadRequest, "want a JSON body, got "+mt, "")
		return
	}
	data, _ := io.ReadAll(r.Body)
	req, err := parseChat(data)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), "")
		return
	}
	req.Header, req.Query = r.Header.Clone(), r.URL.Query()
	if !s.admit(w.Header()) {
		writeError(w, http.StatusTooManyRequests, "Rate limit reached for requests on "+req.Model+": Limit "+strconv.Itoa(s.RequestLimit)+".", "rate_limit_exceeded")
		return
	}
	if s.NoStructuredOutput && req.ResponseFormat {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"object": "error", "message": "response_format of type json_schema is not supported by this model",
			"type": "BadRequestError", "param": nil, "code": 400,
		})
		return
	}
	s.mu.Lock()
	s.inFlight++
	s.most = max(s.most, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	s.hold()
	rep := s.reply(req)
	if rep.Hang {
		<-r.Context().Done()
		return
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	switch {
	case rep.Status != 0 && rep.Status != http.StatusOK:
		if rep.Body != "" {
			w.WriteHeader(rep.Status)
			io.WriteString(w, rep.Body)
			return
		}
		writeError(w, rep.Status, http.StatusText(rep.Status), "")
	case rep.Body != "":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, rep.Body)
	default:
		writeJSON(w, http.StatusOK, s.completion(req.Model, rep))
	}
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		writeError(w, http.StatusBadRequest, "want a multipart form: "+err.Error(), "")
		return
	}
	purpose := r.FormValue("purpose")
	if purpose != "batch" {
		writeError(w, http.StatusBadRequest, "purpose: want batch, got "+strconv.Quote(purpose), "")
		return
	}
	f, hdr, err := r.FormFile("file")
	if err != nil {
		writeError(w, http.StatusBadRequest, "file: "+err.Error(), "")
		return
	}
	data, _ := io.ReadAll(f)
	s.mu.Lock()
	id := s.id("file-")
	obj := map[string]any{
		"id": id, "object": "file", "bytes": len(data), "created_at": time.Now().Unix(),
		"filename": hdr.Filename, "purpose": purpose, "status": "processed",
	}
	s.files[id] = &file{obj: obj, data: data}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, obj)
}

func (s *Server) content(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f := s.files[r.PathValue("id")]
	s.mu.Unlock()
	if f == nil {
		writeError(w, http.StatusNotFound, "No such File object: "+r.PathValue("id"), "")
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(f.data)
}

func (s *Server) createBatch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		InputFileID      string            `json:"input_file_id"`
		Endpoint         string            `json:"endpoint"`
		CompletionWindow string            `json:"completion_window"`
		Metadata         map[string]string `json:"metadata"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), "")
		return
	}
	if body.Endpoint != "/v1/chat/completions" || body.CompletionWindow != "24h" {
		writeError(w, http.StatusBadRequest, "want endpoint /v1/chat/completions and completion_window 24h", "")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[body.InputFileID]
	if f == nil {
		writeError(w, http.StatusNotFound, "No such File object: "+body.InputFileID, "")
		return
	}
	b := &batch{}
	var lineErr string
	for i, line := range strings.Split(strings.TrimSpace(string(f.data)), "\n") {
		var l struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}
		err := json.Unmarshal([]byte(line), &l)
		var req *ChatRequest
		if err == nil {
			req, err = parseChat(l.Body)
		}
		switch {
		case err != nil:
			lineErr = fmt.Sprintf("line %d: %v", i+1, err)
		case l.CustomID == "" || l.Method != "POST" || l.URL != body.Endpoint:
			lineErr = fmt.Sprintf("line %d: want custom_id, method POST and url %s", i+1, body.Endpoint)
		}
		if lineErr != "" {
			break
		}
		req.InBatch = true
		b.input = append(b.input, &batchInput{customID: l.CustomID, req: req})
	}
	id := s.id("batch_")
	b.obj = map[string]any{
		"id": id, "object": "batch", "endpoint": body.Endpoint, "errors": nil,
		"input_file_id": body.InputFileID, "completion_window": "24h", "status": "validating",
		"output_file_id": nil, "error_file_id": nil, "created_at": time.Now().Unix(),
		"request_counts": map[string]any{"total": len(b.input), "completed": 0, "failed": 0},
		"metadata":       body.Metadata,
	}
	if lineErr != "" {
		b.obj["status"] = "failed"
		b.obj["errors"] = map[string]any{"object": "list", "data": []any{map[string]any{"code": "invalid_request", "message": lineErr}}}
	}
	s.batches[id] = b
	writeJSON(w, http.StatusOK, b.obj)
}

func (s *Server) getBatch(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b := s.batches[r.PathValue("id")]
	s.mu.Unlock()
	if b == nil {
		writeError(w, http.StatusNotFound, "No batch found with id '"+r.PathValue("id")+"'.", "")
		return
	}
	s.mu.Lock()
	status := b.obj["status"]
	b.polls++
	polls, end := b.polls, s.BatchEnd
	s.mu.Unlock()
	switch {
	case status == "cancelling":
		s.finish(b, "cancelled", s.BatchAnswered)
	case status != "validating" && status != "in_progress":
	case polls <= s.BatchPolls:
		s.mu.Lock()
		b.obj["status"] = "in_progress"
		s.mu.Unlock()
	case end == "" || end == BatchCompleted:
		s.finish(b, "completed", len(b.input))
	case end == BatchExpired:
		s.finish(b, "expired", s.BatchAnswered)
	default:
		s.mu.Lock()
		b.obj["status"] = "failed"
		b.obj["errors"] = map[string]any{"object": "list", "data": []any{map[string]any{"code": "server_error", "message": "the batch failed"}}}
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, b.obj)
}

func (s *Server) cancelBatch(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.batches[r.PathValue("id")]
	if b == nil {
		writeError(w, http.StatusNotFound, "No batch found with id '"+r.PathValue("id")+"'.", "")
		return
	}
	if st := b.obj["status"]; st == "validating" || st == "in_progress" {
		b.obj["status"] = "cancelling"
	}
	writeJSON(w, http.StatusOK, b.obj)
}

// finish ends a batch with status, answering its first n requests through
// Reply; the others go to the error file.
func (s *Server) finish(b *batch, status string, n int) {
	var out, errs strings.Builder
	done, failed := 0, 0
	for i, in := range b.input {
		line := map[string]any{"id": "batch_req_" + strconv.Itoa(i+1), "custom_id": in.customID}
		if i >= n {
			line["response"] = nil
			code := "batch_expired"
			if status == "cancelled" {
				code = "batch_cancelled"
			}
			line["error"] = map[string]any{"code": code, "message": "This request could not be executed before the batch ended."}
			writeLine(&errs, line)
			failed++
			continue
		}
		rep := s.reply(in.req)
		if rep.Status != 0 && rep.Status != http.StatusOK {
			line["response"] = map[string]any{"status_code": rep.Status, "request_id": "req_" + strconv.Itoa(i+1),
				"body": errorBody(http.StatusText(rep.Status), "")}
			line["error"] = nil
			writeLine(&errs, line)
			failed++
			continue
		}
		var body any = s.completion(in.req.Model, rep)
		if rep.Body != "" {
			body = json.RawMessage(rep.Body)
		}
		line["response"] = map[string]any{"status_code": 200, "request_id": "req_" + strconv.Itoa(i+1), "body": body}
		line["error"] = nil
		writeLine(&out, line)
		done++
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if out.Len() > 0 {
		id := s.id("file-")
		s.files[id] = &file{data: []byte(out.String())}
		b.obj["output_file_id"] = id
	}
	if errs.Len() > 0 {
		id := s.id("file-")
		s.files[id] = &file{data: []byte(errs.String())}
		b.obj["error_file_id"] = id
	}
	b.obj["status"] = status
	b.obj["request_counts"] = map[string]any{"total": len(b.input), "completed": done, "failed": failed}
}

func writeLine(b *strings.Builder, v any) {
	data, _ := json.Marshal(v)
	b.Write(data)
	b.WriteByte('\n')
}
