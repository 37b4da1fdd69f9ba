package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/toolgrade/toolgrade"
)

// A RawCompletion is the reply to a request body sent with
// [Client.CompleteJSON].
type RawCompletion struct {
	// Body is the reply as the endpoint sent it: a JSON object with a
	// "choices" list.
	Body []byte
	// Usage counts what the request spent: the tokens the reply reports
	// and one request, or, for a reply from the cache, one cached request
	// and no tokens.
	Usage toolgrade.Usage
	// Key is the request's cache key.
	Key string
	// Cached reports that the reply came from the cache.
	Cached bool
}

// CompleteJSON sends a Chat Completions request body that the caller
// built (messages with multimodal parts, tools, tool_choice, seed, ...:
// whatever the endpoint takes), within the same concurrency and rate
// limits, retries, timeout and cache as [Client.Complete], and returns the
// reply as the endpoint sent it. It is for requests that [ChatRequest]
// cannot say, such as toolgrade run's.
//
// tag names what the request is for, as [ChatRequest.Tag] does; the cache
// key hashes the base URL, the tag and the body's bytes as given. The body
// must be a JSON object; its max_tokens or max_completion_tokens, if any,
// count toward the token rate limit. A reply that is not a JSON object with
// a "choices" list is retried like a broken connection, and is an error
// once the retries are spent; it is never cached.
func (c *Client) CompleteJSON(ctx context.Context, tag string, body []byte) (*RawCompletion, error) {
	var head struct {
		MaxTokens           int64 `json:"max_tokens"`
		MaxCompletionTokens int64 `json:"max_completion_tokens"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, fmt.Errorf("request body: want a JSON object: %w", err)
	}
	key := CacheKey("chat/v1", c.base, tag, string(body))
	if data, ok := c.load(key); ok {
		if _, err := rawUsage(data); err == nil {
			return &RawCompletion{Body: data, Usage: toolgrade.Usage{CachedRequests: 1}, Key: key, Cached: true}, nil
		}
		c.forget(key) // a damaged entry is asked again
	}
	tokens := len(body)/4 + 1 + int(max(head.MaxTokens, 0)+max(head.MaxCompletionTokens, 0))
	var reply []byte
	var usage toolgrade.Usage
	err := c.retry(ctx, tokens, func(ctx context.Context) (*httpSnapshot, error) {
		snap, raw, err := c.send(ctx, http.MethodPost, "chat/completions", "application/json", body, c.opts.MaxReplyBytes)
		if err == nil {
			usage, err = rawUsage(raw)
		}
		reply = raw
		return snap, err
	})
	if err != nil {
		return nil, err
	}
	usage.Requests = 1
	c.store(key, reply)
	return &RawCompletion{Body: reply, Usage: usage, Key: key}, nil
}

// rawUsage checks that a reply is a chat completion, a JSON object with a
// "choices" list, and reads the tokens its usage reports.
func rawUsage(reply []byte) (toolgrade.Usage, error) {
	var v struct {
		Choices *[]json.RawMessage `json:"choices"`
		Usage   json.RawMessage    `json:"usage"`
	}
	if err := json.Unmarshal(reply, &v); err != nil {
		return toolgrade.Usage{}, fmt.Errorf("reading the reply: %w", err)
	}
	if v.Choices == nil {
		return toolgrade.Usage{}, errors.New(`the reply has no "choices" list`)
	}
	return replyUsage(v.Usage), nil
}
