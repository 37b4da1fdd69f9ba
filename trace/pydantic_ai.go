package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "pydantic_ai",
		keys: []string{"kind"},
		read: readPydanticAI,
		item: itemObject(func(o jsonvalue.Object) level {
			return when(o.Has("kind") && o.Has("parts") && slices.ContainsFunc(list(o, "parts"), func(p any) bool { return has(p, "part_kind") }), decisive)
		}),
	})
}

// readPydanticAI reads pydantic-ai message history, as
// ModelMessagesTypeAdapter dumps it (result.all_messages_json()): a list
// of ModelRequest {"kind": "request"} and ModelResponse {"kind":
// "response"} messages whose parts carry a part_kind. tool-call parts of
// responses are calls (args a JSON string or an object), builtin-tool-call
// parts built-in calls (Type = the tool's name); tool-return and
// builtin-tool-return parts are their results, by tool_call_id (failed
// when their outcome is "failed"), and a retry-prompt naming a tool is a
// failed result (the tool rejected its arguments). Each user-prompt part
// opens a turn. An object {"messages": [...]} is read too.
func readPydanticAI(b *builder, v any) error {
	path := ""
	if o, ok := v.(jsonvalue.Object); ok {
		switch {
		case has(o, "messages"):
			v, path = get(o, "messages"), "messages"
		case o.Has("parts") && o.Has("kind"):
			v = []any{o}
		}
	}
	msgs, ok := v.([]any)
	if !ok {
		return wantError("a pydantic-ai message history (a list of {\"kind\", \"parts\"})", v)
	}
	for i, m := range msgs {
		p := index(path, i)
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(p, "want a message object, got %s", jsonvalue.Kind(m))
		}
		if k := str(o, "kind"); k != "request" && k != "response" {
			b.skip(o, p, "message of kind %q", k)
			continue
		}
		b.saw()
		parts, ok := get(o, "parts").([]any)
		if !ok {
			return fieldError(join(p, "parts"), "want a list of parts, got %s", jsonvalue.Kind(get(o, "parts")))
		}
		for j, part := range parts {
			if err := pydanticPart(b, part, index(join(p, "parts"), j)); err != nil {
				return err
			}
		}
	}
	return nil
}

func pydanticPart(b *builder, part any, path string) error {
	o, ok := part.(jsonvalue.Object)
	if !ok {
		return fieldError(path, "want a part object, got %s", jsonvalue.Kind(part))
	}
	switch k := str(o, "part_kind"); k {
	case "tool-call", "builtin-tool-call":
		n, err := name(o, "tool_name", path)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, ID: id(get(o, "tool_call_id"))}
		if k == "builtin-tool-call" {
			c.Type = n
		}
		args(&c, o, "args")
		b.add(o, c)
	case "tool-return", "builtin-tool-return":
		out := get(o, "content")
		if str(o, "outcome") == "failed" {
			out = failed(out)
		}
		b.result(path, id(get(o, "tool_call_id")), str(o, "tool_name"), out)
	case "retry-prompt":
		if str(o, "tool_name") == "" {
			b.saw() // a retry of the final output, not of a tool
			return nil
		}
		b.result(path, id(get(o, "tool_call_id")), str(o, "tool_name"), failed(get(o, "content")))
	case "user-prompt":
		b.saw()
		b.userTurn(get(o, "content"))
	case "system-prompt", "text", "thinking", "file":
		b.saw()
	default:
		b.skip(o, path, "part of kind %q", k)
	}
	return nil
}
