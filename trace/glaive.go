package trace

import (
	"strings"
)

func init() {
	register(format{
		name: "glaive",
		text: readGlaive,
		textual: func(s string) level {
			return when(strings.Contains(s, "<functioncall>") || strings.Contains(s, "FUNCTION RESPONSE:"), decisive)
		},
	})
}

// readGlaive reads a glaive-function-calling transcript (SYSTEM: / USER: /
// ASSISTANT: turns). Each "<functioncall> {...}" is a call: its payload
// {"name", "arguments"} is JSON or Python literal syntax, and arguments is
// usually JSON text in single quotes, which is decoded. A payload that
// does not read is kept: the call is marked invalid with the payload as
// its raw arguments. "FUNCTION RESPONSE: ..." text, up to the next turn,
// answers the earliest unanswered call, as a string.
func readGlaive(b *builder, s string) error {
	pos := 0
	for {
		i, tag := nextTag(s, pos, "<functioncall>", "FUNCTION RESPONSE:")
		if i < 0 {
			return nil
		}
		start := i + len(tag)
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
