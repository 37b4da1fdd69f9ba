package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "swe_agent",
		keys: []string{"trajectory", "history", "action"},
		read: readSWEAgent,
		trace: func(o jsonvalue.Object) level {
			t := list(o, "trajectory")
			h := list(o, "history")
			return when(len(t) > 0 && isSWEStep(t[0]) || len(h) > 0 && sweHasActions(h), decisive)
		},
		item: func(e any) level { return when(isSWEStep(e), decisive) },
	})
}

// readSWEAgent reads a SWE-agent trajectory (<instance>.traj: {"trajectory",
// "history", "info", ...}). Each action the agent took is a call. Where the
// history holds the model's tool_calls (function-calling agents), those
// are the calls, with their names, arguments and ids, and the tool
// messages answering them (tool_call_ids) their results. Otherwise each
// action is a call named after its command (the action's first word) with
// args {"command": <the whole action text>}, and the observation that
// follows is its result. Demonstration messages (is_demo) are examples,
// not calls; the user_prompt message (the task) opens the turn. Without a
// history, the trajectory's steps {"action",
// "observation"} are read the same way.
func readSWEAgent(b *builder, v any) error {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		if l, ok := v.([]any); ok && len(l) > 0 && isSWEStep(l[0]) {
			return sweSteps(b, l, "")
		}
		return wantError("a SWE-agent trajectory {\"trajectory\", \"history\", \"info\"}", v)
	}
	if h, ok := get(o, "history").([]any); ok && sweHasActions(h) {
		b.saw()
		return sweHistory(b, h, "history")
	}
	if t, ok := get(o, "trajectory").([]any); ok {
		b.saw()
		return sweSteps(b, t, "trajectory")
	}
	return wantError("a SWE-agent trajectory {\"trajectory\", \"history\", \"info\"}", v)
}

func isSWEStep(v any) bool {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return false
	}
	_, action := get(o, "action").(string)
	return action && o.Has("observation") && hasAny(o, "response", "thought", "state", "query")
}

func sweHasActions(h []any) bool {
	for _, m := range h {
		if str(m, "message_type") == "action" {
			return true
		}
	}
	return false
}

// sweAction adds the call of an action text.
func sweAction(b *builder, src any, action string) int {
	text := strings.TrimSpace(action)
	cmd, _, _ := strings.Cut(text, "\n")
	if i := strings.IndexAny(cmd, " \t"); i >= 0 {
		cmd = cmd[:i]
	}
	return b.add(src, toolgrade.Call{Name: cmd, Args: jsonvalue.Object{{Key: "command", Value: action}}})
}

func sweSteps(b *builder, steps []any, path string) error {
	for i, s := range steps {
		p := index(path, i)
		if !isSWEStep(s) {
			b.skip(s, p, "step that is %s", describe(s))
			continue
		}
		b.saw()
		action := str(s, "action")
		if strings.TrimSpace(action) == "" {
			continue // the model gave no action (a format error)
		}
		k := sweAction(b, s, action)
		b.set(k, get(s, "observation"))
	}
	return nil
}

func sweHistory(b *builder, h []any, path string) error {
	last := -1 // the latest call without a result, for untagged observations
	for i, m := range h {
		p := index(path, i)
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(p, "want a message object, got %s", jsonvalue.Kind(m))
		}
		if demo, _ := get(o, "is_demo").(bool); demo {
			continue
		}
		switch mt := str(o, "message_type"); mt {
		case "action":
			b.saw()
			tcs, _ := get(o, "tool_calls").([]any)
			if len(tcs) == 0 {
				if a := str(o, "action"); strings.TrimSpace(a) != "" {
					last = sweAction(b, o, a)
				}
				continue
			}
			for j, tc := range tcs {
				c, err := chatToolCall(tc, index(join(p, "tool_calls"), j))
				if err != nil {
					return err
				}
				last = b.add(tc, c)
			}
		case "observation":
			b.saw()
			ids, _ := get(o, "tool_call_ids").([]any)
			switch {
			case len(ids) > 0:
				for _, tid := range ids {
					b.result(p, id(tid), "", get(o, "content"))
				}
			case last >= 0 && !b.answered[last]:
				b.set(last, get(o, "content"))
			}
		case "user_prompt":
			b.saw()
			b.userTurn(get(o, "content"))
		case "system_prompt", "thought", "demonstration", "":
			b.saw()
		default:
			b.skip(o, p, "message of type %q", mt)
		}
	}
	return nil
}
