package trace

import (
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "vercel_ai_steps",
		keys: []string{"steps", "finishReason", "role", "type"},
		read: readVercelSteps,
		trace: func(o jsonvalue.Object) level {
			return when(isVercelResult(o) || isVercelStep(o), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(isVercelStep(o) || isModelMessage(o) || isUIMessage(o) || isStreamPart(o), decisive)
		}),
	})
}

// isVercelResult reports a generateText or streamText result (or the
// onFinish event): its steps.
func isVercelResult(o jsonvalue.Object) bool {
	steps, ok := get(o, "steps").([]any)
	return ok && len(steps) > 0 && isVercelStep(asObject(steps[0]))
}

// isVercelStep reports a step result (or an onStepFinish event): a
// finish reason beside its content parts (v5 on), or its tool calls or
// one of v4's step types (a Mastra model_generation step has a finish
// reason and a stepType of its own).
func isVercelStep(o jsonvalue.Object) bool {
	if !o.Has("finishReason") {
		return false
	}
	_, parts := get(o, "content").([]any)
	switch str(o, "stepType") {
	case "initial", "continue", "tool-result":
		return true
	}
	return parts || o.Has("toolCalls")
}

// isModelMessage reports a message of the AI SDK: its content holds a
// tool call or result part with the SDK's ids, or a part of a type only
// the SDK writes in a message's content.
func isModelMessage(o jsonvalue.Object) bool {
	if !o.Has("role") {
		return false
	}
	for _, p := range list(o, "content") {
		switch str(p, "type") {
		case "tool-call", "tool-result", "tool-error":
			if has(p, "toolCallId") {
				return true
			}
		case "reasoning", "reasoning-file", "tool-approval-request", "tool-approval-response":
			return true
		}
	}
	return false
}

// isUIMessage reports a UIMessage (useChat's messages, as apps store
// them): {"id", "role", "parts"}, its parts typed; GenAI messages, which
// have parts too, have no id.
func isUIMessage(o jsonvalue.Object) bool {
	parts := list(o, "parts")
	return o.Has("id") && o.Has("role") && len(parts) > 0 && has(parts[0], "type")
}

// streamOnly are the stream part types only the AI SDK's streams write
// (fullStream, the UI message stream, v4's data stream parts).
var streamOnly = map[string]bool{"start-step": true, "finish-step": true, "step-start": true, "step-finish": true,
	"tool-input-start": true, "tool-input-delta": true, "tool-input-end": true, "tool-input-available": true,
	"tool-input-error": true, "tool-output-available": true, "tool-output-error": true, "tool-output-denied": true,
	"tool-call-streaming-start": true}

// isStreamPart reports a part of streamText's fullStream or of its UI
// message stream.
func isStreamPart(o jsonvalue.Object) bool {
	if o.Has("role") {
		return false
	}
	t := str(o, "type")
	return streamOnly[t] && (o.Has("toolCallId") || !strings.HasPrefix(t, "tool-")) ||
		(t == "tool-call" || t == "tool-result" || t == "tool-call-delta") && o.Has("toolCallId")
}

