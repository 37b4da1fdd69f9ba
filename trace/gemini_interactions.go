package trace

import (
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "gemini_interactions",
		keys: []string{"object", "steps", "outputs", "input", "event_type", "type"},
		read: readInteractions,
		trace: func(o jsonvalue.Object) level {
			return when(str(o, "object") == "interaction" || interactionList(get(o, "steps")) ||
				interactionList(get(o, "outputs")) || interactionList(get(o, "input")), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(interactionEvent(o) || interactionOnlyTypes[str(o, "type")], decisive)
		}),
	})
}

// interactionOnlyTypes are Gemini Interactions step types no other format
// has.
var interactionOnlyTypes = map[string]bool{"function_result": true, "thought": true, "user_input": true,
	"model_output": true, "google_search_call": true, "google_search_result": true,
	"code_execution_call": true, "code_execution_result": true, "url_context_call": true, "url_context_result": true,
	"mcp_server_tool_call": true, "mcp_server_tool_result": true}

// interactionEvent says whether o is a Gemini Interactions stream event.
func interactionEvent(o jsonvalue.Object) bool {
	et, _ := get(o, "event_type").(string)
	return strings.HasPrefix(et, "interaction.") || strings.HasPrefix(et, "step.") || strings.HasPrefix(et, "content.")
}

// interactionList says whether v is a list holding an Interactions step
// no other format has.
func interactionList(v any) bool {
	l, _ := v.([]any)
	for _, e := range l {
		if interactionOnlyTypes[str(e, "type")] {
			return true
		}
		if items, ok := get(e, "content").([]any); ok && interactionList(items) {
			return true
		}
	}
	return false
}

// readInteractions reads the Gemini Interactions API: an interaction
// {"object": "interaction", "steps" or "outputs": [...]}, a request
// {"input": [...]}, a list of steps or turns {"role", "content": [...]},
// or the events of a stream (interaction.created, step.start, step.delta,
// step.stop, interaction.completed; content.start / content.delta /
// content.stop in earlier versions).
//
// function_call steps {"id", "name", "arguments"} are calls, answered by
// function_result steps {"call_id", "name", "result", "is_error"}. Built-in
// tool steps are calls named after the tool: google_search_call gives
// google_search, code_execution_call code_execution, and so on (args =
// arguments), answered by the matching *_result step; mcp_server_tool_call
// is a call of the MCP tool it names, with Type "mcp". Text, thought,
// image and user input steps are not calls. In a stream, step.start opens
// a step by index and arguments_delta pieces are joined; a built-in tool
// step's arguments, result and is_error may come in its step.delta.
func readInteractions(b *builder, v any) error {
	switch v := v.(type) {
	case []any:
		return interactionItems(b, v, "")
	case jsonvalue.Object:
		if _, ok := get(v, "event_type").(string); ok {
			return interactionItems(b, []any{v}, "")
		}
		found := false
		for _, key := range []string{"input", "steps", "outputs"} {
			items, ok := get(v, key).([]any)
			if !ok {
				continue
			}
			found = true
			if err := interactionItems(b, items, key); err != nil {
				return err
			}
		}
		if found {
			return nil
		}
		if v.Has("type") || v.Has("content") {
			return interactionItems(b, []any{v}, "")
		}
	}
	return wantError("a Gemini interaction, request, step list or stream events", v)
}

func interactionItems(b *builder, items []any, path string) error {
	var s interactionStream
	for i, it := range items {
		o, ok := it.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a step object, got %s", jsonvalue.Kind(it))
		}
		p := index(path, i)
		if et, ok := get(o, "event_type").(string); ok {
			if err := s.event(b, et, o, p); err != nil {
				return err
			}
			continue
		}
		if err := interactionStep(b, o, p); err != nil {
			return err
		}
	}
	return s.flush(b)
}

// interactionNonCalls are step and content types that are not tool use.
var interactionNonCalls = map[string]bool{
	"text": true, "thought": true, "image": true, "audio": true, "video": true, "document": true,
	"user_input": true, "model_output": true, "thought_summary": true, "thought_signature": true,
}

