package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(spansFormat("vercel_ai_otel"))
}

// The Vercel AI SDK's telemetry (experimental_telemetry, the spans of
// versions 3 to 6 and of the legacy recorder after them) records each
// generateText or streamText call as an outer span (ai.generateText,
// ai.streamText: ai.prompt, the caller's prompt as JSON, and
// ai.response.toolCalls, the last step's calls), one span per step, that
// is per model call (ai.generateText.doGenerate, ai.streamText.doStream:
// ai.prompt.messages, the whole prompt sent, and ai.response.toolCalls,
// the step's calls), and one ai.toolCall span per tool the SDK ran
// (ai.toolCall.name, .id, .args and .result as JSON text; a failed tool
// has status ERROR and an exception event instead of a result). Spans come
// in the containers readSpans takes: an OTLP export, a list of spans, a
// span's attributes.
//
// So one call is shown up to four times: in its step's
// ai.response.toolCalls, in the outer span's when its step was the last,
// in its ai.toolCall span, and as a tool-call part of the next steps'
// prompts (with its result as a tool-result part). Each is read, and the
// call listed once (by id and name) where it first appears; the outer
// span's calls are read after the spans of its run, since it starts
// before them. A trace that keeps only some of the views (a step's spans
// exported alone) still gives every call it shows.
//
// Prompt parts, of the SDK's versions: tool-call {toolCallId, toolName,
// args (v4) or input (v5 on)}; tool-result {toolCallId, toolName, result
// and isError (v4), or output {type: text, json, content, error-text,
// error-json, execution-denied; value}}, the error types and a denial
// being failures; a tool-call with providerExecuted is a provider's
// built-in tool, typed by its name. A user message opens a turn the first
// time its place in the conversation is shown.

// isVercelSpan says whether a span's attributes hold the AI SDK's.
func isVercelSpan(attrs jsonvalue.Object) bool {
	for _, m := range attrs {
		if isVercelKey(m.Key) {
			return true
		}
	}
	return false
}

// isVercelKey reports an attribute only the AI SDK's recorder writes.
func isVercelKey(k string) bool {
	return k == "ai.operationId" || k == "ai.prompt.messages" || k == "ai.response.toolCalls" ||
		strings.HasPrefix(k, "ai.toolCall.")
}

// A vercelRun reads the AI SDK's spans of one trace in start order,
// holding an outer span's calls back until its run is over.
type vercelRun struct {
	later []vercelCalls
}

type vercelCalls struct {
	calls any
	path  string
}

// span reads the AI SDK's attributes of one span, and its events.
func (r *vercelRun) span(b *builder, s span) error {
	attrs, path := s.attrs, join(s.path, "attributes")
	b.saw()
	op := str(attrs, "ai.operationId")
	outer := attrs.Has("ai.prompt") || strings.Count(op, ".") == 1 && op != "ai.toolCall"
	if outer {
		// A new run: the one before is over.
		if err := r.flush(b); err != nil {
			return err
		}
	}
	if v, ok := attrs.Get("ai.prompt"); ok {
		if err := vercelPrompt(b, v, join(path, "ai.prompt")); err != nil {
			return err
		}
	}
	if v, ok := attrs.Get("ai.prompt.messages"); ok {
		p := join(path, "ai.prompt.messages")
		msgs, err := jsonAttr(b, v, p)
		if err != nil {
			return err
		}
		if err := vercelMessages(b, msgs, p); err != nil {
			return err
		}
	}
	if v, ok := attrs.Get("ai.prompt.tools"); ok {
		b.notCall(v, "tool definitions")
	}
	if v, ok := attrs.Get("ai.response.object"); ok {
		b.notCall(v, "the object the model generated (generateObject), no call")
	}
	if v, ok := attrs.Get("ai.response.toolCalls"); ok {
		p := join(path, "ai.response.toolCalls")
		calls, err := jsonAttr(b, v, p)
		if err != nil {
			return err
		}
		if outer {
			r.later = append(r.later, vercelCalls{calls, p})
		} else if err := vercelToolCalls(b, calls, p); err != nil {
			return err
		}
	} else if !outer && str(attrs, "ai.response.finishReason") == "tool-calls" {
		b.skip(nil, s.path, "step whose model stopped to call tools records no tool calls (are the SDK's recordOutputs off?)")
	}
	failure, err := vercelEvents(b, s)
	if err != nil {
		return err
	}
	if n, ok := attrs.Get("ai.toolCall.name"); ok {
		tool, _ := n.(string)
		if tool == "" {
			b.skip(nil, s.path, "ai.toolCall span without a tool name")
			return nil
		}
		a, hasArgs := attrs.Get("ai.toolCall.args")
		out, hasOut := attrs.Get("ai.toolCall.result")
		b.read(out)
		out = vercelJSON(b, out) // JSON.stringify of the tool's result
		if s.failed {
			if m := str(get(s.src, "status"), "message"); m != "" {
				failure = m
			}
			out, hasOut = failure, true
		}
		toolSpan(b, nil, tool, id(get(attrs, "ai.toolCall.id")), a, hasArgs, out, hasOut, s.failed)
	}
	return nil
}

