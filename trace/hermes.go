package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "hermes",
		text: readHermes,
		textual: func(s string) level {
			return when(strings.Contains(s, "<tool_call>") || strings.Contains(s, "<tool_response>") ||
				strings.Contains(s, "<tools>") || strings.Contains(s, "<|im_start|>"), decisive)
		},
	})
}

// readHermes reads a Hermes function-calling transcript (ChatML
// <|im_start|>…<|im_end|> turns or SYSTEM:/USER:/ASSISTANT: lines; Qwen
// and others use the same tags). Each <tool_call>…</tool_call> is a call
// whose payload {"name", "arguments"} is JSON, or Python literal syntax
// (single quotes, None, True/False) as the Hermes reference parser falls
// back to; a list or several JSON lines give several calls. A payload that
// reads as neither is kept: the call is marked invalid with the payload as
// its raw arguments. <tool_response> text (trimmed, as a string) answers
// the call named by its payload's "name", else the earliest unanswered
// call. Tags inside <tools>…</tools> or a system turn are format examples
// and tool definitions, not calls.
func readHermes(b *builder, s string) error {
	skip := hermesSkipped(s)
	pos := 0
	for {
		i, tag := nextTag(s, pos, "<tool_call>", "<tool_response>")
		if i < 0 {
			return nil
		}
		start := i + len(tag)
		if skip.contains(i) {
			pos = start
			continue
		}
		closeTag := "</" + tag[1:]
		body, next := s[start:], len(s)
		if j := strings.Index(s[start:], closeTag); j >= 0 {
			body, next = s[start:start+j], start+j+len(closeTag)
		} else if j, _ := nextTag(s, start, "<|im_end|>", "<tool_call>", "<tool_response>"); j >= 0 {
			body, next = s[start:j], j // an unclosed tag ends at the turn's end
		}
		body = strings.TrimSpace(body)
		if tag == "<tool_call>" {
			addPayloadCalls(b, body)
		} else {
			v, err := jsonvalue.ParseString(body)
			if err != nil {
				v, _ = parsePython(body)
			}
			b.result(textLine(s, i), "", str(v, "name"), body)
		}
		pos = next
	}
}

// nextTag finds the earliest of tags at or after pos.
func nextTag(s string, pos int, tags ...string) (int, string) {
	best, bestTag := -1, ""
	for _, t := range tags {
		if j := strings.Index(s[pos:], t); j >= 0 && (best < 0 || pos+j < best) {
			best, bestTag = pos+j, t
		}
	}
	return best, bestTag
}

// spans are byte ranges [start, end) of a text.
type spans [][2]int

func (sp spans) contains(i int) bool {
	for _, r := range sp {
		if i >= r[0] && i < r[1] {
			return true
		}
	}
	return false
}

// hermesSkipped returns the ranges that hold definitions and examples:
// <tools>…</tools>, ChatML system turns, and SYSTEM: sections up to the
// next speaker.
func hermesSkipped(s string) spans {
	var sp spans
	add := func(open, close string, lineStart bool) {
		for pos := 0; ; {
			i := strings.Index(s[pos:], open)
			if i < 0 {
				return
			}
			i += pos
			if lineStart && i > 0 && s[i-1] != '\n' {
				pos = i + len(open)
				continue
			}
			end := len(s)
			if close != "" {
				if j := strings.Index(s[i+len(open):], close); j >= 0 {
					end = i + len(open) + j
				}
			} else if m := speakerLine.FindStringIndex(s[i+len(open):]); m != nil {
				end = i + len(open) + m[0]
			}
			sp = append(sp, [2]int{i, end})
			pos = end
			if pos <= i {
				pos = i + len(open)
			}
		}
	}
	add("<tools>", "</tools>", false)
	add("<|im_start|>system", "<|im_end|>", false)
	add("SYSTEM:", "", true)
	return sp
}

// speakerLine finds the next turn of a SYSTEM:/USER:/ASSISTANT: transcript.
var speakerLine = lazyregexp.New(`(?m)^(USER|ASSISTANT|TOOL|FUNCTION RESPONSE|<\|im_start\|>)`)

// addPayloadCalls adds the calls of a <tool_call> or <functioncall>
// payload.
func addPayloadCalls(b *builder, body string) {
	v, err := jsonvalue.ParseString(body)
	if err != nil {
		if v, err = parsePython(body); err != nil {
			if lines, lerr := jsonLines([]byte(body)); lerr == nil {
				v, err = lines, nil
			}
		}
	}
	if err != nil {
		b.add(nil, toolgrade.Call{Name: salvageName(body), ArgsRaw: body, Invalid: true})
		return
	}
	calls, ok := v.([]any)
	if !ok {
		calls = []any{v}
	}
	for _, e := range calls {
		n, ok := get(e, "name").(string)
		if !ok {
			b.add(nil, toolgrade.Call{Name: salvageName(body), ArgsRaw: body, Invalid: true})
			continue
		}
		c := toolgrade.Call{Name: n, ID: id(get(e, "id"))}
		args(&c, e, "arguments", "parameters", "args")
		b.add(nil, c)
	}
}

// nameField finds the "name" of a payload that does not parse.
var nameField = lazyregexp.New(`["']name["']\s*:\s*["']([^"'\\]+)["']`)

func salvageName(body string) string {
	if m := nameField.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}
