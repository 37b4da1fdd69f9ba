package trace

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "tau2_bench",
		keys: []string{"initial_state", "simulations", "role"},
		read: readTau2,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("initial_state") && hasAny(o, "user_scenario", "evaluation_criteria", "description") ||
				o.Has("simulations") && o.Has("tasks"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			if !o.Has("role") {
				return no
			}
			// τ²-bench messages say who asked: tool messages, and calls
			// {"id", "name", "arguments", "requestor"}.
			tc, ok := firstEntry(o, "tool_calls")
			return when(o.Has("requestor") || ok && has(tc, "requestor"), decisive)
		}),
	})
}

// readTau2 reads τ²-bench records: a task {"id", "user_scenario",
// "initial_state": {"message_history": [...]}, "evaluation_criteria"}, a
// simulation {"messages": [...]}, a results file {"simulations": [...]}
// (each simulation a record with its id),
// or a message list. Assistant (and user) messages carry tool_calls {"id",
// "name", "arguments", "requestor"}; role "tool" messages answer by "id",
// marked failed when "error" is true. A user message with content opens a
// turn (a user message that only makes the user's own tool calls does
// not). The gold actions under
// evaluation_criteria are not calls made in the trace.
func readTau2(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return tau2Messages(b, v, "")
	case jsonvalue.Object:
		b.notCall(get(v, "evaluation_criteria"), "the task's gold actions, not calls made")
		b.notCall(get(v, "tasks"), "the tasks, with their gold actions")
		if is, ok := v.Get("initial_state"); ok {
			if is == nil {
				return nil // a task that starts from no history
			}
			h, ok := get(is, "message_history").([]any)
			if !ok && get(is, "message_history") != nil {
				return fieldError("initial_state.message_history", "want a list of messages, got %s", jsonvalue.Kind(get(is, "message_history")))
			}
			return tau2Messages(b, h, "initial_state.message_history")
		}
		if sims, ok := get(v, "simulations").([]any); ok {
			for i, s := range sims {
				b.record(get(s, "id"), index("simulations", i))
				if err := tau2Messages(b, list(s, "messages"), join(index("simulations", i), "messages")); err != nil {
					return err
				}
			}
			return nil
		}
		if msgs, ok := get(v, "messages").([]any); ok {
			return tau2Messages(b, msgs, "messages")
		}
	}
	return wantError(`a τ²-bench task {"initial_state": {"message_history"}}, simulation {"messages"} or message list`, v)
}

func tau2Messages(b *builder, msgs []any, path string) error {
	for i, m := range msgs {
		p := index(path, i)
		o, ok := m.(jsonvalue.Object)
		if !ok || !o.Has("role") {
			return wantError("a τ²-bench message {\"role\", ...} at "+p, m)
		}
		b.saw()
		// τ²-bench's content is text: parts (another API's blocks, which
		// may hold calls) and a legacy function_call are not its own.
		if _, isList := get(o, "content").([]any); isList && str(o, "role") != "tool" {
			b.skip(get(o, "content"), join(p, "content"), "content that is a list, not text")
		}
		if o.Has("function_call") {
			b.skip(get(o, "function_call"), join(p, "function_call"), "a legacy function_call")
		}
		if str(o, "role") == "tool" {
			out := get(o, "content")
			if e, _ := get(o, "error").(bool); e {
				out = failed(out)
			}
			callID := id(get(o, "id"))
			if callID == "" {
				callID = id(get(o, "tool_call_id"))
			}
			b.result(p, callID, str(o, "name"), out)
			continue
		}
		if str(o, "role") == "user" && (get(o, "content") != nil && get(o, "content") != "" || len(list(o, "tool_calls")) == 0) {
			b.userTurn(get(o, "content")) // the simulated user speaks, not only calls its own tools
		}
		for j, tc := range list(o, "tool_calls") {
			if err := functionCall(b, tc, index(join(p, "tool_calls"), j)); err != nil {
				return err
			}
		}
	}
	return nil
}
