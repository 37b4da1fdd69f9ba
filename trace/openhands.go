package trace

import (
	"encoding/json"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "openhands_trajectory",
		keys: []string{"trajectory", "history", "action", "observation"},
		read: readOpenHands,
		trace: func(o jsonvalue.Object) level {
			t := list(o, "trajectory")
			h := list(o, "history")
			return when(len(t) > 0 && !isSWEStep(t[0]) && isOpenHandsEventValue(t[0]) ||
				len(h) > 0 && !sweHasActions(h) && isOpenHandsEventValue(h[0]), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(isOpenHandsEvent(o), decisive) }),
	})
}

func isOpenHandsEventValue(v any) bool {
	o, ok := v.(jsonvalue.Object)
	return ok && isOpenHandsEvent(o)
}

// readOpenHands reads an OpenHands trajectory: the event list the UI's
// "export trajectory" and save_trajectory_path write, or an object
// holding it under "history" or "trajectory" (evaluation outputs). An
// agent action is a call. With tool_call_metadata (function-calling
// agents) the call is the tool call the model made: function_name,
// tool_call_id, and the arguments the model sent, read from the
// model_response kept beside it; without, the action itself is the call,
// named after it with its args. An observation is the result of the call
// it answers (tool_call_metadata.tool_call_id, else cause, the action's
// event id): its content, failed for an error observation, a rejected
// action or a command's exit code other than 0. A message from the user
// opens a turn; environment messages and agent state changes are not
// calls.
func readOpenHands(b *builder, v any) error {
	path := ""
	if o, ok := v.(jsonvalue.Object); ok {
		for _, key := range []string{"history", "trajectory"} {
			if l, ok := get(o, key).([]any); ok {
				v, path = l, key
				break
			}
		}
		if isOpenHandsEvent(o) {
			v = []any{o}
		}
	}
	events, ok := v.([]any)
	if !ok {
		return wantError("an OpenHands trajectory (a list of action and observation events)", v)
	}
	byEvent := make(map[string]int) // call index by the action's event id
	for i, e := range events {
		p := index(path, i)
		o, ok := e.(jsonvalue.Object)
		if !ok {
			return fieldError(p, "want an event object, got %s", jsonvalue.Kind(e))
		}
		switch {
		case str(o, "action") == "message" && str(o, "source") == "user":
			b.saw()
			b.userTurn(get(obj(o, "args"), "content"))
		case isString(get(o, "action")):
			k, err := openHandsAction(b, o, p)
			if err != nil {
				return err
			}
			if k >= 0 {
				if eid := id(get(o, "id")); eid != "" {
					byEvent[eid] = k
				}
			}
		case isString(get(o, "observation")):
			b.saw()
			fail := openHandsFailed(o)
			meta := obj(o, "tool_call_metadata")
			if tid := id(get(meta, "tool_call_id")); tid != "" {
				b.link(p, tid, str(meta, "function_name"), get(o, "content"), fail)
				continue
			}
			if k, ok := byEvent[id(get(o, "cause"))]; ok && !b.answered[k] {
				b.give(k, get(o, "content"), fail)
			}
		default:
			b.skip(o, p, "event with keys %s", quoteKeys(o))
		}
	}
	return nil
}

// openHandsFailed reports an observation of a failure: an error
// observation, the user's rejection of the action, or a command that
// exited with a code other than 0 (CmdOutputObservation's own test).
func openHandsFailed(o jsonvalue.Object) bool {
	switch str(o, "observation") {
	case "error", "user_rejected":
		return true
	}
	extras := obj(o, "extras")
	code, ok := first(obj(extras, "metadata"), "exit_code")
	if !ok {
		code, ok = first(extras, "exit_code")
	}
	n, isNum := code.(json.Number)
	return ok && isNum && n != "0"
}

// openHandsNonCalls are actions that are not tool calls: messages, state
// changes and the runtime's own work.
var openHandsNonCalls = map[string]bool{"message": true, "system": true, "recall": true,
	"change_agent_state": true, "null": true, "condensation": true, "condensation_request": true}

// openHandsAction reads one action event; it returns the call's index, or
// -1 when the action is not a call.
func openHandsAction(b *builder, o jsonvalue.Object, path string) (int, error) {
	b.saw()
	action := str(o, "action")
	meta := obj(o, "tool_call_metadata")
	if meta == nil && (str(o, "source") != "agent" || openHandsNonCalls[action]) {
		return -1, nil
	}
	if meta == nil {
		c := toolgrade.Call{Name: action}
		if a, ok := o.Get("args"); ok {
			c.Args = a
		}
		return b.add(o, c), nil
	}
	n, err := name(meta, "function_name", join(path, "tool_call_metadata"))
	if err != nil {
		return -1, err
	}
	c := toolgrade.Call{Name: n, ID: id(get(meta, "tool_call_id"))}
	found := false
	for _, ch := range list(obj(meta, "model_response"), "choices") {
		for _, tc := range list(get(ch, "message"), "tool_calls") {
			if id(get(tc, "id")) == c.ID {
				args(&c, get(tc, "function"), "arguments")
				found = true
			}
		}
	}
	if !found {
		if a, ok := o.Get("args"); ok {
			c.Args = a
		}
	}
	// One model response may hold several calls, each its own action.
	if k := b.find(c.ID, c.Name); k >= 0 && c.ID != "" {
		return k, nil
	}
	return b.add(o, c), nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// isOpenHandsEvent reports an OpenHands action or observation event, whose
// action or observation is named by a string (the agent SDK's V1 events
// hold objects there, and their kind: see openhands_v1).
func isOpenHandsEvent(o jsonvalue.Object) bool {
	return (isString(get(o, "action")) || isString(get(o, "observation"))) && hasAny(o, "source", "tool_call_metadata", "cause")
}
