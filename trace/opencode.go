package trace

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "opencode",
		keys: []string{"info", "parts", "messageID", "part", "sessionID", "projectID"},
		read: readOpenCode,
		trace: func(o jsonvalue.Object) level {
			m, _ := firstEntry(o, "messages")
			return when(o.Has("info") && isOpenCodeMessage(m), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			switch {
			case isOpenCodeMessage(o), isOpenCodePart(o), isOpenCodePart(get(o, "part")) && o.Has("sessionID"):
				return decisive
			case o.Has("sessionID") && strings.HasPrefix(str(o, "id"), "msg_") && o.Has("role"):
				return weak // a message's info alone (a storage file)
			case strings.HasPrefix(str(o, "id"), "ses_") && o.Has("projectID"):
				return weak // a session's info alone
			}
			return no
		}),
	})
}

// isOpenCodeMessage reports a message {"info": {"role", ...}, "parts"}.
func isOpenCodeMessage(v any) bool {
	return has(get(v, "info"), "role") && has(v, "parts")
}

// isOpenCodePart reports a part {"id", "sessionID", "messageID", "type"}.
func isOpenCodePart(v any) bool {
	return has(v, "messageID") && has(v, "sessionID") && has(v, "type")
}

// readOpenCode reads OpenCode sessions: the export `opencode export
// <sessionID>` writes ({"info": session, "messages": [{"info", "parts"}],
// "todos"}), the server's message listing (GET /session/:id/message, the
// list of {"info", "parts"}), one message, the events of `opencode run
// --format json` ({"type", "sessionID", "part"}), and storage files (a
// part, a message's or session's info, or a list of them).
//
// A part {"type": "tool", "callID", "tool", "state": {"status", "input",
// "output" | "error"}} is a call: the tool's name, the input as arguments
// and the output as result, a failure when the status is error (the error
// text) or a command's exit code (state.metadata.exit) is not 0. A call
// still pending or running has no result; the tool part of a command the
// user ran himself (!cmd) is not a call. A user message opens a turn when
// it holds text of the user's own (parts not marked synthetic). The
// calls of a sub-agent (the task tool) are in its own session, exported
// separately.
func readOpenCode(b *builder, v any) error {
	b.unique = true // run events and storage files may show a part twice
	path := ""
	switch o := v.(type) {
	case jsonvalue.Object:
		if l, ok := get(o, "messages").([]any); ok && o.Has("info") {
			b.saw() // the session's info
			v, path = l, "messages"
		} else {
			v = []any{o}
		}
	}
	items, ok := v.([]any)
	if !ok {
		return wantError(`an OpenCode export {"info", "messages"}, messages {"info", "parts"} or parts`, v)
	}
	userRun := make(map[string]bool) // user messages that ran a shell command
	for i, it := range items {
		p := index(path, i)
		o, ok := it.(jsonvalue.Object)
		if !ok {
			if openCodeStorageList(it) {
				b.saw()
			} else {
				b.skip(it, p, "a JSON %s, not a message or part", jsonvalue.Kind(it))
			}
			continue
		}
		switch {
		case isOpenCodeMessage(o):
			if err := openCodeMessage(b, o, p, userRun); err != nil {
				return err
			}
		case isOpenCodePart(o):
			if err := openCodePart(b, o, p); err != nil {
				return err
			}
		case o.Has("sessionID") && has(o, "part"): // a run event
			if part := get(o, "part"); isOpenCodePart(part) {
				if err := openCodePart(b, part.(jsonvalue.Object), join(p, "part")); err != nil {
					return err
				}
			} else {
				b.skip(o, p, "event of type %q without a part", str(o, "type"))
			}
		case o.Has("sessionID") && (o.Has("role") || str(o, "type") == "error"):
			b.saw() // a message's info without its parts, a run's error event
		case o.Has("projectID") || o.Has("worktree") || o.Has("secret"):
			b.saw() // a session's or project's info, a share
		default:
			b.skip(o, p, "object with keys %s", quoteKeys(o))
		}
	}
	return nil
}

