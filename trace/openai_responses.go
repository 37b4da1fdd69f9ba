package trace

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "openai_responses",
		keys: []string{"output", "input", "type", "role"},
		read: readResponses,
		trace: func(o jsonvalue.Object) level {
			if _, ok := get(o, "output").([]any); ok {
				return weak // a response
			}
			if _, ok := get(o, "input").([]any); ok {
				return fallback // a request
			}
			return no
		},
		item: itemObject(func(o jsonvalue.Object) level {
			t := str(o, "type")
			switch {
			case strings.HasPrefix(t, "response."), responsesItemTypes[t]:
				return decisive
			case t == "message":
				return when(!anthropicMessage(o), decisive)
			case o.Has("role"):
				// Content blocks decide; the cheap look for them first.
				blocks := list(o, "content")
				if len(blocks) == 0 || byCalls(o) {
					return no
				}
				f, l := classifyBlocks(blocks)
				return when(f == "openai_responses", l)
			}
			return no
		}),
	})
}

// responsesItemTypes are the item types of the OpenAI Responses API that
// are not messages.
var responsesItemTypes = map[string]bool{
	"function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true,
	"web_search_call": true, "file_search_call": true, "code_interpreter_call": true,
	"image_generation_call": true, "mcp_call": true, "mcp_list_tools": true,
	"mcp_approval_request": true, "mcp_approval_response": true,
	"computer_call": true, "computer_call_output": true,
	"local_shell_call": true, "local_shell_call_output": true,
	"shell_call": true, "shell_call_output": true,
	"apply_patch_call": true, "apply_patch_call_output": true,
	"reasoning": true, "item_reference": true,
	"tool_search_call": true, "tool_search_output": true, "program": true, "program_output": true,
}

// readResponses reads the OpenAI Responses API: a response body
// {"output": [items]}, a request body {"input": [items]}, a list of items
// (a conversation), or streamed events ("response.*").
//
// function_call items are calls (id = call_id, not the item id "fc_...")
// answered by function_call_output; custom_tool_call items are custom
// calls. Built-in tool items are calls named after the tool: web_search
// (args = action), file_search (args {"queries"}, output = results),
// code_interpreter (args {"code"}, output = outputs), image_generation,
// mcp_call (named after the MCP tool, Type "mcp"), computer, local_shell,
// shell and apply_patch (args = action or operation, answered by their
// *_output items), tool_search (args = arguments, answered by a
// tool_search_output with its call_id) and program, a programmatic tool
// calling script (args {"code"}, answered by program_output; the function
// calls it makes are calls of their own). An mcp_approval_request is the
// MCP call it asks to make (Type "mcp"); a denying mcp_approval_response
// becomes its failed result, and the mcp_call run after approval completes
// it rather than adding a second call. Messages and reasoning items are not
// calls; a user message opens a turn.
//
// A call fails when the trace says so: an mcp_call's error, a built-in
// tool item or apply_patch_call_output with status "failed", a
// shell_call_output whose command timed out or exited with a code other
// than 0, a denied MCP approval.
func readResponses(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return responsesItems(b, v, "")
	case jsonvalue.Object:
		input, hasInput := get(v, "input").([]any)
		output, hasOutput := get(v, "output").([]any)
		if hasInput || hasOutput {
			if err := responsesItems(b, input, "input"); err != nil {
				return err
			}
			return responsesItems(b, output, "output")
		}
		if v.Has("type") {
			return responsesItems(b, []any{v}, "")
		}
	}
	return wantError("a Responses API response, request, item list or stream events", v)
}

func responsesItems(b *builder, items []any, path string) error {
	var s *responsesStream
	for i, it := range items {
		o, ok := it.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want an item object, got %s", jsonvalue.Kind(it))
		}
		if !o.Has("type") && !o.Has("role") {
			return wantError("an item or stream event at "+index(path, i), o)
		}
		if strings.HasPrefix(str(o, "type"), "response.") {
			if s == nil {
				s = &responsesStream{}
			}
			s.event(b, o)
			continue
		}
		if err := responsesItem(b, o, index(path, i)); err != nil {
			return err
		}
	}
	if s != nil {
		return s.flush(b)
	}
	return nil
}