// readVercelSteps reads what the Vercel AI SDK's generateText and
// streamText return, serialized: a result (JSON.stringify(result), or the
// onFinish event) {"steps": [...], ...}, its steps alone (a list, or one
// step as onStepFinish gives it), or its response messages (a list of
// ModelMessages: result.response.messages, result.responseMessages).
//
// A step is one model call. Since v5 its content holds the parts the
// model returned and the SDK made: tool-call {toolCallId, toolName,
// input, providerExecuted, invalid}, tool-result {toolCallId, toolName,
// input, output} (output the tool's value; a preliminary one, streamed
// before the last, is not the result), tool-error {..., error}, a failed
// result, and (v6) tool-approval-request {approvalId, toolCall}, a call
// waiting for approval, without a result. v4 steps hold toolCalls
// [{toolCallId, toolName, args}] and toolResults [{..., result}] instead;
// v5 events hold both. A step's response.messages (and a result's
// responseMessages and initialResponseMessages) are the ModelMessages
// sent on, read as a prompt's (see vercel_ai_otel), as are the
// request.messages a step may keep: they repeat the calls, and their
// user messages open turns. The provider's own request and response
// bodies (request.body, response.body) hold the same calls again, in the
// provider's shape, and the tool definitions: they are read as the views
// they are.
//
// The SDK's UI keeps and streams calls too: UIMessages (see uiMessages)
// and the parts of fullStream and of the UI message stream (see
// streamParts) are read by this format.
//
// Each call is listed once, where it first appears, in step order.
// JSON.stringify keeps only a result's own fields: since v5 that is
// steps, so a result's top-level toolCalls, toolResults, content and
// finalStep (getters) are present only in event payloads, where they
// repeat the steps.
func readVercelSteps(b *builder, v any) error {
	b.unique = true
	b.views = true
	switch v := v.(type) {
	case jsonvalue.Object:
		switch {
		case isVercelResult(v):
			b.saw()
			for i, s := range list(v, "steps") {
				if err := vercelStep(b, s, index("steps", i)); err != nil {
					return err
				}
			}
			for _, key := range []string{"initialResponseMessages", "responseMessages"} {
				if msgs, ok := get(v, key).([]any); ok {
					if err := vercelMessages(b, msgs, key); err != nil {
						return err
					}
				}
			}
			if last, ok := v.Get("finalStep"); ok {
				if err := vercelStep(b, last, "finalStep"); err != nil {
					return err
				}
			}
			for _, key := range []string{"_output", "output", "experimental_output"} {
				if x, ok := v.Get(key); ok {
					b.notCall(x, "the structured output the model generated, no call")
				}
			}
			return vercelStep(b, v, "") // the last step again, in an event
		case isVercelStep(v):
			return vercelStep(b, v, "")
		case isModelMessage(v):
			users := 0
			return vercelMessage(b, v, "", &users)
		case isUIMessage(v):
			return uiMessages(b, []any{v}, "")
		}
	case []any:
		if len(v) == 0 {
			break
		}
		switch {
		case isVercelStep(asObject(v[0])):
			for i, s := range v {
				if err := vercelStep(b, s, index("", i)); err != nil {
					return err
				}
			}
			return nil
		case slices.ContainsFunc(v, func(e any) bool { return isUIMessage(asObject(e)) }):
			return uiMessages(b, v, "")
		case slices.ContainsFunc(v, func(e any) bool { return isStreamPart(asObject(e)) }):
			return streamParts(b, v, "")
		}
		return vercelMessages(b, v, "")
	}
	return wantError(`an AI SDK result {"steps": [...]}, its steps, or its response messages`, v)
}

// vercelStep reads one step: its request's messages, its content (or v4
// tool calls and results), its response's messages.
func vercelStep(b *builder, step any, path string) error {
	o, ok := step.(jsonvalue.Object)
	if !ok {
		return fieldError(path, "want a step object, got %s", jsonvalue.Kind(step))
	}
	b.saw()
	req, resp := obj(o, "request"), obj(o, "response")
	b.read(get(req, "body")) // the provider's request: the prompt again, and tool definitions
	b.read(get(resp, "body"))
	if msgs, ok := get(req, "messages").([]any); ok {
		if err := vercelMessages(b, msgs, join(path, "request.messages")); err != nil {
			return err
		}
	}
	for j, part := range list(o, "content") {
		if err := vercelContent(b, part, index(join(path, "content"), j)); err != nil {
			return err
		}
	}
	for _, key := range []string{"toolCalls", "staticToolCalls", "dynamicToolCalls"} {
		for j, tc := range list(o, key) {
			if err := vercelCall(b, tc, index(join(path, key), j)); err != nil {
				return err
			}
		}
	}
	for _, key := range []string{"toolResults", "staticToolResults", "dynamicToolResults"} {
		for j, tr := range list(o, key) {
			if err := vercelContent(b, tr, index(join(path, key), j)); err != nil {
				return err
			}
		}
	}
	if msgs, ok := get(resp, "messages").([]any); ok {
		return vercelMessages(b, msgs, join(path, "response.messages"))
	}
	return nil
}