// vercelEvents reads a span's events: the SDK's own (ai.stream.*) hold
// no calls, an exception event says why the span failed; others are read
// as GenAI events.
func vercelEvents(b *builder, s span) (failure any, err error) {
	var rest []any
	var paths []string
	for i, e := range s.events {
		name := str(e, "name")
		switch {
		case strings.HasPrefix(name, "ai."):
			b.saw()
		case name == "exception":
			b.read(e)
			if m, ok := spanOf(asObject(e), "").attrs.Get("exception.message"); ok {
				failure = m
			}
		default:
			rest = append(rest, e)
			paths = append(paths, index(join(s.path, "events"), i))
		}
	}
	if len(rest) > 0 {
		err = genAIEvents(b, rest, paths)
	}
	return failure, err
}

// flush reads the outer spans' calls held back.
func (r *vercelRun) flush(b *builder) error {
	for _, c := range r.later {
		if err := vercelToolCalls(b, c.calls, c.path); err != nil {
			return err
		}
	}
	r.later = r.later[:0]
	return nil
}

// vercelPrompt reads an outer span's ai.prompt: the caller's {"system",
// "prompt", "messages"}, prompt a text (the user's message) or messages.
func vercelPrompt(b *builder, v any, path string) error {
	p, err := jsonAttr(b, v, path)
	if err != nil {
		return err
	}
	switch x := get(p, "prompt").(type) {
	case string:
		b.userMessage(1, x)
	case []any:
		return vercelMessages(b, x, join(path, "prompt"))
	}
	if msgs, ok := get(p, "messages").([]any); ok {
		return vercelMessages(b, msgs, join(path, "messages"))
	}
	return nil
}

// vercelToolCalls reads an ai.response.toolCalls list: {toolCallId,
// toolName, args (v4, JSON text) or input (JSON text in v5, a value
// after)}.
func vercelToolCalls(b *builder, v any, path string) error {
	l, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil
		}
		return fieldError(path, "want a list of tool calls, got %s", jsonvalue.Kind(v))
	}
	for i, tc := range l {
		if err := vercelCall(b, tc, index(path, i)); err != nil {
			return err
		}
	}
	return nil
}

// vercelCall reads one tool call: a response's, or a prompt's tool-call
// part.
func vercelCall(b *builder, tc any, path string) error {
	n, err := name(tc, "toolName", path)
	if err != nil {
		return err
	}
	c := toolgrade.Call{Name: n, ID: id(get(tc, "toolCallId"))}
	args(&c, tc, "input", "args")
	if get(tc, "providerExecuted") == true {
		c.Type = n // a provider's built-in tool
	}
	b.add(tc, c)
	return nil
}

// vercelMessages reads the messages of a prompt, in the AI SDK's shapes
// (LanguageModel prompts and ModelMessages alike): system, user,
// assistant and tool messages, their content a text or a list of parts.
func vercelMessages(b *builder, v any, path string) error {
	msgs, ok := v.([]any)
	if !ok {
		return fieldError(path, "want a list of messages, got %s", jsonvalue.Kind(v))
	}
	users := 0
	for i, m := range msgs {
		if err := vercelMessage(b, m, index(path, i), &users); err != nil {
			return err
		}
	}
	return nil
}

