package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "sharegpt",
		keys: []string{"conversations", "from"},
		read: readShareGPT,
		trace: func(o jsonvalue.Object) level {
			l := list(o, "conversations")
			return when(len(l) > 0 && has(l[0], "from"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(o.Has("from") && o.Has("value"), decisive) }),
	})
}

// readShareGPT reads ShareGPT conversations with tool turns, as
// LLaMA-Factory and glaive conversions write them: {"conversations":
// [{"from", "value"}], "tools"}, or the list of turns. A function_call turn
// holds one call {"name", "arguments"} or a list of them as JSON (glaive
// conversions tagged "function-call" keep glaive's payload, its arguments
// JSON text in single quotes, which is read as a Python literal); the
// observation (or "function-response") turn that follows answers them, in
// order (a JSON list answers parallel calls one by one). Turns may use
// "role"/"content" instead of "from"/"value". Human, gpt, system and other
// chat turns are not calls; a human (or user) turn opens a turn of the
// conversation.
func readShareGPT(b *builder, v any) error {
	turns, ok := v.([]any)
	path := ""
	if !ok {
		x, found := first(v, "conversations", "conversation")
		turns, ok = x.([]any)
		if !found || !ok {
			return wantError(`a ShareGPT record {"conversations": [{"from", "value"}]}`, v)
		}
		path = "conversations"
	}
	var last []int // the calls of the last function_call turn
	for i, t := range turns {
		p := index(path, i)
		o, ok := t.(jsonvalue.Object)
		if !ok {
			return fieldError(p, "want a turn object, got %s", jsonvalue.Kind(t))
		}
		from, hasFrom := first(o, "from", "role")
		role, _ := from.(string)
		if !hasFrom {
			return wantError(`a ShareGPT turn {"from", "value"} at `+p, o)
		}
		value, _ := first(o, "value", "content")
		switch role {
		case "function_call", "tool_call", "tool_calls", "function-call":
			last = last[:0]
			text, ok := value.(string)
			var x any = value
			if ok {
				parsed, err := b.parse(text)
				if err != nil {
					py, perr := parsePython(text)
					if perr != nil {
						return fieldError(join(p, "value"), "function_call turn is not JSON: %v", err)
					}
					parsed = py
				}
				x = parsed
			}
			calls, isList := x.([]any)
			if !isList {
				calls = []any{x}
			}
			for j, c := range calls {
				cp := p
				if isList {
					cp = index(join(p, "value"), j)
				}
				n, err := name(c, "name", cp)
				if err != nil {
					return err
				}
				call := toolgrade.Call{Name: n, ID: id(get(c, "id"))}
				nullableArgs(&call, c, "arguments", "parameters", "args")
				last = append(last, b.add(c, call))
			}
		case "observation", "function_response", "function-response", "tool", "ipython":
			answerTurn(b, p, last, value)
			last = last[:0]
		case "human", "user":
			b.saw()
			b.userTurn(value)
		case "gpt", "assistant", "model", "system", "chatgpt", "bing":
			b.saw()
		default:
			b.skip(o, p, "turn from %q", role)
		}
	}
	return nil
}

// answerTurn links an observation to the calls of the turn before it: one
// call takes the text as given; several take the items of a JSON list, one
// each, or the whole text in turn order when it is not such a list.
func answerTurn(b *builder, where string, calls []int, value any) {
	if len(calls) > 1 {
		if text, ok := value.(string); ok {
			if l, err := b.parse(text); err == nil {
				if items, ok := l.([]any); ok && len(items) == len(calls) {
					for j, k := range calls {
						b.set(k, items[j])
					}
					return
				}
			}
		}
	}
	for _, k := range calls {
		if !b.answered[k] {
			b.set(k, value)
			return
		}
	}
	b.result(where, "", "", value)
}
