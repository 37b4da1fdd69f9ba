package openai

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/toolgrade/toolgrade"
)

// A ChatRequest is one chat completion request, with the fields of the
// Chat Completions API that the judge sends. A request with more (tools,
// tool_choice, seed, content parts, ...) is a body its caller builds and
// sends with [Client.CompleteJSON], as toolgrade run does.
type ChatRequest struct {
	// Tag names what the request is for and its version, such as a judge
	// prompt's version; it is part of the cache key, so that a changed
	// prompt never meets an old reply. It is not sent.
	Tag string
	// Model names the model: "gpt-4.1-mini", an Azure deployment,
	// "llama3.1:8b" on Ollama, ...
	Model string
	// Messages are sent in order.
	Messages []Message
	// Temperature is sent when not nil.
	Temperature *float64
	// MaxTokens bounds the reply, sent as max_tokens; 0 sends no bound.
	MaxTokens int
	// ResponseFormat, when not nil, asks for structured output: a reply
	// that matches a JSON Schema.
	ResponseFormat *JSONSchema
}

// A Message is a chat message of a request.
type Message struct {
	Role    string // "system", "user", "assistant", "developer"
	Content string
}

// A JSONSchema is a structured-output format, sent as response_format
// {"type": "json_schema", "json_schema": {"name", "strict", "schema"}}.
type JSONSchema struct {
	// Name names the format (letters, digits, "_" and "-").
	Name string
	// Strict asks the model to follow the schema exactly.
	Strict bool
	// Schema is the JSON Schema, sent as it is: keep it fixed text, since
	// its bytes are part of the cache key.
	Schema json.RawMessage
}

// A Completion is a chat completion reply, read from the wire: its
// choices and usage. Fields of the reply that toolgrade does not use (id,
// created, logprobs, ...) are not kept.
type Completion struct {
	Choices []Choice
	// Usage counts what the request spent: the tokens the reply reports
	// and one request, or, for a reply from the cache, one cached request
	// and no tokens (as [RawCompletion.Usage]).
	Usage toolgrade.Usage
	// Key is the request's cache key (also its custom_id in a batch).
	Key string
	// Cached reports that the reply came from the cache.
	Cached bool
}

// A Choice is one of a completion's answers.
type Choice struct {
	Message Reply
	// FinishReason says why the model stopped: "stop", "length",
	// "tool_calls", "content_filter", ...
	FinishReason string
}

// A Reply is the assistant's message in a [Choice].
type Reply struct {
	Role string
	// Content is the text; "" when the reply has none (null).
	Content string
	// Refusal is the model's refusal to answer, if it refused.
	Refusal   string
	ToolCalls []ToolCall
}

// A ToolCall is a call the model asks for.
type ToolCall struct {
	ID string
	// Type is "function", or "custom" for a custom tool (whose input is
	// then Arguments).
	Type string
	Name string
	// Arguments is the arguments' JSON text as the model wrote it; it
	// need not be valid JSON.
	Arguments string
}

// The request on the wire. Its fields are in the order the openai-go SDK
// wrote them, which toolgrade used until it spoke the protocol itself:
// the body's bytes are part of the cache key, and
// testdata/requests keeps them fixed.
type wireRequest struct {
	Messages       []wireMessage       `json:"messages"`
	Model          string              `json:"model"`
	MaxTokens      int                 `json:"max_tokens,omitempty"`
	Temperature    *float64            `json:"temperature,omitempty"`
	ResponseFormat *wireResponseFormat `json:"response_format,omitempty"`
}

type wireMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"`
}

type wireResponseFormat struct {
	JSONSchema struct {
		Name   string          `json:"name"`
		Strict bool            `json:"strict,omitempty"`
		Schema json.RawMessage `json:"schema,omitempty"`
	} `json:"json_schema"`
	Type string `json:"type"`
}

// body encodes the request, without its response format when plain.
func (r *ChatRequest) body(plain bool) ([]byte, error) {
	w := wireRequest{
		Messages:    make([]wireMessage, len(r.Messages)),
		Model:       r.Model,
		MaxTokens:   r.MaxTokens,
		Temperature: r.Temperature,
	}
	for i, m := range r.Messages {
		w.Messages[i] = wireMessage{Content: m.Content, Role: m.Role}
	}
	if f := r.ResponseFormat; f != nil && !plain {
		w.ResponseFormat = &wireResponseFormat{Type: "json_schema"}
		w.ResponseFormat.JSONSchema.Name = f.Name
		w.ResponseFormat.JSONSchema.Strict = f.Strict
		w.ResponseFormat.JSONSchema.Schema = f.Schema
	}
	body, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	return body, nil
}

// The reply on the wire: the fields toolgrade reads. Usage is read apart,
// tolerantly (see replyUsage).
type wireCompletion struct {
	Choices []struct {
		Message struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			Refusal   string `json:"refusal"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
				Custom struct {
					Name  string `json:"name"`
					Input string `json:"input"`
				} `json:"custom"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage json.RawMessage `json:"usage"`
}

// decodeCompletion reads a chat completion reply. A reply that is not
// JSON, or whose choices are mistyped, is an error; a reply without
// choices is not (the caller decides what none means); usage is read as
// [replyUsage] says.
func decodeCompletion(data []byte) (*Completion, error) {
	var w wireCompletion
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	comp := &Completion{Choices: make([]Choice, len(w.Choices)), Usage: replyUsage(w.Usage)}
	for i, c := range w.Choices {
		m := c.Message
		reply := Reply{Role: m.Role, Content: m.Content, Refusal: m.Refusal}
		for _, tc := range m.ToolCalls {
			call := ToolCall{ID: tc.ID, Type: tc.Type, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
			if tc.Type == "custom" {
				call.Name, call.Arguments = tc.Custom.Name, tc.Custom.Input
			}
			reply.ToolCalls = append(reply.ToolCalls, call)
		}
		comp.Choices[i] = Choice{Message: reply, FinishReason: c.FinishReason}
	}
	comp.Usage.Requests = 1
	return comp, nil
}

// replyUsage reads the tokens a reply's usage reports. Usage is
// informative: a server that reports it oddly (null, strings, fractions)
// still answered, so what does not read as numbers counts as 0.
func replyUsage(usage json.RawMessage) toolgrade.Usage {
	var u struct {
		PromptTokens     float64 `json:"prompt_tokens"`
		CompletionTokens float64 `json:"completion_tokens"`
	}
	json.Unmarshal(usage, &u)
	return toolgrade.Usage{PromptTokens: tokens(u.PromptTokens), CompletionTokens: tokens(u.CompletionTokens)}
}

// tokens converts a reported token count, which JSON gives as a number of
// any size, to an int64 without overflow.
func tokens(f float64) int64 {
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}