// vercelContent reads one content part of a step, or a v4 tool result
// (type "tool-result", or none).
func vercelContent(b *builder, part any, path string) error {
	switch t := str(part, "type"); t {
	case "tool-call":
		return vercelCall(b, part, path)
	case "tool-result", "":
		if get(part, "preliminary") == true {
			b.read(part) // a streamed output, before the last
			return nil
		}
		out, ok := first(part, "output", "result")
		if !ok && t == "" {
			b.skip(part, path, "tool result without output or result")
			return nil
		}
		b.link(path, id(get(part, "toolCallId")), str(part, "toolName"), out, false)
	case "tool-error":
		b.link(path, id(get(part, "toolCallId")), str(part, "toolName"), get(part, "error"), true)
	case "tool-approval-request":
		tc, ok := get(part, "toolCall").(jsonvalue.Object)
		if !ok {
			b.saw() // a message's request names the call by its id
			return nil
		}
		return vercelCall(b, tc, join(path, "toolCall"))
	case "text", "reasoning", "reasoning-file", "source", "file", "custom", "tool-approval-response":
	default:
		b.skip(part, path, "content part of type %q", t)
	}
	return nil
}

// uiMessages reads UIMessages, the messages useChat keeps and apps store
// ({"id", "role", "parts"}). Since v5 a tool's part is {"type":
// "tool-<name>"} (or "dynamic-tool" with a toolName) {toolCallId, state,
// input, output, errorText}: its state says how far the call got
// (input-streaming, input-available, approval-requested,
// approval-responded: no result yet; output-available: the output;
// output-error: errorText, a failure; output-denied: a denial, a
// failure). v4's parts hold {"type": "tool-invocation", "toolInvocation":
// {state: partial-call, call or result, toolCallId, toolName, args,
// result}}, and its messages the same calls again in toolInvocations. User
// messages open turns.
func uiMessages(b *builder, msgs []any, path string) error {
	for i, m := range msgs {
		p := index(path, i)
		o, ok := m.(jsonvalue.Object)
		if !ok || !o.Has("role") {
			return wantError("a UIMessage at "+p, m)
		}
		b.saw()
		if str(o, "role") == "user" {
			b.userTurn(get(o, "parts"))
		}
		for j, part := range list(o, "parts") {
			if err := uiPart(b, part, index(join(p, "parts"), j)); err != nil {
				return err
			}
		}
		for j, inv := range list(o, "toolInvocations") {
			if err := uiInvocation(b, inv, index(join(p, "toolInvocations"), j)); err != nil {
				return err
			}
		}
	}
	return nil
}

// uiPart reads one part of a UIMessage.
func uiPart(b *builder, part any, path string) error {
	t := str(part, "type")
	switch {
	case t == "tool-invocation":
		return uiInvocation(b, get(part, "toolInvocation"), join(path, "toolInvocation"))
	case t == "dynamic-tool" || strings.HasPrefix(t, "tool-"):
		tool := strings.TrimPrefix(t, "tool-")
		if t == "dynamic-tool" {
			tool = str(part, "toolName")
		}
		c := toolgrade.Call{Name: tool, ID: id(get(part, "toolCallId"))}
		if x, ok := first(part, "input", "rawInput"); ok {
			c.Args = x // a value already, never text to decode
		}
		if get(part, "providerExecuted") == true {
			c.Type = tool
		}
		k := b.add(part, c)
		switch state := str(part, "state"); {
		case b.answered[k]: // shown again
		case state == "output-available" && get(part, "preliminary") != true:
			b.set(k, get(part, "output"))
		case state == "output-error":
			b.setFailed(k, get(part, "errorText"))
		case state == "output-denied":
			b.setFailed(k, get(part, "approval"))
		}
	case t == "text", t == "reasoning", t == "step-start", t == "source-url", t == "source-document", t == "file",
		t == "reasoning-file", t == "source", t == "custom", strings.HasPrefix(t, "data-"):
		// No call: text, media, step boundaries, the app's own data.
	default:
		b.skip(part, path, "part of type %q", t)
	}
	return nil
}

