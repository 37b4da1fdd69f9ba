package openai

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/toolgrade/toolgrade/judge"
)

// JudgeOptions configure a [Judge].
type JudgeOptions struct {
	// Model names the model (required): "gpt-4.1-mini", an Azure
	// deployment, "llama3.1:8b" on Ollama, ...
	Model string
	// Temperature is sent with every request; nil sends 0, for the most
	// repeatable grading. Models that accept only their default (some
	// reasoning models) need 1.
	Temperature *float64
	// MaxTokens bounds each reply (sent as max_tokens); 0 sends no bound.
	MaxTokens int
	// PlainOutput sends no response_format, for endpoints that mishandle
	// structured output without rejecting it. (An endpoint that rejects it
	// is detected: see [Client.Complete].) Replies are then read
	// tolerantly, see [judge.ParseVerdict].
	PlainOutput bool
}

// A Judge asks a chat model for verdicts: judge.Judge over a [Client].
// Each prompt is one request with the prompt's system and user messages;
// with structured output the reply must match the JSON schema of
// {"score": number, "reason": string}.
type Judge struct {
	client *Client
	opts   JudgeOptions
}

// NewJudge returns a judge that sends its prompts through c.
func NewJudge(c *Client, o JudgeOptions) (*Judge, error) {
	if c == nil {
		return nil, errors.New("judge: no client")
	}
	if o.Model == "" {
		return nil, errors.New("judge: no model given")
	}
	if o.MaxTokens < 0 {
		return nil, errors.New("judge: max tokens: want a positive number (0: no bound)")
	}
	return &Judge{client: c, opts: o}, nil
}

// Client returns the judge's client.
func (j *Judge) Client() *Client { return j.client }

// Concurrency returns how many requests the judge has in flight at most:
// its client's bound, which metrics asking several prompts about one case
// fill (see judge.Judge).
func (j *Judge) Concurrency() int { return j.client.opts.Concurrency }

// verdictSchema is the structured-output schema of a verdict. It is fixed
// JSON text so that request bodies, and so cache keys, are stable.
var verdictSchema = json.RawMessage(`{"type":"object","properties":{"score":{"type":"number"},"reason":{"type":"string"}},"required":["score","reason"],"additionalProperties":false}`)

// Request returns the chat request for a judge prompt.
func (j *Judge) Request(r judge.Request) ChatRequest {
	temp := 0.0
	if j.opts.Temperature != nil {
		temp = *j.opts.Temperature
	}
	tag := r.PromptVersion
	if tag == "" {
		tag = r.Task
	}
	req := ChatRequest{
		Tag:         "judge/" + tag,
		Model:       j.opts.Model,
		Messages:    []Message{{Role: "system", Content: r.System}, {Role: "user", Content: r.User}},
		Temperature: &temp,
		MaxTokens:   j.opts.MaxTokens,
	}
	if !j.opts.PlainOutput {
		req.ResponseFormat = &JSONSchema{Name: "verdict", Strict: true, Schema: verdictSchema}
	}
	return req
}

// Judge asks the model. An unusable reply (no text, a refusal, no JSON
// verdict in it) is an error and is dropped from the cache, so that a
// re-run asks again.
func (j *Judge) Judge(ctx context.Context, r judge.Request) (judge.Verdict, error) {
	req := j.Request(r)
	comp, err := j.client.Complete(ctx, req)
	if err != nil {
		return judge.Verdict{}, err
	}
	v, err := verdictOf(comp)
	if err != nil {
		j.client.Forget(req)
		return judge.Verdict{Usage: comp.Usage}, err
	}
	v.Usage = comp.Usage
	return v, nil
}

func verdictOf(comp *Completion) (judge.Verdict, error) {
	if len(comp.Choices) == 0 {
		return judge.Verdict{}, errors.New("judge reply has no choices")
	}
	msg := comp.Choices[0].Message
	if msg.Content == "" && msg.Refusal != "" {
		return judge.Verdict{}, errors.New("judge refused: " + shorten(msg.Refusal, 300))
	}
	return judge.ParseVerdict(msg.Content)
}

// A Planner is a judge.Judge that sends nothing: it collects the requests
// a [Judge] would send and that the cache cannot answer, for
// [Client.Batch]. It answers each prompt with a stand-in verdict (score 1)
// so that metrics go on asking; grades made with it mean nothing.
type Planner struct {
	judge *Judge
	mu    sync.Mutex
	seen  map[string]bool
	reqs  []ChatRequest
}

// Planner returns a new planner for j.
func (j *Judge) Planner() *Planner {
	return &Planner{judge: j, seen: map[string]bool{}}
}

// Judge records the request for r unless the cache answers it.
func (p *Planner) Judge(_ context.Context, r judge.Request) (judge.Verdict, error) {
	req := p.judge.Request(r)
	key, err := p.judge.client.Key(req)
	if err != nil {
		return judge.Verdict{}, err
	}
	if _, ok := p.judge.client.cached(key); ok {
		return judge.Verdict{Score: 1}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen[key] {
		p.seen[key] = true
		p.reqs = append(p.reqs, req)
	}
	return judge.Verdict{Score: 1}, nil
}

// Concurrency returns 1: a planner answers at once, so that a case's
// prompts are asked one after another, and its requests collected in the
// order a case asks them.
func (p *Planner) Concurrency() int { return 1 }

// Requests returns the requests collected, in the order first asked.
func (p *Planner) Requests() []ChatRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]ChatRequest(nil), p.reqs...)
}
