package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// Replies in the shapes servers send them.
const (
	// OpenAI, two parallel tool calls; usage with token details.
	replyToolCalls = `{
  "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion", "created": 1741570283,
  "model": "gpt-4o-2024-08-06",
  "choices": [{
    "index": 0,
    "message": {
      "role": "assistant", "content": null, "refusal": null, "annotations": [],
      "tool_calls": [
        {"id": "call_abc", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
        {"id": "call_def", "type": "function", "function": {"name": "get_time", "arguments": "{\"tz\":"}}
      ]
    },
    "logprobs": null, "finish_reason": "tool_calls"
  }],
  "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}},
  "service_tier": "default", "system_fingerprint": "fp_fc9f1d7035"
}`
	// OpenAI, a refusal under structured output.
	replyRefusal = `{"id": "chatcmpl-2", "object": "chat.completion", "created": 1741570283, "model": "gpt-4o-mini",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": "I'm sorry, I can't help with that."},
    "logprobs": null, "finish_reason": "stop"}],
  "usage": {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49}}`
	// vLLM: reasoning content, a tool call with an index, no refusal key,
	// null token details.
	replyVLLM = `{"id": "chatcmpl-9f8e", "object": "chat.completion", "created": 1741570283, "model": "Qwen/Qwen3-8B",
  "choices": [{"index": 0, "message": {"role": "assistant", "reasoning_content": "The user wants weather.", "content": "",
    "tool_calls": [{"id": "chatcmpl-tool-1", "type": "function", "index": 0, "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
    "logprobs": null, "finish_reason": "tool_calls", "stop_reason": null}],
  "usage": {"prompt_tokens": 310, "total_tokens": 342, "completion_tokens": 32, "prompt_tokens_details": null}, "prompt_logprobs": null}`
	// Ollama: text, two choices' worth of nothing odd.
	replyOllama = `{"id": "chatcmpl-123", "object": "chat.completion", "created": 1741570283, "model": "llama3.1:8b",
  "system_fingerprint": "fp_ollama",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"score\": 0.5, \"reason\": \"partly\"}"}, "finish_reason": "stop"},
    {"index": 1, "message": {"role": "assistant", "content": "second"}, "finish_reason": "length"}],
  "usage": {"prompt_tokens": 120, "completion_tokens": 14, "total_tokens": 134}}`
	// OpenAI, a custom (free-form) tool's call.
	replyCustomTool = `{"id": "chatcmpl-3", "object": "chat.completion", "model": "gpt-5",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
    "tool_calls": [{"id": "call_x", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}}]}, "finish_reason": "tool_calls"}],
  "usage": {"prompt_tokens": 5, "completion_tokens": 3}}`
)

func TestDecodeCompletion(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		want  *Completion
		err   string // "" for none
	}{
		{"tool calls", replyToolCalls, &Completion{
			Choices: []Choice{{FinishReason: "tool_calls", Message: Reply{Role: "assistant", ToolCalls: []ToolCall{
				{ID: "call_abc", Type: "function", Name: "get_weather", Arguments: `{"city": "Paris"}`},
				{ID: "call_def", Type: "function", Name: "get_time", Arguments: `{"tz":`},
			}}}},
			Usage: toolgrade.Usage{PromptTokens: 82, CompletionTokens: 17, Requests: 1},
		}, ""},
		{"refusal", replyRefusal, &Completion{
			Choices: []Choice{{FinishReason: "stop", Message: Reply{Role: "assistant", Refusal: "I'm sorry, I can't help with that."}}},
			Usage:   toolgrade.Usage{PromptTokens: 40, CompletionTokens: 9, Requests: 1},
		}, ""},
		{"vLLM", replyVLLM, &Completion{
			Choices: []Choice{{FinishReason: "tool_calls", Message: Reply{Role: "assistant", ToolCalls: []ToolCall{
				{ID: "chatcmpl-tool-1", Type: "function", Name: "get_weather", Arguments: `{"city": "Oslo"}`},
			}}}},
			Usage: toolgrade.Usage{PromptTokens: 310, CompletionTokens: 32, Requests: 1},
		}, ""},
		{"Ollama, two choices", replyOllama, &Completion{
			Choices: []Choice{
				{FinishReason: "stop", Message: Reply{Role: "assistant", Content: `{"score": 0.5, "reason": "partly"}`}},
				{FinishReason: "length", Message: Reply{Role: "assistant", Content: "second"}},
			},
			Usage: toolgrade.Usage{PromptTokens: 120, CompletionTokens: 14, Requests: 1},
		}, ""},
		{"custom tool", replyCustomTool, &Completion{
			Choices: []Choice{{FinishReason: "tool_calls", Message: Reply{Role: "assistant", ToolCalls: []ToolCall{
				{ID: "call_x", Type: "custom", Name: "code_exec", Arguments: "print(1)"},
			}}}},
			Usage: toolgrade.Usage{PromptTokens: 5, CompletionTokens: 3, Requests: 1},
		}, ""},
		// Usage is informative: odd usage still reads.
		{"usage null", `{"choices": [], "usage": null}`, &Completion{Choices: []Choice{}, Usage: toolgrade.Usage{Requests: 1}}, ""},
		{"usage as strings", `{"choices": [], "usage": {"prompt_tokens": "12", "completion_tokens": 3}}`,
			&Completion{Choices: []Choice{}, Usage: toolgrade.Usage{CompletionTokens: 3, Requests: 1}}, ""},
		{"usage huge", `{"choices": [], "usage": {"prompt_tokens": 1e300, "completion_tokens": 2.9}}`,
			&Completion{Choices: []Choice{}, Usage: toolgrade.Usage{PromptTokens: 1<<63 - 1, CompletionTokens: 2, Requests: 1}}, ""},
		// No choices is for the caller to judge (the judge: "no choices").
		{"no choices key", `{"id": "x"}`, &Completion{Choices: []Choice{}, Usage: toolgrade.Usage{Requests: 1}}, ""},
		{"null", `null`, &Completion{Choices: []Choice{}, Usage: toolgrade.Usage{Requests: 1}}, ""},
		{"not JSON", `{"id": "chatcmpl-1", "choices": [`, nil, "unexpected end of JSON input"},
		{"trailing data", `{"choices": []} {}`, nil, "after top-level value"},
		{"a list", `[]`, nil, "cannot unmarshal array"},
		{"choices mistyped", `{"choices": "oops"}`, nil, "cannot unmarshal string"},
		{"content parts", `{"choices": [{"message": {"content": [{"type": "text", "text": "hi"}]}}]}`, nil, "cannot unmarshal array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeCompletion([]byte(tt.reply))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %+v, %v; want error %q", got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The decoded reply reaches the caller of Complete, and a cached one
// decodes the same, with the usage of a cached request.
func TestCompleteDecodes(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Body: replyToolCalls} }
	c := rawClient(t, srv, Options{Cache: newCache(t)})
	req := ChatRequest{Tag: "test", Model: "gpt-4o", Messages: []Message{{Role: "user", Content: "Weather and time in Paris?"}}}
	got, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := decodeCompletion([]byte(replyToolCalls))
	want.Key = got.Key
	if diff := cmp.Diff(want, got); diff != "" || got.Key == "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	again, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want.Cached, want.Usage = true, toolgrade.Usage{CachedRequests: 1}
	if diff := cmp.Diff(want, again); diff != "" {
		t.Errorf("cached (-want +got):\n%s", diff)
	}
}