// openCodeStorageList reports a list OpenCode stores beside a session,
// which holds no call: its file changes ({"file", "before", "after"}) or
// its to-do list ({"content", "status"}).
func openCodeStorageList(v any) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range l {
		if !has(e, "file") && !(has(e, "content") && has(e, "status")) {
			return false
		}
	}
	return true
}

// openCodeMessage reads a message {"info", "parts"}. A command the user
// ran himself (!cmd) is a user message saying so (openCodeUserRan) and an
// assistant message answering it with the command's tool part: not a
// call of the model.
func openCodeMessage(b *builder, m jsonvalue.Object, path string, userRun map[string]bool) error {
	b.saw()
	parts, ok := get(m, "parts").([]any)
	if !ok {
		return fieldError(join(path, "parts"), "want a list of parts, got %s", jsonvalue.Kind(get(m, "parts")))
	}
	info := obj(m, "info")
	byUser := false
	switch str(info, "role") {
	case "user":
		if text, own := openCodeUserText(parts); own {
			b.userTurn(text)
		} else if openCodeUserRan(parts) {
			userRun[str(info, "id")] = true
		}
	case "assistant":
		byUser = userRun[str(info, "parentID")]
	}
	for j, part := range parts {
		p := index(join(path, "parts"), j)
		o, ok := part.(jsonvalue.Object)
		if !ok {
			b.skip(part, p, "a JSON %s, not a part", jsonvalue.Kind(part))
			continue
		}
		if byUser && str(o, "type") == "tool" {
			b.saw()
			b.read(o) // the user's own command
			continue
		}
		if err := openCodePart(b, o, p); err != nil {
			return err
		}
	}
	return nil
}

// openCodeUserRan reports the user message OpenCode writes before the
// tool part of a command the user ran himself.
func openCodeUserRan(parts []any) bool {
	return slices.ContainsFunc(parts, func(p any) bool {
		return get(p, "synthetic") == true && str(p, "text") == "The following tool was executed by the user"
	})
}

// openCodeUserText returns the text of a user message's own text parts,
// and whether it has any: text OpenCode adds itself (a file read for an
// attachment, a note) is marked synthetic.
func openCodeUserText(parts []any) (string, bool) {
	var texts []string
	for _, part := range parts {
		if str(part, "type") == "text" && get(part, "synthetic") != true {
			texts = append(texts, str(part, "text"))
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// openCodePlainParts are the part types that hold no call.
var openCodePlainParts = map[string]bool{"text": true, "reasoning": true, "file": true, "step-start": true,
	"step-finish": true, "snapshot": true, "patch": true, "agent": true, "subtask": true, "compaction": true,
	"retry": true}

// openCodePart reads one part: a tool part is a call.
func openCodePart(b *builder, part jsonvalue.Object, path string) error {
	t := str(part, "type")
	switch {
	case t == "tool":
	case openCodePlainParts[t]:
		b.saw()
		return nil
	default:
		b.skip(part, path, "part of type %q", t)
		return nil
	}
	n, err := name(part, "tool", path)
	if err != nil {
		return err
	}
	state, ok := get(part, "state").(jsonvalue.Object)
	if !ok {
		return fieldError(join(path, "state"), "want the tool's state, got %s", jsonvalue.Kind(get(part, "state")))
	}
	c := toolgrade.Call{Name: n, ID: id(get(part, "callID"))}
	args(&c, state, "input")
	k := b.add(part, c) // the state, its metadata and attachments are the call's
	// A part shown again (a run event, a storage file) is the same call,
	// its input as it was last.
	b.calls[k].Args, b.calls[k].ArgsRaw, b.calls[k].Invalid = c.Args, c.ArgsRaw, c.Invalid
	switch status := str(state, "status"); status {
	case "completed":
		out := get(state, "output")
		if exit, ok := get(obj(state, "metadata"), "exit").(json.Number); ok && exit != "0" {
			b.setFailed(k, out)
		} else {
			b.set(k, out)
		}
	case "error":
		b.set(k, failed(get(state, "error")))
	case "pending", "running":
	default:
		b.skip(state, join(path, "state"), "tool state with status %q", status)
	}
	return nil
}
