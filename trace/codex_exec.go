package trace

import (
	"encoding/json"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "codex_exec_json",
		keys: []string{"type"},
		read: readCodexExec,
		item: itemObject(func(o jsonvalue.Object) level { return when(codexExecEvents[str(o, "type")], decisive) }),
	})
}

// codexExecEvents are the event types only `codex exec --json` writes.
var codexExecEvents = map[string]bool{"thread.started": true, "turn.started": true, "turn.completed": true,
	"turn.failed": true, "item.started": true, "item.updated": true, "item.completed": true, "item.plan.delta": true}

// readCodexExec reads the event stream `codex exec --json` writes: JSON
// Lines of {"type": "thread.started" | "turn.started" | "item.started" |
// "item.updated" | "item.completed" | "turn.completed" | "turn.failed" |
// "error" | ...}. (Codex's session files are codex_rollout.)
//
// An item is shown as it starts, changes and completes, with the same id:
// it is one call, with the arguments it was last shown with and the result
// it completed with. The items that are calls, and the calls they are:
//
//   - command_execution: "shell" {"command": <the command line>}; its
//     aggregated_output is the result, failed when the status is failed or
//     declined or the exit code is not 0;
//   - mcp_tool_call: "<server>__<tool>" (as Codex names MCP tools to the
//     model) with its arguments; its result, or its error as a failure;
//   - file_change: "apply_patch" {"changes": [{"path", "kind"}]}; the
//     result is its status, completed or failed;
//   - web_search: "web_search" (Type web_search) with its action, else
//     {"query"}; the stream holds no result;
//   - collab_tool_call: its tool (spawn_agent, send_input, wait,
//     close_agent) with its prompt and receiver threads; the agents'
//     states are the result;
//   - a request_user_input event: "request_user_input" {"questions"},
//     with the model's call id.
//
// Agent messages, reasoning, plans, to-do lists and error items hold no
// calls; an item of another type is listed as skipped. Each turn.started
// opens a turn (the prompt itself is not in the stream). An "error" event
// is not the end: Codex writes one while it reconnects, and goes on.
func readCodexExec(b *builder, v any) error {
	lines, ok := v.([]any)
	if !ok {
		o, isObj := v.(jsonvalue.Object)
		if !isObj || !o.Has("type") {
			return wantError(`a codex exec --json event stream (JSON Lines of {"type", ...})`, v)
		}
		lines = []any{o}
	}
	r := codexExecReader{b: b}
	for i, l := range lines {
		p := index("", i)
		o, ok := l.(jsonvalue.Object)
		if !ok {
			b.skip(l, p, "a JSON %s, not an event", jsonvalue.Kind(l))
			continue
		}
		switch t := str(o, "type"); t {
		case "thread.started":
			b.saw()
			r.items, r.skipped = nil, nil // item ids are a thread's own
		case "turn.started":
			b.saw()
			b.userTurn(nil)
		case "turn.completed", "turn.failed", "error", "item.plan.delta":
			b.saw()
		case "item.started", "item.updated", "item.completed":
			item, ok := get(o, "item").(jsonvalue.Object)
			if !ok {
				b.skip(o, p, "%s event without an item", t)
				continue
			}
			if err := r.item(item, join(p, "item"), t == "item.completed"); err != nil {
				return err
			}
		case "request_user_input":
			c := toolgrade.Call{Name: "request_user_input", ID: id(get(o, "call_id"))}
			if q, ok := o.Get("questions"); ok {
				c.Args = jsonvalue.Object{{Key: "questions", Value: q}}
			}
			b.add(o, c)
		case "":
			b.skip(o, p, "event with keys %s", quoteKeys(o))
		default:
			b.skip(o, p, "event of type %q", t)
		}
	}
	return nil
}

// A codexExecReader reads the items of an event stream.
type codexExecReader struct {
	b       *builder
	items   map[string]int  // call index by item id
	skipped map[string]bool // items of a type not understood, by id
}

// codexExecPlainItems are the item types that hold no call.
var codexExecPlainItems = map[string]bool{"agent_message": true, "reasoning": true, "plan": true,
	"todo_list": true, "error": true}

// item reads one showing of an item; completed says it is the last.
func (r *codexExecReader) item(item jsonvalue.Object, path string, completed bool) error {
	b := r.b
	t, iid := str(item, "type"), id(get(item, "id"))
	switch {
	case codexExecPlainItems[t]:
		b.saw()
		return nil
	case r.skipped[iid] && iid != "":
		b.read(item) // shown again
		return nil
	}
	c, ok := codexExecCall(item, t)
	if !ok {
		if r.skipped == nil {
			r.skipped = make(map[string]bool)
		}
		r.skipped[iid] = true
		b.skip(item, path, "item of type %q", t)
		return nil
	}
	if c.Name == "" {
		return fieldError(join(path, "tool"), "want the tool's name")
	}
	k, seen := r.items[iid]
	if seen && iid != "" {
		b.read(item)
		d := &b.calls[k]
		d.Name, d.Type, d.Args, d.ArgsRaw, d.Invalid = c.Name, c.Type, c.Args, c.ArgsRaw, c.Invalid
	} else {
		k = b.add(item, c)
		if r.items == nil {
			r.items = make(map[string]int)
		}
		r.items[iid] = k
	}
	if !completed {
		return nil
	}
	status := str(item, "status")
	switch t {
	case "command_execution":
		exit, _ := get(item, "exit_code").(json.Number)
		b.give(k, get(item, "aggregated_output"), status == "failed" || status == "declined" || exit != "" && exit != "0")
	case "mcp_tool_call":
		if e := get(item, "error"); e != nil || status == "failed" {
			b.setFailed(k, failed(e))
		} else {
			b.set(k, get(item, "result"))
		}
	case "file_change":
		b.give(k, status, status == "failed")
	case "collab_tool_call":
		b.give(k, get(item, "agents_states"), status == "failed")
	}
	return nil
}

// codexExecCall reads the call an item of type t makes, if it is one.
func codexExecCall(item jsonvalue.Object, t string) (toolgrade.Call, bool) {
	c := toolgrade.Call{ID: id(get(item, "id"))}
	switch t {
	case "command_execution":
		c.Name = "shell"
		c.Args = jsonvalue.Object{{Key: "command", Value: get(item, "command")}}
	case "mcp_tool_call":
		c.Name = str(item, "server") + "__" + str(item, "tool")
		if str(item, "tool") == "" {
			c.Name = ""
		}
		args(&c, item, "arguments")
	case "file_change":
		c.Name = "apply_patch"
		c.Args = jsonvalue.Object{{Key: "changes", Value: get(item, "changes")}}
	case "web_search":
		c.Name, c.Type = "web_search", "web_search"
		if a, ok := item.Get("action"); ok && a != nil {
			c.Args = a
		} else {
			c.Args = jsonvalue.Object{{Key: "query", Value: get(item, "query")}}
		}
	case "collab_tool_call":
		c.Name = str(item, "tool")
		a := jsonvalue.Object{}
		for _, k := range []string{"prompt", "receiver_thread_ids"} {
			if x, ok := item.Get(k); ok && x != nil {
				a = append(a, jsonvalue.Member{Key: k, Value: x})
			}
		}
		c.Args = a
	default:
		return c, false
	}
	return c, true
}
