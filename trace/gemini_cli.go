package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "gemini_cli",
		keys:  []string{"projectHash", "toolCalls", "type"},
		read:  readGeminiCLI,
		trace: func(o jsonvalue.Object) level { return when(o.Has("projectHash") && o.Has("messages"), decisive) },
		item: itemObject(func(o jsonvalue.Object) level {
			// An AI SDK v4 step has toolCalls too, beside its finishReason.
			return when(o.Has("toolCalls") && !o.Has("finishReason") || (str(o, "type") == "gemini" && o.Has("content")) ||
				(isGeminiCLIMessage(o) && o.Has("id") && o.Has("timestamp")), decisive)
		}),
	})
}

// readGeminiCLI reads a Gemini CLI chat recording
// (~/.gemini/tmp/<project hash>/chats/session-*.json, or .jsonl): a
// conversation {"sessionId", "projectHash", "startTime", "messages"}
// whose messages have a type (user, gemini, info, error, warning) and, for
// gemini messages, toolCalls {"id", "name", "args", "result", "status"}.
// The result holds the functionResponse parts sent back to the model; the
// call's output is their response (the first part's when there is one
// part, else the list), marked failed when status is "error" (a call
// the user cancelled answers with an "error" response, failed too). Each
// user message opens a turn. The JSON
// Lines form holds the session header, the message records and
// {"$set": {...}} updates, one per line; a message written again under the
// same id replaces the earlier record.
func readGeminiCLI(b *builder, v any) error {
	var msgs []any
	path := ""
	switch v := v.(type) {
	case jsonvalue.Object:
		if l, ok := get(v, "messages").([]any); ok {
			msgs, path = l, "messages"
			b.saw()
		} else if isGeminiCLIMessage(v) {
			msgs = []any{v}
		} else {
			return wantError("a Gemini CLI conversation {\"sessionId\", \"messages\"} or its JSON Lines", v)
		}
	case []any:
		msgs = geminiCLILines(b, v)
	default:
		return wantError("a Gemini CLI conversation {\"sessionId\", \"messages\"} or its JSON Lines", v)
	}
	for i, m := range msgs {
		o, ok := m.(jsonvalue.Object)
		p := index(path, i)
		if !ok {
			return fieldError(p, "want a message object, got %s", jsonvalue.Kind(m))
		}
		if err := geminiCLIMessage(b, o, p); err != nil {
			return err
		}
	}
	return nil
}

// geminiCLILines turns the JSON Lines form into its messages, the last
// record of each id in the place of the first.
func geminiCLILines(b *builder, lines []any) []any {
	var msgs []any
	at := make(map[string]int)
	for i, l := range lines {
		o, ok := l.(jsonvalue.Object)
		switch {
		case !ok:
			msgs = append(msgs, l) // reported by the caller
		case isGeminiCLIMessage(o):
			if mid := id(get(o, "id")); mid != "" {
				if k, ok := at[mid]; ok {
					msgs[k] = o
					continue
				}
				at[mid] = len(msgs)
			}
			msgs = append(msgs, o)
		case o.Has("$set") || o.Has("projectHash") || (o.Has("sessionId") && !o.Has("type")):
			b.saw()
		default:
			b.skip(o, index("", i), "record with keys %s", quoteKeys(o))
		}
	}
	return msgs
}

// isGeminiCLIMessage reports a message record of a chat recording.
func isGeminiCLIMessage(o jsonvalue.Object) bool {
	if o.Has("toolCalls") {
		return true
	}
	_, known := geminiCLITypes[str(o, "type")]
	return known && o.Has("content") && !o.Has("role")
}

// geminiCLITypes are the message types; only gemini messages make calls.
var geminiCLITypes = map[string]bool{"user": false, "gemini": true, "info": false,
	"error": false, "warning": false}

func geminiCLIMessage(b *builder, o jsonvalue.Object, path string) error {
	t := str(o, "type")
	if _, ok := geminiCLITypes[t]; !ok && !o.Has("toolCalls") {
		b.skip(o, path, "message of type %q", t)
		return nil
	}
	b.saw()
	if t == "user" {
		b.userTurn(get(o, "content"))
	}
	tcs, ok := get(o, "toolCalls").([]any)
	if !ok {
		if tc := get(o, "toolCalls"); tc != nil {
			return fieldError(join(path, "toolCalls"), "want a list, got %s", jsonvalue.Kind(tc))
		}
		return nil
	}
	for j, tc := range tcs {
		p := index(join(path, "toolCalls"), j)
		n, err := name(tc, "name", p)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, ID: id(get(tc, "id"))}
		args(&c, tc, "args")
		k := b.add(tc, c)
		res, ok := get(tc, "result").([]any)
		if !ok {
			if r := get(tc, "result"); r != nil {
				b.set(k, r) // not parts: kept as given
			}
			continue
		}
		out := geminiCLIOutput(res)
		if str(tc, "status") == "error" {
			out = failed(out)
		}
		b.set(k, out)
	}
	return nil
}

// geminiCLIOutput gives the response of a tool call's result parts.
func geminiCLIOutput(parts []any) any {
	outs := make([]any, 0, len(parts))
	for _, p := range parts {
		if fr, ok := first(p, "functionResponse", "function_response"); ok {
			outs = append(outs, get(fr, "response"))
		} else {
			outs = append(outs, p)
		}
	}
	if len(outs) == 1 {
		return outs[0]
	}
	return outs
}
