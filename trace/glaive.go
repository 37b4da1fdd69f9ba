package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	isChat := func(s string) bool {
		return strings.Contains(s, "<functioncall>") || strings.Contains(s, "FUNCTION RESPONSE:")
	}
	isRow := func(o jsonvalue.Object) level {
		chat, ok := get(o, "chat").(string)
		return when(ok && (isChat(chat) || o.Has("system") && strings.HasPrefix(strings.TrimSpace(chat), "USER:")), decisive)
	}
	register(format{
		name:    "glaive",
		keys:    []string{"chat"},
		text:    readGlaive,
		read:    readGlaiveRows,
		textual: func(s string) level { return when(isChat(s), decisive) },
		trace:   isRow,
		item:    itemObject(isRow),
	})
}

// readGlaiveRows reads glaive-function-calling rows as the dataset holds
// them, {"system", "chat"}: the chat text as readGlaive reads a
// transcript (the system text holds the function definitions). A file
// of rows (JSON Lines or a JSON array) is read as records, one per row,
// without ids.
func readGlaiveRows(b *builder, v any) error {
	rows, ok := v.([]any)
	if !ok {
		chat, ok := get(v, "chat").(string)
		if !ok {
			return wantError(`a glaive-function-calling row {"system", "chat"}`, v)
		}
		b.saw()
		return readGlaive(b, chat)
	}
	for i, r := range rows {
		p := index("", i)
		chat, ok := get(r, "chat").(string)
		if !ok {
			b.skip(r, p, `row that is no {"system", "chat"}`)
			continue
		}
		b.record(nil, p)
		b.saw()
		if err := readGlaive(b, chat); err != nil {
			b.skip(r, p, "chat not read: %v", err)
		}
	}
	return nil
}

// readGlaive reads a glaive-function-calling transcript (SYSTEM: / USER: /
// ASSISTANT: turns). Each "<functioncall> {...}" is a call: its payload
// {"name", "arguments"} is JSON or Python literal syntax, and arguments is
// usually JSON text in single quotes, which is decoded. A payload that
// does not read is kept: the call is marked invalid with the payload as
// its raw arguments. "FUNCTION RESPONSE: ..." text, up to the next turn,
// answers the earliest unanswered call, as a string, and so does the text
// of a "<functionresponse> ... </functionresponse>" tag, as glaive's
// derived sets write results.
func readGlaive(b *builder, s string) error {
	pos := 0
	for {
		i, tag := nextTag(s, pos, "<functioncall>", "FUNCTION RESPONSE:", "<functionresponse>")
		if i < 0 {
			return nil
		}
		start := i + len(tag)
		if tag == "<functionresponse>" {
			end := len(s)
			if j := strings.Index(s[start:], "</functionresponse>"); j >= 0 {
				end = start + j
			}
			b.result(textLine(s, i), "", "", strings.TrimSpace(s[start:end]))
			pos = end
			continue
		}
		if tag == "FUNCTION RESPONSE:" {
			end := len(s)
			if m := speakerLine.FindStringIndex(s[start:]); m != nil {
				end = start + m[0]
			}
			if j := strings.Index(s[start:end], "<|endoftext|>"); j >= 0 {
				end = start + j
			}
			b.result(textLine(s, i), "", "", strings.TrimSpace(s[start:end]))
			pos = end
			continue
		}
		p := pyParser{s: s, pos: start}
		p.space()
		from := p.pos
		if _, err := p.value(); err == nil {
			addPayloadCalls(b, s[from:p.pos])
			pos = p.pos
			continue
		}
		end := len(s)
		if j, _ := nextTag(s, from, "<|endoftext|>", "\n"); j >= 0 {
			end = j
		}
		addPayloadCalls(b, strings.TrimSpace(s[from:end]))
		pos = end
	}
}
