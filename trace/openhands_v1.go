package trace

import (
	"encoding/json"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "openhands_v1",
		keys: []string{"kind", "items"},
		read: readOpenHandsV1,
		trace: func(o jsonvalue.Object) level {
			e, _ := firstEntry(o, "items")
			return when(isOpenHandsV1Event(e), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(isOpenHandsV1Event(o), decisive) }),
	})
}

// isOpenHandsV1Event reports an event of the OpenHands agent SDK: an
// object with its source and kind, the event's class name.
func isOpenHandsV1Event(v any) bool {
	k := str(v, "kind")
	return has(v, "source") && (strings.HasSuffix(k, "Event") || openHandsV1Plain[k] || k == "UserRejectObservation")
}

// openHandsV1Plain are the event kinds that hold no call.
var openHandsV1Plain = map[string]bool{"ConversationStateUpdateEvent": true, "Condensation": true,
	"CondensationRequest": true, "CondensationSummaryEvent": true, "LLMCompletionLogEvent": true,
	"TokenEvent": true, "StreamingDeltaEvent": true, "PauseEvent": true, "InterruptEvent": true,
	"ConversationErrorEvent": true}

// readOpenHandsV1 reads the events of an OpenHands agent-sdk (V1)
// conversation: JSON Lines of events, the events/event-*.json files of a
// persisted conversation one at a time, or a page of the agent server's
// events ({"items": [...]}). Each event has an id, a source and its
// class name as kind.
//
// An ActionEvent is a call: its tool_call, the call as the model made it
// ({"id", "name", "arguments": JSON text}); its action is the same
// arguments parsed by the tool (defaults filled in), not a second call.
// An ObservationEvent answers the call with its tool_call_id (else the
// action of its action_id): the observation's content, a failure when the
// observation is_error or its command's exit_code is not 0. A
// UserRejectObservation (the user or a hook refused the call) and an
// AgentErrorEvent (the call could not run) are failed results. An
// ACPToolCallEvent is a call an ACP agent (Claude Code, Codex, Gemini CLI
// run by OpenHands) made, named by its title, shown again with the same
// tool_call_id as it progresses: the last shown is the call. A
// MessageEvent from the user opens a turn; the system prompt's tools are
// definitions; hook runs and completion logs show calls again.
func readOpenHandsV1(b *builder, v any) error {
	path := ""
	if o, ok := v.(jsonvalue.Object); ok {
		if l, ok := get(o, "items").([]any); ok {
			b.saw() // a page of the server's events
			v, path = l, "items"
		} else {
			v = []any{o}
		}
	}
	events, ok := v.([]any)
	if !ok {
		return wantError("OpenHands agent-sdk events (JSON Lines of {\"id\", \"source\", \"kind\"})", v)
	}
	byAction := make(map[string]int) // call index by the ActionEvent's id
	acp := make(map[string]int)      // call index by an ACP tool call's id
	for i, e := range events {
		p := index(path, i)
		o, ok := e.(jsonvalue.Object)
		if !ok {
			b.skip(e, p, "a JSON %s, not an event", jsonvalue.Kind(e))
			continue
		}
		switch kind := str(o, "kind"); {
		case kind == "ActionEvent":
			k, err := openHandsV1Action(b, o, p)
			if err != nil {
				return err
			}
			if eid := id(get(o, "id")); eid != "" {
				byAction[eid] = k
			}
		case kind == "ObservationEvent":
			obs := obj(o, "observation")
			out := get(obs, "content")
			fail := get(obs, "is_error") == true
			if n, ok := get(obs, "exit_code").(json.Number); ok && n != "0" {
				fail = true
			}
			if fail {
				out = failed(out)
			}
			openHandsV1Result(b, o, p, byAction, out)
		case kind == "UserRejectObservation":
			openHandsV1Result(b, o, p, byAction, failed(get(o, "rejection_reason")))
		case kind == "AgentErrorEvent":
			openHandsV1Result(b, o, p, byAction, failed(get(o, "error")))
		case kind == "ACPToolCallEvent":
			openHandsACPCall(b, o, acp)
		case kind == "MessageEvent":
			b.saw()
			if str(o, "source") == "user" {
				b.userTurn(get(obj(o, "llm_message"), "content"))
			}
		case kind == "SystemPromptEvent":
			b.saw()
			b.notCall(get(o, "tools"), "tool definitions of the system prompt")
		case kind == "HookExecutionEvent":
			b.saw()
			b.read(get(o, "hook_input")) // a hook's view of a call
		case openHandsV1Plain[kind]:
			b.saw()
		case kind == "":
			b.skip(o, p, "event with keys %s", quoteKeys(o))
		default:
			b.skip(o, p, "event of kind %q", kind)
		}
	}
	return nil
}

// openHandsV1Action reads an ActionEvent's call and returns its index.
func openHandsV1Action(b *builder, o jsonvalue.Object, path string) (int, error) {
	b.read(get(o, "action")) // the arguments again, parsed by the tool
	tc, ok := get(o, "tool_call").(jsonvalue.Object)
	if !ok {
		// An action without the model's call: its tool and parsed action.
		n, err := name(o, "tool_name", path)
		if err != nil {
			return -1, err
		}
		c := toolgrade.Call{Name: n, ID: id(get(o, "tool_call_id"))}
		if a, ok := o.Get("action"); ok && a != nil {
			c.Args = a
		}
		return b.add(nil, c), nil
	}
	fn, p := tc, join(path, "tool_call")
	if f, ok := get(tc, "function").(jsonvalue.Object); ok { // a Chat Completions tool call
		fn, p = f, join(p, "function")
	}
	n, err := name(fn, "name", p)
	if err != nil {
		return -1, err
	}
	c := toolgrade.Call{Name: n, ID: id(get(tc, "id"))}
	if c.ID == "" {
		c.ID = id(get(o, "tool_call_id"))
	}
	nullableArgs(&c, fn, "arguments")
	return b.add(tc, c), nil
}

// openHandsV1Result links the result of an observation event: to the call
// with its tool_call_id, else to the action of its action_id.
func openHandsV1Result(b *builder, o jsonvalue.Object, path string, byAction map[string]int, out any) {
	if tid := id(get(o, "tool_call_id")); tid != "" {
		b.result(path, tid, str(o, "tool_name"), out)
		return
	}
	if k, ok := byAction[id(get(o, "action_id"))]; ok && !b.answered[k] {
		b.seen++
		b.set(k, out)
		return
	}
	b.result(path, "", str(o, "tool_name"), out)
}

// openHandsACPCall reads an ACPToolCallEvent: a call of an ACP agent,
// shown again as it progresses, the last showing authoritative.
func openHandsACPCall(b *builder, o jsonvalue.Object, acp map[string]int) {
	tid := id(get(o, "tool_call_id"))
	c := toolgrade.Call{Name: str(o, "title"), ID: tid}
	if a, ok := o.Get("raw_input"); ok && a != nil {
		c.Args = a
	}
	k, seen := acp[tid]
	if seen && tid != "" {
		b.read(o)
		b.calls[k].Name, b.calls[k].Args = c.Name, c.Args
	} else {
		k = b.add(o, c)
		acp[tid] = k
	}
	switch st := str(o, "status"); {
	case st == "failed" || get(o, "is_error") == true:
		out := get(o, "raw_output")
		if out == nil {
			out = get(o, "content")
		}
		b.set(k, failed(out))
	case st == "completed":
		out := get(o, "raw_output")
		if out == nil {
			out = get(o, "content")
		}
		b.set(k, out)
	}
}