// A refusal is the judge's error, and the refused reply is not kept.
func TestJudgeRefusal(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Body: replyRefusal} }
	j, _ := newJudge(t, srv, Options{Cache: newCache(t)}, JudgeOptions{})
	v, err := j.Judge(context.Background(), prompt)
	if err == nil || err.Error() != "judge refused: I'm sorry, I can't help with that." {
		t.Fatalf("err = %v", err)
	}
	if v.Usage != (toolgrade.Usage{PromptTokens: 40, CompletionTokens: 9, Requests: 1}) {
		t.Errorf("usage %+v", v.Usage)
	}
	if key, _ := j.Client().Key(j.Request(prompt)); cacheHas(j.Client(), key) {
		t.Error("the refusal was cached")
	}
}

// Error replies in the shapes servers send, with their codes.
func TestHTTPErrorCodes(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   HTTPError
	}{
		{"OpenAI bad key", 401,
			`{"error": {"message": "Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.", "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}}`,
			HTTPError{Status: 401, Code: "invalid_api_key", Message: "HTTP 401 Unauthorized: Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys."}},
		{"OpenAI context length", 400,
			`{"error": {"message": "This model's maximum context length is 128000 tokens.", "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}`,
			HTTPError{Status: 400, Code: "context_length_exceeded", Message: "HTTP 400 Bad Request: This model's maximum context length is 128000 tokens."}},
		{"OpenAI quota", 429,
			`{"error": {"message": "You exceeded your current quota.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}`,
			HTTPError{Status: 429, Code: "insufficient_quota", Message: "HTTP 429 Too Many Requests: You exceeded your current quota."}},
		{"Azure", 404,
			`{"error": {"code": "DeploymentNotFound", "message": "The API deployment for this resource does not exist."}}`,
			HTTPError{Status: 404, Code: "DeploymentNotFound", Message: "HTTP 404 Not Found: The API deployment for this resource does not exist."}},
		{"vLLM, a number", 404,
			`{"object": "error", "message": "The model gpt-test does not exist.", "type": "NotFoundError", "param": null, "code": 404}`,
			HTTPError{Status: 404, Code: "404", Message: "HTTP 404 Not Found: The model gpt-test does not exist."}},
		{"null code", 400, `{"error": {"message": "bad", "code": null}}`,
			HTTPError{Status: 400, Message: "HTTP 400 Bad Request: bad"}},
		{"no JSON", 403, `<html>Forbidden</html>`,
			HTTPError{Status: 403, Message: "HTTP 403 Forbidden: <html>Forbidden</html>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
				return openaitest.Reply{Status: tt.status, Body: tt.body}
			}
			c := rawClient(t, srv, Options{MaxRetries: new(0)})
			_, err := c.Complete(context.Background(), ChatRequest{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}})
			var he *HTTPError
			if !errors.As(err, &he) {
				t.Fatalf("err = %v, want an HTTPError", err)
			}
			if diff := cmp.Diff(tt.want, *he); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzDecodeCompletion(f *testing.F) {
	for _, s := range []string{replyToolCalls, replyRefusal, replyVLLM, replyOllama, replyCustomTool,
		`{"choices": [], "usage": {"prompt_tokens": "1"}}`, `null`, `{"choices": [null]}`, `[]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		comp, err := decodeCompletion(data)
		if err != nil {
			return
		}
		// What decodes is valid JSON, with the choices it says.
		var v struct{ Choices []json.RawMessage }
		if json.Unmarshal(data, &v) != nil || len(v.Choices) != len(comp.Choices) {
			t.Fatalf("decoded %d choices from %q", len(comp.Choices), data)
		}
		// Its usage is what CompleteJSON reads from the same reply.
		if u, err := rawUsage(data); err == nil {
			u.Requests = 1
			if u != comp.Usage {
				t.Fatalf("usage %+v, CompleteJSON reads %+v", comp.Usage, u)
			}
		}
	})
}