// interactionStep reads one step, content item or turn.
func interactionStep(b *builder, o jsonvalue.Object, path string) error {
	t := str(o, "type")
	switch {
	case t == "" && o.Has("content"):
		// A turn {"role", "content"}; its content is a string or items.
		if items, ok := get(o, "content").([]any); ok {
			return interactionItems(b, items, join(path, "content"))
		}
		return nil
	case t == "":
		b.skip(o, path, "step without a type")
	case t == "function_call":
		n, err := name(o, "name", path)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, ID: id(get(o, "id"))}
		nullableArgs(&c, o, "arguments")
		b.add(o, c)
	case t == "mcp_server_tool_call":
		n, err := name(o, "name", path)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, Type: "mcp", ID: id(get(o, "id"))}
		nullableArgs(&c, o, "arguments")
		b.add(o, c)
	case strings.HasSuffix(t, "_call"):
		tool := strings.TrimSuffix(t, "_call")
		c := toolgrade.Call{Name: tool, Type: tool, ID: id(get(o, "id"))}
		nullableArgs(&c, o, "arguments")
		b.add(o, c)
	case strings.HasSuffix(t, "_result"):
		out := get(o, "result")
		if e, _ := get(o, "is_error").(bool); e {
			out = failed(out)
		}
		n := str(o, "name")
		if n == "" && t != "function_result" && t != "mcp_server_tool_result" {
			n = strings.TrimSuffix(t, "_result")
		}
		b.result(path, id(get(o, "call_id")), n, out)
	case interactionNonCalls[t]:
		b.saw()
	default:
		b.skip(o, path, "step of type %q", t)
	}
	return nil
}

// interactionStream rebuilds steps from streamed events.
type interactionStream struct {
	order []int
	steps map[int]jsonvalue.Object
	args  map[int][]byte
	final []any
}

func (s *interactionStream) event(b *builder, et string, e jsonvalue.Object, path string) error {
	b.saw()
	switch et {
	case "interaction.created", "interaction.start", "interaction.status_update", "step.stop", "content.stop", "error":
	case "step.start", "content.start":
		step, _ := first(e, "step", "content")
		o, ok := step.(jsonvalue.Object)
		if !ok {
			return fieldError(join(path, "step"), "want a step object, got %s", jsonvalue.Kind(step))
		}
		idx := interactionIndex(e)
		if s.steps == nil {
			s.steps, s.args = map[int]jsonvalue.Object{}, map[int][]byte{}
		}
		if _, seen := s.steps[idx]; !seen {
			s.order = append(s.order, idx)
		}
		s.steps[idx] = o
	case "step.delta", "content.delta":
		d := obj(e, "delta")
		idx := interactionIndex(e)
		if a, ok := get(d, "arguments").(string); ok {
			if s.args == nil {
				s.args = map[int][]byte{}
			}
			s.args[idx] = append(s.args[idx], a...)
			return nil
		}
		if s.steps[idx] == nil {
			return nil
		}
		// A built-in tool's call or result step gets its arguments,
		// result and is_error in its delta.
		st := append(jsonvalue.Object(nil), s.steps[idx]...)
		if a, ok := get(d, "arguments").(jsonvalue.Object); ok {
			st.Set("arguments", a)
		}
		for _, key := range []string{"result", "is_error"} {
			if x, ok := d.Get(key); ok {
				st.Set(key, x)
			}
		}
		b.copied(st, s.steps[idx])
		s.steps[idx] = st
	case "interaction.complete", "interaction.completed":
		in := obj(e, "interaction")
		for _, key := range []string{"steps", "outputs"} {
			if l, ok := get(in, key).([]any); ok {
				s.final = l
			}
		}
	default:
		b.skip(e, path, "stream event %q", et)
	}
	return nil
}

func (s *interactionStream) flush(b *builder) error {
	if len(s.order) == 0 {
		if s.final != nil {
			return interactionItems(b, s.final, "interaction.steps")
		}
		return nil
	}
	streamed := map[string]bool{}
	for _, idx := range s.order {
		st := s.steps[idx]
		streamed[id(get(st, "id"))] = true
		if text, ok := s.args[idx]; ok {
			orig := st
			st = append(jsonvalue.Object(nil), st...)
			st.Set("arguments", string(text))
			b.copied(st, orig)
		}
		if err := interactionStep(b, st, "step "+strconv.Itoa(idx)); err != nil {
			return err
		}
	}
	for _, st := range s.final {
		if streamed[id(get(st, "id"))] {
			b.read(st) // the completed interaction repeats a streamed step
		}
	}
	return nil
}

func interactionIndex(e jsonvalue.Object) int {
	n, _ := strconv.Atoi(id(get(e, "index")))
	return n
}
