package openai

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// rawClient returns a client on srv whose retries do not wait.
func rawClient(t *testing.T, srv *openaitest.Server, o Options) *Client {
	t.Helper()
	o.BaseURL = srv.BaseURL()
	c, err := NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	return c
}

const toolReply = `{"id":"chatcmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":55,"completion_tokens":7,"total_tokens":62}}`

const toolRequest = `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"Weather in Paris?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}],"tool_choice":"auto","parallel_tool_calls":true,"temperature":0.0,"max_tokens":64,"seed":7}`

func TestCompleteJSON(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Key = "sk-raw-test"
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Body: toolReply} }
	c := rawClient(t, srv, Options{APIKey: "sk-raw-test", Cache: func() *Cache {
		cache, err := OpenCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return cache
	}()})

	got, err := c.CompleteJSON(context.Background(), "run", []byte(toolRequest))
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Body) != toolReply {
		t.Errorf("body %s, want the reply as sent", got.Body)
	}
	if got.Cached || got.Usage.PromptTokens != 55 || got.Usage.CompletionTokens != 7 || got.Usage.Requests != 1 {
		t.Errorf("first reply: cached %v, usage %+v", got.Cached, got.Usage)
	}
	chats := srv.Chats()
	if len(chats) != 1 {
		t.Fatalf("%d requests, want 1", len(chats))
	}
	body := chats[0].Body
	for key, want := range map[string]any{"tool_choice": "auto", "parallel_tool_calls": true, "seed": float64(7), "max_tokens": float64(64), "temperature": float64(0)} {
		if body[key] != want {
			t.Errorf("request %s = %v, want %v", key, body[key], want)
		}
	}
	if parts, _ := body["messages"].([]any)[0].(map[string]any)["content"].([]any); len(parts) != 2 {
		t.Errorf("multimodal content parts not sent as given: %v", body["messages"])
	}

	again, err := c.CompleteJSON(context.Background(), "run", []byte(toolRequest))
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cached || string(again.Body) != toolReply || again.Usage.CachedRequests != 1 || again.Usage.Requests != 0 || again.Key != got.Key {
		t.Errorf("second reply: cached %v, usage %+v", again.Cached, again.Usage)
	}
	if _, err := c.CompleteJSON(context.Background(), "other-tag", []byte(toolRequest)); err != nil {
		t.Fatal(err)
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 2 {
		t.Errorf("%d requests sent, want 2 (the repeat answered from the cache, another tag sent)", n)
	}
}

func TestCompleteJSONFailures(t *testing.T) {
	tests := []struct {
		name     string
		replies  []openaitest.Reply // in turn; the last repeats
		opts     Options
		wantErr  string // "" for success
		wantHTTP int
		hits     int
	}{
		{
			name:    "429 then 500 then success",
			replies: []openaitest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "0"}}, {Status: 500}, {Body: toolReply}},
			hits:    3,
		},
		{
			name:    "malformed replies until the retries are spent",
			replies: []openaitest.Reply{{Body: `{"choices": [`}},
			opts:    Options{MaxRetries: new(1)},
			wantErr: "not a valid chat completion",
			hits:    2,
		},
		{
			name:    "an object without choices",
			replies: []openaitest.Reply{{Body: `{"error": {"message": "upstream failed"}}`}},
			opts:    Options{MaxRetries: new(0)},
			wantErr: `no "choices" list`,
			hits:    1,
		},
		{
			name:     "400 is not retried",
			replies:  []openaitest.Reply{{Status: 400, Body: `{"error": {"message": "tools[0].function.name: invalid"}}`}},
			wantErr:  "tools[0].function.name: invalid",
			wantHTTP: 400,
			hits:     1,
		},
		{
			name:    "slow replies time out",
			replies: []openaitest.Reply{{Hang: true}},
			opts:    Options{Timeout: 20 * time.Millisecond, MaxRetries: new(1)},
			wantErr: "no reply within",
			hits:    2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			var n atomic.Int64
			srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
				i := int(n.Add(1)) - 1
				return tt.replies[min(i, len(tt.replies)-1)]
			}
			c := rawClient(t, srv, tt.opts)
			got, err := c.CompleteJSON(context.Background(), "run", []byte(toolRequest))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.wantErr == "" && string(got.Body) != toolReply:
				t.Errorf("body %s", got.Body)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			var he *HTTPError
			if tt.wantHTTP != 0 && (!errors.As(err, &he) || he.Status != tt.wantHTTP) {
				t.Errorf("error %#v, want an HTTPError with status %d", err, tt.wantHTTP)
			}
			if h := srv.Hits("POST /v1/chat/completions"); h != tt.hits {
				t.Errorf("%d requests, want %d", h, tt.hits)
			}
		})
	}
}

func TestCompleteJSONRejectsBadBodies(t *testing.T) {
	srv := openaitest.NewServer(t)
	c := rawClient(t, srv, Options{})
	for _, body := range []string{``, `not json`, `[1]`} {
		if _, err := c.CompleteJSON(context.Background(), "run", []byte(body)); err == nil {
			t.Errorf("body %q: no error", body)
		}
	}
	if h := srv.Hits("POST /v1/chat/completions"); h != 0 {
		t.Errorf("%d requests sent for bad bodies", h)
	}
}