// builtins maps built-in tool item types to the tool's name.
var builtins = map[string]string{
	"web_search_call":       "web_search",
	"file_search_call":      "file_search",
	"code_interpreter_call": "code_interpreter",
	"image_generation_call": "image_generation",
	"computer_call":         "computer",
	"local_shell_call":      "local_shell",
	"shell_call":            "shell",
	"apply_patch_call":      "apply_patch",
}

// responsesPlainItems are the item types that hold no call or result.
var responsesPlainItems = map[string]bool{"message": true, "reasoning": true,
	"mcp_list_tools": true, "item_reference": true, "compaction": true,
	"image_generation_call_output": true}

// responsesPartTypes are the content part types of Responses messages,
// none of which holds a call.
var responsesPartTypes = map[string]bool{"input_text": true, "input_image": true, "input_file": true,
	"input_audio": true, "output_text": true, "refusal": true, "text": true, "summary_text": true}

// responsesParts reports what a message item holds that is of no Responses
// type: content parts of other APIs (a tool_use block), or Chat
// Completions' tool_calls, whose calls would otherwise go unseen.
func responsesParts(b *builder, o jsonvalue.Object, path string) {
	if o.Has("tool_calls") || o.Has("function_call") {
		b.skip(o, path, "message with Chat Completions tool_calls")
	}
	parts, _ := get(o, "content").([]any)
	for j, p := range parts {
		if t, _ := get(p, "type").(string); !responsesPartTypes[t] {
			b.skip(p, index(join(path, "content"), j), "content part of type %q", t)
		}
	}
}

