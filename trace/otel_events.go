package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// The GenAI semantic conventions from 1.28 on also record a conversation as
// events: gen_ai.system.message, gen_ai.user.message,
// gen_ai.assistant.message {content, tool_calls}, gen_ai.tool.message
// {content, id} and gen_ai.choice {index, finish_reason, message}, with
// tool_calls [{id, type, function: {name, arguments}}]; later versions add
// gen_ai.client.inference.operation.details, whose attributes hold
// gen_ai.input.messages and gen_ai.output.messages. Events come as OTLP log
// records (resourceLogs > scopeLogs > logRecords, the event name in the
// event.name attribute or the record's eventName, the payload in the body)
// or as span events (the payload in a gen_ai.event.content attribute as
// JSON, or in the event's own attributes).

// readLogEvents reads an OTLP/JSON logs export, a list of them, or a list
// of log records. It reports whether v was one.
func readLogEvents(b *builder, v any) (bool, error) {
	var records []any
	var paths []string
	var walk func(v any, path string) bool
	walk = func(v any, path string) bool {
		switch v := v.(type) {
		case []any:
			if len(v) == 0 {
				return false
			}
			for i, e := range v {
				if !walk(e, index(path, i)) {
					return false
				}
			}
			return true
		case jsonvalue.Object:
			if rl, ok := first(v, "resourceLogs", "resource_logs"); ok {
				for i, r := range asList(rl) {
					rp := index(join(path, "resourceLogs"), i)
					sl, _ := first(r, "scopeLogs", "scope_logs", "instrumentationLibraryLogs")
					for j, sc := range asList(sl) {
						lr, _ := first(sc, "logRecords", "log_records")
						for k, rec := range asList(lr) {
							records = append(records, rec)
							paths = append(paths, index(join(index(join(rp, "scopeLogs"), j), "logRecords"), k))
						}
					}
				}
				return true
			}
			if isLogRecord(v) {
				records = append(records, v)
				paths = append(paths, path)
				return true
			}
		}
		return false
	}
	if !walk(v, "") {
		return false, nil
	}
	return true, genAIEvents(b, records, paths)
}

// isLogRecord says whether o is an OTLP log record: a body or an event
// name, with the record's own keys.
func isLogRecord(o jsonvalue.Object) bool {
	return (o.Has("body") || o.Has("eventName") || o.Has("event_name")) &&
		hasAny(o, "timeUnixNano", "time_unix_nano", "observedTimeUnixNano", "attributes", "severityNumber", "traceId")
}

// spanEvents reads the events of one span.
func spanEvents(b *builder, events []any, path string) error {
	paths := make([]string, len(events))
	for i := range events {
		paths[i] = index(path, i)
	}
	return genAIEvents(b, events, paths)
}

// A genAIEvent is one event's name and payload.
type genAIEvent struct {
	name  string
	body  any
	attrs jsonvalue.Object
	start int64
	timed bool
	path  string
	src   any // the record or event
}

func genAIEvents(b *builder, records []any, paths []string) error {
	events := make([]genAIEvent, 0, len(records))
	timed := true
	for i, r := range records {
		o, ok := r.(jsonvalue.Object)
		if !ok {
			return fieldError(paths[i], "want a log record or span event object, got %s", jsonvalue.Kind(r))
		}
		e := genAIEvent{path: paths[i], src: o}
		e.attrs = spanOf(o, paths[i]).attrs
		if n, ok := first(o, "eventName", "event_name"); ok {
			e.name, _ = n.(string)
		}
		if e.name == "" {
			e.name = str(e.attrs, "event.name")
		}
		if e.name == "" {
			e.name = str(o, "name") // a span event
		}
		if body, ok := o.Get("body"); ok {
			e.body = anyValue(body)
			if text, isText := e.body.(string); isText {
				// Some loggers write the payload as JSON text.
				if x, err := b.parse(text); err == nil {
					e.body = x
				}
			}
		} else if c, ok := e.attrs.Get("gen_ai.event.content"); ok {
			x, err := jsonAttr(b, c, join(paths[i], "attributes.gen_ai.event.content"))
			if err != nil {
				return err
			}
			e.body = x
		} else {
			e.body = eventPayload(e.attrs)
		}
		if t, ok := first(o, "timeUnixNano", "time_unix_nano", "observedTimeUnixNano"); ok {
			e.start, e.timed = timeKey(t)
		}
		timed = timed && e.timed
		events = append(events, e)
	}
	if timed {
		sorting.Stable(events, func(a, b genAIEvent) int { return compareInt(a.start, b.start) })
	}
	return playEvents(b, events)
}

