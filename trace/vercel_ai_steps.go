package trace

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "vercel_ai_steps",
		keys: []string{"steps", "finishReason", "role"},
		read: readVercelSteps,
		trace: func(o jsonvalue.Object) level {
			return when(isVercelResult(o) || isVercelStep(o), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(isVercelStep(o) || isModelMessage(o), decisive)
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
// finish reason beside its content parts (v5 on) or its tool calls (v4).
func isVercelStep(o jsonvalue.Object) bool {
	if !o.Has("finishReason") {
		return false
	}
	_, parts := get(o, "content").([]any)
	return parts || o.Has("toolCalls") || o.Has("stepType")
}

// isModelMessage reports a message of the AI SDK: its content holds a
// tool call or result part with the SDK's ids.
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
		}
	}
	return false
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
		}
	case []any:
		if len(v) == 0 {
			break
		}
		if isVercelStep(asObject(v[0])) {
			for i, s := range v {
				if err := vercelStep(b, s, index("", i)); err != nil {
					return err
				}
			}
			return nil
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