// responsesItem reads one item.
func responsesItem(b *builder, o jsonvalue.Object, path string) error {
	b.saw()
	t := str(o, "type")
	if t == "" || t == "message" {
		responsesParts(b, o, path)
	}
	if str(o, "role") == "user" && (t == "" || t == "message") {
		b.userTurn(get(o, "content"))
		return nil
	}
	switch t {
	case "mcp_call":
		if k, ok := approved(b, o); ok {
			b.read(o) // the run of a call it asked approval for
			c := &b.calls[k]
			c.ID = id(get(o, "id"))
			if a, ok := o.Get("arguments"); ok {
				c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
			}
			mcpOutput(b, k, o)
			return nil
		}
		fallthrough
	case "function_call", "custom_tool_call":
		n, err := name(o, "name", path)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, ID: id(get(o, "call_id"))}
		switch t {
		case "function_call":
			args(&c, o, "arguments")
		case "custom_tool_call":
			c.Type = "custom"
			c.Args = customArgs(get(o, "input"))
		case "mcp_call":
			c.Type = "mcp"
			c.ID = id(get(o, "id"))
			args(&c, o, "arguments")
		}
		k := b.add(o, c)
		if t == "mcp_call" {
			mcpOutput(b, k, o)
		}
	case "function_call_output", "custom_tool_call_output", "computer_call_output",
		"shell_call_output", "apply_patch_call_output":
		b.link(path, id(get(o, "call_id")), "", get(o, "output"), str(o, "status") == "failed" || shellFailed(o))
	case "mcp_approval_request":
		n, err := name(o, "name", path)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, Type: "mcp", ID: id(get(o, "id"))}
		args(&c, o, "arguments")
		b.add(o, c)
	case "mcp_approval_response":
		if ok, _ := get(o, "approve").(bool); ok {
			return nil // the mcp_call that follows gives the result
		}
		denial := jsonvalue.Object{{Key: "approved", Value: false}}
		if r, ok := o.Get("reason"); ok && r != nil {
			denial = append(denial, jsonvalue.Member{Key: "reason", Value: r})
		}
		b.result(path, id(get(o, "approval_request_id")), "", failed(denial))
	case "tool_search_call":
		c := toolgrade.Call{Name: "tool_search", Type: "tool_search", ID: id(get(o, "call_id"))}
		if c.ID == "" {
			c.ID = id(get(o, "id"))
		}
		args(&c, o, "arguments")
		b.add(o, c)
	case "tool_search_output":
		if callID := id(get(o, "call_id")); callID != "" {
			b.result(path, callID, "tool_search", get(o, "tools"))
		} else {
			b.saw() // a server-side search's tools, tied to no call id
		}
	case "program":
		c := toolgrade.Call{Name: "program", Type: "program", ID: id(get(o, "call_id"))}
		if c.ID == "" {
			c.ID = id(get(o, "id"))
		}
		if code, ok := o.Get("code"); ok {
			c.Args = jsonvalue.Object{{Key: "code", Value: code}}
		}
		b.add(o, c)
	case "program_output":
		out, _ := first(o, "result", "output")
		b.result(path, id(get(o, "call_id")), "program", out)
	case "local_shell_call_output":
		callID := id(get(o, "call_id"))
		if callID == "" {
			callID = id(get(o, "id")) // this item's id is the call's
		}
		b.result(path, callID, "", get(o, "output"))
	default:
		tool, ok := builtins[t]
		if !ok {
			if t != "" && !responsesPlainItems[t] {
				b.skip(o, path, "item of type %q", t)
			}
			return nil // messages, reasoning, MCP listings
		}
		c := toolgrade.Call{Name: tool, Type: tool, ID: id(get(o, "call_id"))}
		if c.ID == "" {
			c.ID = id(get(o, "id"))
		}
		var output any
		switch t {
		case "web_search_call", "computer_call", "local_shell_call", "shell_call":
			c.Args = get(o, "action")
			if c.Args == nil && has(o, "actions") {
				c.Args = jsonvalue.Object{{Key: "actions", Value: get(o, "actions")}}
			}
		case "apply_patch_call":
			c.Args = get(o, "operation")
		case "file_search_call":
			if q, ok := o.Get("queries"); ok {
				c.Args = jsonvalue.Object{{Key: "queries", Value: q}}
			}
			output = get(o, "results")
		case "code_interpreter_call":
			if code, ok := o.Get("code"); ok {
				c.Args = jsonvalue.Object{{Key: "code", Value: code}}
			}
			output = get(o, "outputs")
		case "image_generation_call":
			output = get(o, "result")
		}
		k := b.add(o, c)
		if str(o, "status") == "failed" {
			b.setFailed(k, output)
		} else if output != nil {
			b.set(k, output)
		}
	}
	return nil
}

// shellFailed reports a shell_call_output whose command timed out or
// exited with a code other than 0: output [{"stdout", "stderr",
// "outcome": {"type": "exit", "exit_code"} | {"type": "timeout"}}].
func shellFailed(o jsonvalue.Object) bool {
	if str(o, "type") != "shell_call_output" {
		return false
	}
	for _, out := range list(o, "output") {
		oc := obj(out, "outcome")
		switch str(oc, "type") {
		case "timeout":
			return true
		case "exit":
			if n, ok := get(oc, "exit_code").(json.Number); ok && n != "0" {
				return true
			}
		}
	}
	return false
}

// mcpOutput gives call k the result of its mcp_call item: the output, or
// the error as a failed result.
func mcpOutput(b *builder, k int, o jsonvalue.Object) {
	if out, ok := first(o, "output"); ok && out != nil {
		b.set(k, out)
	} else if e := get(o, "error"); e != nil {
		b.setFailed(k, e)
	}
}

// approved returns the call an mcp_call item completes: the approval
// request it names, not yet answered.
func approved(b *builder, o jsonvalue.Object) (int, bool) {
	req := id(get(o, "approval_request_id"))
	if req == "" {
		return 0, false
	}
	for k := len(b.calls) - 1; k >= 0; k-- {
		if b.calls[k].ID == req && b.calls[k].Type == "mcp" && !b.answered[k] {
			return k, true
		}
	}
	return 0, false
}

