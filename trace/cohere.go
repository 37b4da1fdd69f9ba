package trace

import (
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "cohere_v2",
		keys: []string{"message", "type", "tool_plan"},
		read: readCohere,
		trace: func(o jsonvalue.Object) level {
			m := obj(o, "message")
			return when(m.Has("tool_plan") || m.Has("role") && o.Has("finish_reason") && !o.Has("done"), fallback)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(cohereEvents[str(o, "type")] || o.Has("tool_plan"), decisive)
		}),
	})
}

// readCohere reads the Cohere v2 Chat API: a response {"id", "message":
// {"role", "tool_plan", "tool_calls", "content"}, "finish_reason"}, a
// request {"messages"}, a list of messages, or the events of a stream
// (message-start, tool-plan-delta, tool-call-start, tool-call-delta,
// tool-call-end, content-*, citation-*, message-end, one per line or as an
// SSE body).
//
// tool_calls entries {"id", "type": "function", "function": {"name",
// "arguments"}} are calls; role "tool" messages answer by tool_call_id,
// their content a string or a list of text and document blocks, kept as
// given; each user message opens a turn. Arguments "null" are no arguments ({}), as Cohere means them. In
// a stream, tool-call-start opens the call at its index and the argument
// pieces of tool-call-delta are joined until tool-call-end. Assistant
// content blocks other than text and thinking are skipped items.
func readCohere(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return cohereItems(b, v, "")
	case jsonvalue.Object:
		switch {
		case v.Has("messages"):
			msgs, ok := get(v, "messages").([]any)
			if !ok {
				return fieldError("messages", "want a list of messages, got %s", jsonvalue.Kind(get(v, "messages")))
			}
			return cohereItems(b, msgs, "messages")
		case obj(v, "message") != nil:
			return cohereMessage(b, obj(v, "message"), "message")
		case cohereEvents[str(v, "type")]:
			return cohereItems(b, []any{v}, "")
		case v.Has("role"):
			return cohereMessage(b, v, "")
		}
	}
	return wantError("a Cohere v2 chat response, request, message list or stream events", v)
}

// cohereEvents are the event types of a Cohere v2 chat stream.
var cohereEvents = map[string]bool{
	"message-start": true, "message-end": true,
	"content-start": true, "content-delta": true, "content-end": true,
	"tool-plan-delta": true,
	"tool-call-start": true, "tool-call-delta": true, "tool-call-end": true,
	"citation-start": true, "citation-end": true, "debug": true,
}

func cohereItems(b *builder, items []any, path string) error {
	s := cohereStream{open: map[int]int{}}
	for i, it := range items {
		o, ok := it.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a message or stream event object, got %s", jsonvalue.Kind(it))
		}
		p := index(path, i)
		switch t := str(o, "type"); {
		case cohereEvents[t]:
			if err := s.event(b, o, p); err != nil {
				return err
			}
		case t != "":
			b.skip(o, p, "stream event of type %q", t)
		case o.Has("role"):
			if err := cohereMessage(b, o, p); err != nil {
				return err
			}
		case obj(o, "message") != nil:
			if err := cohereMessage(b, obj(o, "message"), join(p, "message")); err != nil {
				return err
			}
		default:
			return wantError("a Cohere v2 message, response or stream event at "+p, o)
		}
	}
	s.closeAll(b)
	return nil
}

// cohereMessage reads one message.
func cohereMessage(b *builder, m jsonvalue.Object, path string) error {
	b.saw()
	role := str(m, "role")
	switch role {
	case "tool":
		b.result(path, id(get(m, "tool_call_id")), "", get(m, "content"))
		return nil
	case "user":
		b.userTurn(get(m, "content"))
	case "assistant", "system", "":
	default:
		b.skip(m, path, "message with role %q", role)
		return nil
	}
	for i, tc := range list(m, "tool_calls") {
		p := index(join(path, "tool_calls"), i)
		if obj(tc, "function") == nil {
			return fieldError(join(p, "function"), "missing")
		}
		if err := functionCall(b, tc, p); err != nil {
			return err
		}
	}
	if role == "assistant" {
		for i, blk := range list(m, "content") {
			if t := str(blk, "type"); t != "text" && t != "thinking" {
				b.skip(blk, index(join(path, "content"), i), "content block of type %q", t)
			}
		}
	}
	return nil
}

// cohereStream follows the open tool calls of a streamed message.
type cohereStream struct {
	open map[int]int // call index by tool call index, this message
}

func (s *cohereStream) event(b *builder, e jsonvalue.Object, path string) error {
	delta := obj(obj(e, "delta"), "message")
	b.saw()
	switch str(e, "type") {
	case "message-start":
		s.closeAll(b)
		return cohereMessage(b, delta, join(path, "delta.message"))
	case "tool-call-start":
		tc := get(delta, "tool_calls")
		if l, ok := tc.([]any); ok && len(l) > 0 {
			tc = l[0]
		}
		fn := obj(tc, "function")
		p := join(path, "delta.message.tool_calls.function")
		n, err := name(fn, "name", p)
		if err != nil {
			return err
		}
		k := b.add(tc, toolgrade.Call{Name: n, ID: id(get(tc, "id"))})
		f := b.stream(k)
		if a, ok := get(fn, "arguments").(string); ok && a != "" {
			f.text = append(f.text, a...)
			f.hasText = true
		} else if a, ok := fn.Get("arguments"); ok && a != nil && a != "" {
			f.given = a
		}
		s.open[cohereIndex(e)] = k
	case "tool-call-delta":
		k, ok := s.open[cohereIndex(e)]
		if !ok {
			return fieldError(join(path, "index"), "tool-call-delta for index %d without a tool-call-start", cohereIndex(e))
		}
		tc := get(delta, "tool_calls")
		if l, ok := tc.([]any); ok && len(l) > 0 {
			tc = l[0]
		}
		b.read(tc) // a piece of the call's arguments
		if a, ok := get(obj(tc, "function"), "arguments").(string); ok {
			f := b.stream(k)
			f.text = append(f.text, a...)
			f.hasText = true
		}
	case "tool-call-end":
		idx := cohereIndex(e)
		if k, ok := s.open[idx]; ok {
			s.close(b, k)
			delete(s.open, idx)
		}
	}
	return nil
}

// close decodes a streamed call's arguments, "null" being {}.
func (s *cohereStream) close(b *builder, k int) {
	if f := b.pending[k]; f != nil && strings.TrimSpace(string(f.text)) == "null" {
		delete(b.pending, k)
		b.calls[k].Args = jsonvalue.Object{}
		return
	}
	b.close(k)
}

func (s *cohereStream) closeAll(b *builder) {
	for idx, k := range s.open {
		s.close(b, k)
		delete(s.open, idx)
	}
}

func cohereIndex(e jsonvalue.Object) int {
	n, _ := strconv.Atoi(id(get(e, "index")))
	return n
}