// uiInvocation reads a v4 tool invocation.
func uiInvocation(b *builder, inv any, path string) error {
	n, err := name(inv, "toolName", path)
	if err != nil {
		return err
	}
	c := toolgrade.Call{Name: n, ID: id(get(inv, "toolCallId"))}
	if a, ok := get(inv, "args").(jsonvalue.Object); ok {
		c.Args = a
	} else {
		args(&c, inv, "args")
	}
	k := b.add(inv, c)
	if out, ok := first(inv, "result"); ok && str(inv, "state") == "result" && !b.answered[k] {
		b.set(k, out)
	}
	return nil
}

// streamQuiet are the stream part types that hold no call: text,
// reasoning, sources, files, step and stream boundaries, the stream's
// errors, metadata (and the app's data-* parts).
var streamQuiet = map[string]bool{"text-start": true, "text-delta": true, "text-end": true,
	"reasoning-start": true, "reasoning-delta": true, "reasoning-end": true, "reasoning": true,
	"redacted-reasoning": true, "reasoning-signature": true, "reasoning-file": true, "source": true,
	"source-url": true, "source-document": true, "file": true, "custom": true, "start": true, "finish": true,
	"start-step": true, "finish-step": true, "reset-step": true, "step-start": true, "step-finish": true,
	"abort": true, "error": true, "raw": true, "message-metadata": true, "tool-approval-response": true}

// streamParts reads the parts of streamText's fullStream (tool-call,
// tool-result, tool-error, tool-output-denied, tool-approval-request; v4
// tool-call-streaming-start and tool-call-delta before its tool-call) or
// of its UI message stream (tool-input-available, tool-output-available,
// tool-input-error, tool-output-error, tool-output-denied), saved as a
// list, JSON Lines or an SSE body. Streamed input fragments come before
// the part that gives the whole input, and are read as its pieces.
func streamParts(b *builder, parts []any, path string) error {
	for i, part := range parts {
		p := index(path, i)
		o, ok := part.(jsonvalue.Object)
		if !ok {
			return wantError("a stream part at "+p, part)
		}
		b.saw()
		callID := id(get(o, "toolCallId"))
		switch t := str(o, "type"); t {
		case "tool-call", "tool-input-available":
			if err := vercelCall(b, o, p); err != nil {
				return err
			}
		case "tool-input-error":
			if err := vercelCall(b, o, p); err != nil {
				return err
			}
			b.link(p, callID, str(o, "toolName"), get(o, "errorText"), true)
		case "tool-result", "tool-output-available":
			if get(o, "preliminary") == true {
				b.read(o)
				continue
			}
			out, _ := first(o, "output", "result")
			b.link(p, callID, str(o, "toolName"), out, false)
		case "tool-error":
			b.link(p, callID, str(o, "toolName"), get(o, "error"), true)
		case "tool-output-error":
			b.link(p, callID, str(o, "toolName"), get(o, "errorText"), true)
		case "tool-output-denied":
			b.link(p, callID, str(o, "toolName"), o, true)
		case "tool-approval-request":
			if tc, ok := get(o, "toolCall").(jsonvalue.Object); ok {
				if err := vercelCall(b, tc, join(p, "toolCall")); err != nil {
					return err
				}
			}
		case "tool-input-start", "tool-input-delta", "tool-input-end", "tool-call-streaming-start", "tool-call-delta":
			b.read(o) // a piece of the call its tool-call part gives whole
		default:
			if !streamQuiet[t] && !strings.HasPrefix(t, "data-") {
				b.skip(o, p, "stream part of type %q", t)
			}
		}
	}
	return nil
}
