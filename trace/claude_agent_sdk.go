package trace

import "github.com/toolgrade/toolgrade/jsonvalue"

func init() {
	register(format{
		name: "claude_agent_sdk",
		keys: []string{"direction", "request", "response", "request_id"},
		read: readClaudeAgentSDK,
		item: itemObject(func(o jsonvalue.Object) level {
			switch t := str(o, "type"); {
			case o.Has("direction") && has(get(o, "message"), "type"):
				return decisive // a recorder's line around a protocol message
			case t == "control_request" && o.Has("request"), t == "control_response" && o.Has("response"),
				t == "control_cancel_request" && o.Has("request_id"):
				return decisive
			}
			return no
		}),
	})
}

// readClaudeAgentSDK reads a recording of the Claude Agent SDK's transport:
// the JSON Lines the SDK and the Claude Code CLI exchange (stream-json both
// ways), with their control messages, bare or each wrapped by the
// recorder as {"id", "timestamp", "direction": "sent" | "received",
// "message": <the line>}. The conversation lines are read as
// claude_code_stream_json reads them: tool_use blocks of assistant
// messages are calls (a sub-agent's too), tool_result blocks their
// results, and a user message the SDK sent opens a turn. Control traffic
// holds no calls of its own: a permission request (can_use_tool) or a
// hook callback shows a call again, by its tool_use_id; an mcp_message
// request is the run of an SDK MCP server's tool the model called (the
// call itself when the recording lacks it); responses, hook runs
// (system/hook_response) and the other requests hold none.
func readClaudeAgentSDK(b *builder, v any) error {
	b.unique = true // a message split over lines may repeat a block
	lines, ok := v.([]any)
	if !ok {
		o, isObj := v.(jsonvalue.Object)
		if !isObj || !o.Has("type") && !o.Has("direction") {
			return wantError(`a Claude Agent SDK transport recording (JSON Lines of stream-json and control messages, or {"direction", "message"})`, v)
		}
		lines = []any{o}
	}
	for i, l := range lines {
		p := index("", i)
		o, ok := l.(jsonvalue.Object)
		if !ok {
			b.skip(l, p, "a JSON %s, not a message", jsonvalue.Kind(l))
			continue
		}
		if o.Has("direction") && o.Has("message") {
			m, ok := get(o, "message").(jsonvalue.Object)
			if !ok {
				b.skip(o, p, "recorded %s, not a message", jsonvalue.Kind(get(o, "message")))
				continue
			}
			o, p = m, join(p, "message")
		}
		if err := claudeRecord(b, o, p); err != nil {
			return err
		}
	}
	return nil
}
