package trace

import (
	"strconv"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// openInferenceSpan reads one span in the OpenInference conventions (the
// openinference format; see [readSpans] for the containers it comes in).
//
// Calls come from the flattened llm.input_messages.N.message... and
// llm.output_messages.N.message... attributes: tool_calls.M.tool_call.id,
// .function.name and .function.arguments (JSON text); role "tool"
// messages answer by tool_call_id with their content. An LLM span without
// flattened input messages falls back to input.value (JSON: GenAI parts
// messages, chat messages, or an object with "messages"); output.value
// likewise. A TOOL span is one call: tool.name, tool_call.id, arguments
// from tool_call.function.arguments or input.value, result output.value.
func openInferenceSpan(b *builder, attrs jsonvalue.Object, path string, failed bool) error {
	kind := str(attrs, "openinference.span.kind")
	if kind != "" && !openInferenceKinds[kind] {
		b.skip(attrs, path, "span of kind %q", kind)
	} else {
		b.saw()
	}
	for _, side := range []struct{ messages, value string }{
		{"llm.input_messages", "input.value"},
		{"llm.output_messages", "output.value"},
	} {
		if tree := unflatten(attrs, side.messages); tree != nil {
			if err := openInferenceMessages(b, tree, join(path, side.messages)); err != nil {
				return err
			}
			b.read(get(attrs, side.value)) // the same messages, as the raw value
			continue
		}
		if kind == "LLM" || kind == "" {
			fallbackMessages(b, get(attrs, side.value))
		}
	}
	if kind == "TOOL" {
		tool := str(attrs, "tool.name")
		if tool == "" {
			tool = str(attrs, "tool_call.function.name")
		}
		callID := str(attrs, "tool_call.id")
		if callID == "" {
			callID = id(get(attrs, "tool.id"))
		}
		a, hasArgs := attrs.Get("tool_call.function.arguments")
		if !hasArgs {
			a, hasArgs = attrs.Get("input.value")
		}
		out, hasOut := attrs.Get("output.value")
		if tool == "" {
			b.skip(nil, path, "TOOL span without tool.name")
		}
		toolSpan(b, nil, tool, callID, a, hasArgs, out, hasOut, failed)
	}
	return nil
}

// openInferenceKinds are the span kinds of the OpenInference conventions.
var openInferenceKinds = map[string]bool{
	"LLM": true, "TOOL": true, "CHAIN": true, "RETRIEVER": true, "EMBEDDING": true, "AGENT": true,
	"RERANKER": true, "GUARDRAIL": true, "EVALUATOR": true, "PROMPT": true, "UNKNOWN": true,
}

// openInferenceRoles are the message roles that hold no tool result.
var openInferenceRoles = map[string]bool{
	"": true, "system": true, "developer": true, "user": true, "human": true, "assistant": true, "ai": true, "model": true,
}

// openInferenceMessages reads flattened messages, in index order.
func openInferenceMessages(b *builder, tree *node, path string) error {
	msgs := tree.items()
	if len(msgs) == 0 {
		// llm.input_messages given as a list of flat message maps.
		if l, ok := tree.value.([]any); ok {
			for _, m := range l {
				if o, ok := m.(jsonvalue.Object); ok {
					msgs = append(msgs, unflatten(o, ""))
				}
			}
		}
	}
	for i, m := range msgs {
		msg := m.at("message")
		for j, tc := range msg.at("tool_calls").items() {
			t := tc.at("tool_call")
			n := t.str("function", "name")
			if n == "" {
				return fieldError(join(index(path, i), "message.tool_calls."+strconv.Itoa(j)+".tool_call.function.name"), "missing")
			}
			c := toolgrade.Call{Name: n, ID: id(t.at("id").toValue())}
			if a := t.at("function", "arguments"); a != nil {
				c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a.toValue())
			}
			b.add(nil, c)
		}
		if n := msg.str("function_call_name"); n != "" {
			c := toolgrade.Call{Name: n}
			if a := msg.at("function_call_arguments_json"); a != nil {
				c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a.toValue())
			}
			b.add(nil, c)
		}
		switch role := msg.str("role"); {
		case role == "tool" || role == "function":
			out := msg.at("content").toValue()
			if out == nil {
				out = msg.at("contents").toValue()
			}
			b.result(index(path, i), id(msg.at("tool_call_id").toValue()), msg.str("name"), out)
		case !openInferenceRoles[role]:
			b.skip(nil, index(path, i), "message with role %q", role)
		}
	}
	return nil
}

// fallbackMessages reads calls from a span's input.value or output.value
// when it holds JSON messages. The value is free-form by the conventions,
// so anything else is not an error.
func fallbackMessages(b *builder, v any) {
	s, ok := v.(string)
	if !ok {
		return
	}
	x, err := b.parse(s)
	if err != nil {
		return
	}
	scratch := builder{unique: true, ledger: ledger{parsed: b.ledger.parsed}}
	if messagesIn(&scratch, x, "") != nil {
		return // not messages after all: nothing from it
	}
	b.ledger.merge(&scratch.ledger)
	b.skipped = append(b.skipped, scratch.skipped...)
	for k, c := range scratch.calls {
		j := b.add(nil, c)
		if scratch.answered[k] && !b.answered[j] {
			b.set(j, c.Output)
		}
	}
}