// responsesStream rebuilds items from streamed events: output_item.added
// opens an item, *_arguments.delta / *_input.delta / *_code.delta pieces are
// joined, *.done events and output_item.done give final values, and
// response.completed's output is used when no item events came.
type responsesStream struct {
	order []string
	items map[string]*streamedItem
	round int // responses seen, so that streams one after another stay apart
	final []any
}

type streamedItem struct {
	item   jsonvalue.Object
	done   bool // item is the final one from output_item.done
	pieces map[string][]byte
}

func (s *responsesStream) key(e jsonvalue.Object) string {
	if idx := id(get(e, "output_index")); idx != "" {
		return strconv.Itoa(s.round) + "#" + idx
	}
	if it := id(get(e, "item_id")); it != "" {
		return it
	}
	return id(get(obj(e, "item"), "id"))
}

func (s *responsesStream) slot(key string) *streamedItem {
	if s.items == nil {
		s.items = make(map[string]*streamedItem)
	}
	si := s.items[key]
	if si == nil {
		si = &streamedItem{}
		s.items[key] = si
		s.order = append(s.order, key)
	}
	return si
}

// streamedFields maps delta and done events to the item field they build.
var streamedFields = map[string]string{
	"response.function_call_arguments":    "arguments",
	"response.mcp_call_arguments":         "arguments",
	"response.custom_tool_call_input":     "input",
	"response.code_interpreter_call_code": "code",
	"response.program.code":               "code",
}

func (s *responsesStream) event(b *builder, e jsonvalue.Object) {
	t := str(e, "type")
	switch t {
	case "response.created":
		s.round++
		b.read(e) // the response begun, before any output
		return
	case "response.output_item.added", "response.output_item.done":
		item := obj(e, "item")
		if item == nil {
			return
		}
		si := s.slot(s.key(e))
		if t == "response.output_item.done" || !si.done {
			if si.item != nil {
				b.copied(item, si.item) // the item again, whole
			}
			si.item, si.done = item, t == "response.output_item.done"
		} else {
			b.copied(si.item, item)
		}
		return
	case "response.completed", "response.done", "response.incomplete", "response.failed":
		if out, ok := get(obj(e, "response"), "output").([]any); ok {
			s.final = out
		}
		return
	}
	for prefix, field := range streamedFields {
		if !strings.HasPrefix(t, prefix) {
			continue
		}
		b.read(e) // a piece of an item's field
		si := s.slot(s.key(e))
		if si.pieces == nil {
			si.pieces = make(map[string][]byte)
		}
		switch t[len(prefix):] {
		case ".delta":
			if d, ok := get(e, "delta").(string); ok {
				si.pieces[field] = append(si.pieces[field], d...)
			}
		case ".done":
			if d, ok := get(e, field).(string); ok {
				si.pieces[field] = append(si.pieces[field][:0], d...)
			}
		}
		return
	}
}

func (s *responsesStream) flush(b *builder) error {
	if len(s.order) == 0 {
		return responsesItems(b, s.final, "response.output")
	}
	streamed := map[string]bool{}
	for _, key := range s.order {
		si := s.items[key]
		if si.item == nil {
			continue
		}
		item := si.item
		streamed[id(get(item, "id"))] = true
		if !si.done && len(si.pieces) > 0 {
			item = append(jsonvalue.Object(nil), item...)
			for _, field := range []string{"arguments", "input", "code"} {
				if text, ok := si.pieces[field]; ok {
					item.Set(field, string(text))
				}
			}
			b.copied(item, si.item)
		}
		if err := responsesItem(b, item, "item "+key); err != nil {
			return err
		}
	}
	for _, item := range s.final {
		if streamed[id(get(item, "id"))] {
			b.read(item) // the completed response repeats a streamed item
		}
	}
	return nil
}
