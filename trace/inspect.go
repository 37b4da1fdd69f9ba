package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "inspect_ai",
		keys: []string{"eval", "role"},
		read: readInspect,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("eval") && o.Has("samples"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			if str(o, "role") == "tool" && o.Has("tool_call_id") {
				if _, ok := get(o, "function").(string); ok {
					return decisive // a tool message naming its function
				}
			}
			tc, ok := firstEntry(o, "tool_calls")
			return when(o.Has("role") && ok && isInspectCall(tc) && !has(tc, "requestor"), decisive)
		}),
	})
}

// readInspect reads Inspect AI messages: a list of ChatMessage objects
// (role system, user, assistant or tool), a sample {"messages"}, or a
// whole eval log {"eval", "samples": [{"messages"}]} as `inspect log dump`
// or the JSON log format writes it, each sample a record with its id (an
// .eval log, the default format, is read as that; see inspectEvalLog).
// Assistant messages carry tool_calls {"id", "function", "arguments"},
// where function is the tool's name; a parse_error keeps the call's raw
// arguments and marks it invalid. Tool messages answer by tool_call_id;
// one with an error {"type", "message"} becomes a failed result. A user
// message opens a turn, unless it carries a tool's output (tool_call_id).
// An assistant message's tool_use content blocks (tools the provider ran)
// are built-in calls with their results; see inspectContent.
func readInspect(b *builder, v any) error {
	switch o := v.(type) {
	case []any:
		return inspectMessages(b, o, "")
	case jsonvalue.Object:
		if samples, ok := get(o, "samples").([]any); ok {
			b.saw()
			for i, s := range samples {
				p := index("samples", i)
				b.record(get(s, "id"), p)
				msgs, ok := get(s, "messages").([]any)
				if !ok {
					return fieldError(join(p, "messages"), "want a list of messages, got %s", jsonvalue.Kind(get(s, "messages")))
				}
				if err := inspectMessages(b, msgs, join(p, "messages")); err != nil {
					return err
				}
			}
			return nil
		}
		if msgs, ok := get(o, "messages").([]any); ok {
			return inspectMessages(b, msgs, "messages")
		}
		if o.Has("role") {
			return inspectMessages(b, []any{o}, "")
		}
	}
	return wantError("Inspect AI messages, a sample {\"messages\"} or an eval log {\"samples\"}", v)
}

func inspectMessages(b *builder, msgs []any, path string) error {
	for i, m := range msgs {
		o, ok := m.(jsonvalue.Object)
		p := index(path, i)
		if !ok {
			return fieldError(p, "want a message object, got %s", jsonvalue.Kind(m))
		}
		switch r := str(o, "role"); r {
		case "assistant":
			b.saw()
			tcs, _ := get(o, "tool_calls").([]any)
			for j, tc := range tcs {
				tp := index(join(p, "tool_calls"), j)
				n, err := name(tc, "function", tp)
				if err != nil {
					return err
				}
				c := toolgrade.Call{Name: n, ID: id(get(tc, "id"))}
				args(&c, tc, "arguments")
				if pe, ok := get(tc, "parse_error").(string); ok && pe != "" {
					if raw, ok := get(tc, "arguments").(string); ok {
						c.Args, c.ArgsRaw, c.Invalid = nil, raw, true
					}
				}
				if t := str(tc, "type"); t != "" && t != "function" {
					c.Type = t
				}
				b.add(tc, c)
			}
			if blocks, ok := get(o, "content").([]any); ok {
				inspectContent(b, blocks, join(p, "content"))
			}
		case "tool":
			out := get(o, "content")
			if e := get(o, "error"); e != nil {
				if s, ok := out.(string); ok && s == "" {
					out = get(e, "message")
				}
				out = failed(out)
			}
			b.result(p, id(get(o, "tool_call_id")), str(o, "function"), out)
		case "user":
			b.saw()
			if ids, isList := get(o, "tool_call_id").([]any); get(o, "tool_call_id") == nil || isList && len(ids) == 0 {
				b.userTurn(get(o, "content"))
			}
		case "system":
			b.saw()
		default:
			b.skip(o, p, "message with role %q", r)
		}
	}
	return nil
}

// inspectContent reads the content blocks of an assistant message. Text,
// reasoning and media blocks hold no calls. A tool_use block (Inspect's
// ContentToolUse {"tool_type", "id", "name", "arguments", "result",
// "error"}: a tool the provider ran, web search or a remote MCP call) is a
// built-in call with its result. Any other block is skipped.
func inspectContent(b *builder, blocks []any, path string) {
	for i, blk := range blocks {
		p := index(path, i)
		switch t := str(blk, "type"); t {
		case "text", "reasoning", "image", "audio", "video", "data", "document":
		case "tool_use":
			tt, n := str(blk, "tool_type"), str(blk, "name")
			if tt == "" || n == "" {
				b.skip(blk, p, "content block of type %q without tool_type and name", t)
				continue
			}
			c := toolgrade.Call{Name: n, ID: id(get(blk, "id")), Type: tt}
			if tt == "mcp_call" {
				c.Type = "mcp"
			}
			args(&c, blk, "arguments")
			k := b.add(blk, c)
			out := get(blk, "result")
			if e := str(blk, "error"); e != "" {
				if s, _ := out.(string); s == "" {
					out = e
				}
				out = failed(out)
			}
			b.set(k, out) // its own result, never an earlier call's
		default:
			b.skip(blk, p, "content block of type %q", t)
		}
	}
}

// isInspectCall reports a tool call whose function is the tool's name.
func isInspectCall(tc any) bool {
	_, ok := get(tc, "function").(string)
	return ok
}
