package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "pi",
		keys: []string{"cwd", "message"},
		read: readPi,
		item: itemObject(func(o jsonvalue.Object) level {
			switch str(o, "type") {
			case "session": // the header line
				return when(o.Has("cwd") && o.Has("id"), decisive)
			case "message": // an entry: {"type": "message", "message": {"role", ...}}
				return when(has(get(o, "message"), "role"), decisive)
			}
			return no
		}),
	})
}

// readPi reads a pi coding-agent session (~/.pi/agent/sessions/--<cwd>--/
// <timestamp>_<uuid>.jsonl): a {"type": "session"} header line, then
// entries. Message entries {"type": "message", "message": {...}} hold
// the conversation: an assistant message's {"type": "toolCall", "id",
// "name", "arguments"} blocks are calls, and a {"role": "toolResult",
// "toolCallId", "toolName", "content", "isError"} message answers one, a
// failure when isError. A user message opens a turn; the user's own shell
// commands (bashExecution), extension messages (custom, hookMessage
// before version 3) and summaries hold no calls, nor do the other entries
// (model and thinking level changes, compactions, branch summaries,
// labels, session info, extension state).
//
// Sessions of version 2 and 3 are trees (id and parentId on every
// entry): a file may hold branches the user left. Every entry is read in
// file order, so the calls of every branch are read: each was made.
func readPi(b *builder, v any) error {
	lines, ok := v.([]any)
	if !ok {
		o, isObj := v.(jsonvalue.Object)
		if !isObj || !o.Has("type") {
			return wantError(`a pi session (JSON Lines of {"type", ...} entries)`, v)
		}
		lines = []any{o}
	}
	for i, l := range lines {
		p := index("", i)
		o, ok := l.(jsonvalue.Object)
		if !ok {
			b.skip(l, p, "a JSON %s, not an entry", jsonvalue.Kind(l))
			continue
		}
		switch t := str(o, "type"); {
		case t == "message":
			msg, ok := get(o, "message").(jsonvalue.Object)
			if !ok {
				b.skip(o, p, "message entry without a message")
				continue
			}
			if err := piMessage(b, msg, join(p, "message")); err != nil {
				return err
			}
		case piPlainEntries[t]:
			b.saw()
		case t == "":
			b.skip(o, p, "entry with keys %s", quoteKeys(o))
		default:
			b.skip(o, p, "entry of type %q", t)
		}
	}
	return nil
}

// piPlainEntries are the entry types that hold no message and no call.
var piPlainEntries = map[string]bool{"session": true, "model_change": true, "thinking_level_change": true,
	"compaction": true, "branch_summary": true, "custom": true, "custom_message": true, "label": true,
	"session_info": true}

// piPlainRoles are the message roles that hold no call: the user's own
// shell commands, extension messages and summaries.
var piPlainRoles = map[string]bool{"bashExecution": true, "custom": true, "hookMessage": true,
	"branchSummary": true, "compactionSummary": true}

// piMessage reads one message of a session.
func piMessage(b *builder, msg jsonvalue.Object, path string) error {
	switch r := str(msg, "role"); {
	case r == "user":
		b.saw()
		b.userTurn(get(msg, "content"))
	case r == "assistant":
		b.saw()
		return piAssistant(b, get(msg, "content"), join(path, "content"))
	case r == "toolResult":
		out := get(msg, "content")
		if get(msg, "isError") == true {
			out = failed(out)
		}
		b.result(path, id(get(msg, "toolCallId")), str(msg, "toolName"), out)
	case piPlainRoles[r]:
		b.saw()
	default:
		b.skip(msg, path, "message with role %q", r)
	}
	return nil
}

// piAssistant reads an assistant message's content blocks: text,
// thinking and toolCall.
func piAssistant(b *builder, content any, path string) error {
	blocks, ok := content.([]any)
	if !ok {
		if _, isText := content.(string); !isText && content != nil {
			b.skip(content, path, "content that is %s, not a list of content blocks", jsonvalue.Kind(content))
		}
		return nil
	}
	for i, bl := range blocks {
		p := index(path, i)
		switch t := str(bl, "type"); t {
		case "toolCall":
			n, err := name(bl, "name", p)
			if err != nil {
				return err
			}
			c := toolgrade.Call{Name: n, ID: id(get(bl, "id"))}
			args(&c, bl, "arguments")
			b.add(bl, c)
		case "text", "thinking", "image":
		default:
			b.skip(bl, p, "content block of type %q", t)
		}
	}
	return nil
}