// vercelMessage reads one message at path; users counts the user
// messages of its list.
func vercelMessage(b *builder, m any, path string, users *int) error {
	role := str(m, "role")
	content := get(m, "content")
	switch role {
	case "system":
		b.saw()
		return nil
	case "user":
		*users++
		b.userMessage(*users, content)
	case "assistant", "tool":
	default:
		b.skip(m, path, "message with role %q", role)
		return nil
	}
	b.saw()
	parts, _ := content.([]any)
	for j, part := range parts {
		if err := vercelPart(b, part, index(join(path, "content"), j)); err != nil {
			return err
		}
	}
	return nil
}

// vercelPart reads one part of a message's content.
func vercelPart(b *builder, part any, path string) error {
	switch t := str(part, "type"); t {
	case "tool-call":
		return vercelCall(b, part, path)
	case "tool-result":
		out, fail := vercelOutput(part)
		b.link(path, id(get(part, "toolCallId")), str(part, "toolName"), out, fail)
	case "text", "reasoning", "redacted-reasoning", "reasoning-file", "image", "file", "custom",
		"tool-approval-request", "tool-approval-response":
		// No call: text, media, and the approval of a call read by its id.
	default:
		b.skip(part, path, "content part of type %q", t)
	}
	return nil
}

// vercelOutput reads a tool-result part's result and whether it failed:
// v4's result (isError marks a failure), or v5's output {type, value}.
func vercelOutput(part any) (any, bool) {
	out, ok := get(part, "output").(jsonvalue.Object)
	if !ok {
		return get(part, "result"), get(part, "isError") == true
	}
	switch str(out, "type") {
	case "text", "json", "content":
		return get(out, "value"), false
	case "error-text", "error-json":
		return get(out, "value"), true
	case "execution-denied":
		return out, true
	}
	return out, false
}

// Langfuse keeps an AI SDK span's attributes in the observation's
// metadata, and the ones that hold messages and calls as its input and
// output: ai.prompt or ai.prompt.messages, ai.response.toolCalls (or the
// response's text, or its object), ai.toolCall.args and .result.

// vercelAttributes returns the span attributes a Langfuse observation
// keeps in metadata.attributes (an object, or JSON text) when they are
// the AI SDK's; nil otherwise.
func vercelAttributes(b *builder, o jsonvalue.Object) jsonvalue.Object {
	md := get(o, "metadata")
	if text, ok := md.(string); ok && strings.Contains(text, "ai.") {
		md, _ = b.parse(text)
	}
	attrs := obj(md, "attributes")
	if !isVercelSpan(attrs) {
		return nil
	}
	return attrs
}

// observation reads a Langfuse GENERATION made from an AI SDK span: an
// outer span's (input ai.prompt, output its last step's calls, read when
// its run is over) or a step's (input the prompt's messages, output its
// calls).
func (r *vercelRun) observation(b *builder, o jsonvalue.Object, attrs jsonvalue.Object, path string) error {
	b.views = true // every step's input repeats the conversation
	op := str(attrs, "ai.operationId")
	outer := strings.Count(op, ".") == 1
	if outer {
		if err := r.flush(b); err != nil {
			return err
		}
	}
	switch in := vercelJSON(b, get(o, "input")).(type) {
	case []any:
		if err := vercelMessages(b, in, join(path, "input")); err != nil {
			return err
		}
	case jsonvalue.Object:
		if err := vercelPrompt(b, in, join(path, "input")); err != nil {
			return err
		}
	}
	out, ok := vercelJSON(b, get(o, "output")).([]any)
	if !ok || len(out) == 0 || !has(out[0], "toolName") {
		return nil // text, or a generated object
	}
	if outer {
		r.later = append(r.later, vercelCalls{out, join(path, "output")})
		return nil
	}
	return vercelToolCalls(b, out, join(path, "output"))
}

// vercelJSON is the value of the JSON text the AI SDK wrote, or v itself
// when it is no JSON text (a response's text, a value Langfuse parsed).
func vercelJSON(b *builder, v any) any {
	if text, ok := v.(string); ok {
		if x, err := b.parse(text); err == nil {
			return x
		}
	}
	return v
}