// playEvents reads events in order. Each inference repeats the
// conversation as events from its start (a system message, or the first
// event after the last choice): a user message is a turn the first time
// its place is reached. A tool message whose call is not known yet is read
// after the others: Azure AI Agents' run spans record the tool outputs
// submitted before the assistant message that made the calls.
func playEvents(b *builder, events []genAIEvent) error {
	users := 0
	var later []genAIEvent
	for _, e := range events {
		if e.name == "gen_ai.tool.message" {
			if tid := id(get(e.body, "id")); tid != "" && !slices.ContainsFunc(b.calls, func(c toolgrade.Call) bool { return c.ID == tid }) {
				later = append(later, e)
				continue
			}
		}
		switch e.name {
		case "gen_ai.system.message":
			users = 0
		case "gen_ai.user.message":
			users++
			b.userMessage(users, get(e.body, "content"))
		}
		if err := genAIEvent1(b, e); err != nil {
			return err
		}
		if e.name == "gen_ai.choice" {
			users = 0
		}
	}
	for _, e := range later {
		if err := genAIEvent1(b, e); err != nil {
			return err
		}
	}
	return nil
}

// eventPayload is a span event's payload given as its attributes: the
// attributes other than the GenAI metadata, their dotted keys
// (tool_calls.0.function.name) kept flat: eventToolCalls nests them.
func eventPayload(attrs jsonvalue.Object) any {
	rest := make(jsonvalue.Object, 0, len(attrs))
	for _, m := range attrs {
		if m.Key == "event.name" || m.Key == "gen_ai.system" || m.Key == "gen_ai.provider.name" {
			continue
		}
		rest = append(rest, m)
	}
	return rest
}

// genAIEvent1 reads one event.
func genAIEvent1(b *builder, e genAIEvent) error {
	switch e.name {
	case "gen_ai.assistant.message":
		b.saw()
		return eventToolCalls(b, e.body, join(e.path, "body"))
	case "gen_ai.choice":
		b.saw()
		msg := get(e.body, "message")
		if msg == nil {
			msg = e.body
		}
		return eventToolCalls(b, msg, join(e.path, "body.message"))
	case "gen_ai.tool.message":
		out, _ := first(e.body, "content")
		b.result(e.path, id(get(e.body, "id")), "", out)
	case "gen_ai.client.inference.operation.details":
		return genAISpan(b, e.attrs, e.path, false)
	case "gen_ai.system.message", "gen_ai.user.message", "gen_ai.content.prompt", "gen_ai.content.completion",
		"gen_ai.evaluation.result":
		b.saw() // messages without calls, and pre-1.28 content events
	case "":
		b.skip(e.src, e.path, "event without a name")
	default:
		b.skip(e.src, e.path, "event %q", e.name)
	}
	return nil
}

// eventToolCalls reads the tool_calls of an event's message; the names may
// be flat (tool_calls.0.function.name) when the payload came from span
// event attributes.
func eventToolCalls(b *builder, msg any, path string) error {
	tcs := get(msg, "tool_calls")
	if text, isText := tcs.(string); isText {
		x, err := jsonAttr(b, text, join(path, "tool_calls"))
		if err != nil {
			return err
		}
		tcs = x
	}
	calls, ok := tcs.([]any)
	if !ok {
		if o, isObj := msg.(jsonvalue.Object); isObj {
			if tree := unflatten(o, "tool_calls"); tree != nil {
				calls, _ = tree.toValue().([]any)
			}
		}
	}
	for i, tc := range calls {
		if err := functionCall(b, tc, index(join(path, "tool_calls"), i)); err != nil {
			return err
		}
	}
	return nil
}

// attrEvents reads the events a span keeps as JSON in its "events"
// attribute, as pydantic-ai's and Logfire's instrumentation write them:
// a list of objects, each an event's payload with its attributes
// (event.name among them) merged in. It reports whether attrs had them.
func attrEvents(b *builder, attrs jsonvalue.Object, path string) (bool, error) {
	v, ok := attrs.Get("events")
	if !ok {
		return false, nil
	}
	path = join(path, "events")
	x, err := jsonAttr(b, v, path)
	if err != nil {
		return true, err
	}
	list, ok := x.([]any)
	if !ok {
		b.skip(x, path, "events attribute that is not a list (%s)", jsonvalue.Kind(x))
		return true, nil
	}
	events := make([]genAIEvent, len(list))
	for i, item := range list {
		o, ok := item.(jsonvalue.Object)
		if !ok {
			return true, fieldError(index(path, i), "want an event object, got %s", jsonvalue.Kind(item))
		}
		events[i] = genAIEvent{name: str(o, "event.name"), body: o, attrs: o, path: index(path, i), src: o}
	}
	return true, playEvents(b, events)
}
