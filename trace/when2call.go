package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "when2call",
		keys:  []string{"correct_answer"},
		read:  readWhen2Call,
		trace: func(o jsonvalue.Object) level { return when(o.Has("correct_answer") && o.Has("answers"), decisive) },
	})
}

// readWhen2Call reads a When2Call test record {"question",
// "correct_answer", "answers", "tools", ...}. answers holds one candidate
// per class; only the class named by correct_answer is the expected
// behaviour. For "tool_call" the calls are answers.tool_call (JSON text or
// a value: {"name", "arguments"}, or a list of them); for the other
// classes there are none. tools and target_tool are definitions, not
// calls.
func readWhen2Call(b *builder, v any) error {
	o, ok := v.(jsonvalue.Object)
	if !ok || !o.Has("correct_answer") {
		return wantError(`a When2Call record with "correct_answer" and "answers"`, v)
	}
	b.saw()
	switch ca := str(o, "correct_answer"); ca {
	case "tool_call":
	case "direct", "request_for_info", "cannot_answer":
		b.notCall(get(o, "answers"), "candidate answers; the correct one makes no call")
		return nil // no call is the right behaviour
	default:
		b.skip(get(o, "answers"), "correct_answer", "answer class %q", ca)
		return nil
	}
	tc, ok := obj(o, "answers").Get("tool_call")
	if !ok {
		return fieldError("answers.tool_call", "missing")
	}
	if s, ok := tc.(string); ok {
		x, err := b.parse(s)
		if err != nil {
			if x, err = parsePython(s); err != nil {
				return fieldError("answers.tool_call", "not JSON: %v", err)
			}
		}
		tc = x
	}
	calls, ok := tc.([]any)
	if !ok {
		calls = []any{tc}
	}
	for i, c := range calls {
		p := "answers.tool_call"
		if len(calls) > 1 {
			p = index(p, i)
		}
		n, err := name(c, "name", p)
		if err != nil {
			return err
		}
		call := toolgrade.Call{Name: n}
		args(&call, c, "arguments", "args", "parameters")
		b.add(c, call)
	}
	return nil
}
