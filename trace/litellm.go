package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "litellm",
		keys:  []string{"response", "latency_sec"},
		read:  readLiteLLM,
		trace: func(o jsonvalue.Object) level { return when(isLiteLLMLog(o), decisive) },
		item:  itemObject(func(o jsonvalue.Object) level { return when(isLiteLLMLog(o), decisive) }),
	})
}

// isLiteLLMLog reports a log of one LiteLLM completion: the request's
// messages beside the response, as a StandardLoggingPayload (call_type)
// or a completion log (OpenHands' log_completions) has them, or a
// completion log of a failed request (its error).
func isLiteLLMLog(o jsonvalue.Object) bool {
	if !o.Has("messages") && !o.Has("raw_messages") {
		return false
	}
	r, ok := o.Get("response")
	if !ok {
		return o.Has("latency_sec") && o.Has("error")
	}
	resp, isObj := r.(jsonvalue.Object)
	return o.Has("call_type") || isObj && (resp.Has("choices") || resp.Has("output"))
}

// readLiteLLM reads LiteLLM completion logs: one object, or a list (JSON
// Lines) of them, each one model call. Two documents share the shape:
//
//   - the StandardLoggingPayload LiteLLM hands its logging callbacks
//     (what the GCS, S3 and custom loggers store): {"id", "call_type",
//     "messages", "response", "model_parameters", "metadata", ...};
//   - a completion log written by a LiteLLM client (OpenHands'
//     log_completions): {"messages", "tools", "kwargs", "response",
//     "cost", "timestamp", "latency_sec"}, with "raw_messages" and
//     "raw_response" beside them for a model called without native
//     function calling.
//
// The request's messages hold the conversation so far, its calls
// answered by tool messages; the response holds the call the model makes
// now: both are read, the messages first. Where raw_messages are given
// they are the conversation with its calls as calls, and are read instead
// of messages (which hold the calls as prompt text). Messages are Chat
// Completions messages (Anthropic's or Responses items when the call was
// made through those APIs); the response is a ModelResponse {"choices"}, a
// Responses API response {"output"}, or an Anthropic message. An MCP
// tool call the LiteLLM proxy made is a call too
// (metadata.mcp_tool_call_metadata: name, arguments, result), of type
// "mcp". Tool definitions (tools, kwargs.tools, model_parameters.tools)
// are not calls. Records of a list repeat the conversation, and each call
// is listed once.
func readLiteLLM(b *builder, v any) error {
	b.unique = true
	b.views = true
	switch v := v.(type) {
	case jsonvalue.Object:
		if isLiteLLMLog(v) {
			return liteLLMRecord(b, v, "")
		}
	case []any:
		for i, r := range v {
			o, ok := r.(jsonvalue.Object)
			if !ok || !isLiteLLMLog(o) {
				return wantError("a LiteLLM completion log at "+index("", i), r)
			}
			if err := liteLLMRecord(b, o, index("", i)); err != nil {
				return err
			}
		}
		if len(v) > 0 {
			return nil
		}
	}
	return wantError(`a LiteLLM completion log {"messages", "response"}, or a list of them`, v)
}

func liteLLMRecord(b *builder, o jsonvalue.Object, path string) error {
	b.saw()
	b.notCall(get(o, "tools"), "tool definitions")
	b.notCall(get(obj(o, "kwargs"), "tools"), "tool definitions")
	b.notCall(get(obj(o, "model_parameters"), "tools"), "tool definitions")
	key := "messages"
	if o.Has("raw_messages") {
		key = "raw_messages"
	}
	if err := requestMessages(b, get(o, key), join(path, key)); err != nil {
		return err
	}
	if _, err := responseBody(b, get(o, "response"), join(path, "response")); err != nil {
		return err
	}
	if mcp := obj(obj(o, "metadata"), "mcp_tool_call_metadata"); mcp != nil {
		return liteLLMMCPCall(b, mcp, join(path, "metadata.mcp_tool_call_metadata"))
	}
	return nil
}

// liteLLMMCPCall reads an MCP tool call the proxy made: the execution of
// the model's call of that tool (by its namespaced name or its name) that
// has no result yet, or else a call of its own, of type "mcp". An empty
// result object is none: the proxy logs {} before the tool answers.
func liteLLMMCPCall(b *builder, mcp jsonvalue.Object, path string) error {
	n, err := name(mcp, "name", path)
	if err != nil {
		return err
	}
	out, hasOut := mcp.Get("result")
	if o, isObj := out.(jsonvalue.Object); out == nil || isObj && len(o) == 0 {
		hasOut = false
	}
	for _, tool := range []string{str(mcp, "namespaced_tool_name"), n} {
		for k := b.open; k < len(b.calls) && tool != ""; k++ {
			if !b.answered[k] && b.calls[k].Name == tool {
				b.read(mcp)
				if hasOut {
					b.set(k, out)
				}
				return nil
			}
		}
	}
	c := toolgrade.Call{Name: n, Type: "mcp"}
	args(&c, mcp, "arguments")
	k := b.add(mcp, c)
	if hasOut {
		b.set(k, out)
	}
	return nil
}

// requestMessages reads the messages of a request body a log keeps, in
// the format they are written in: Chat Completions messages, Anthropic
// messages, Responses items, LangChain messages, or a text prompt.
func requestMessages(b *builder, v any, path string) error {
	switch v := v.(type) {
	case string:
		b.userMessage(1, v)
		return nil
	case nil:
		return nil
	case []any:
		switch detectList(v) {
		case "anthropic_messages":
			return anthropicMessages(b, v, path)
		case "openai_responses":
			return responsesItems(b, v, path)
		case "langchain":
			return langChainMessages(b, v, path)
		}
		return chatMessages(b, v, path)
	}
	b.skip(v, path, "messages that are %s, not a list", jsonvalue.Kind(v))
	return nil
}

// responseBody reads the response body a log keeps, and reports whether
// it was one: a Chat Completions response (LiteLLM's ModelResponse), a
// Responses API response or an Anthropic message. Another value (an
// embedding, an image, a failed call's text) holds no calls.
func responseBody(b *builder, v any, path string) (bool, error) {
	r, ok := v.(jsonvalue.Object)
	if !ok {
		return false, nil
	}
	switch {
	case r.Has("choices"):
		var s chatStream
		return true, s.choices(b, r, get(r, "choices"), path)
	case r.Has("output"):
		items, isList := get(r, "output").([]any)
		if !isList {
			return false, nil
		}
		return true, responsesItems(b, items, join(path, "output"))
	case str(r, "type") == "message" && r.Has("content"):
		return true, anthropicBlocks(b, get(r, "content"), join(path, "content"))
	}
	return false, nil
}
