package trace

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "adk_events",
		keys: []string{"events", "invocationId", "invocation_id", "author"},
		read: readADKEvents,
		trace: func(o jsonvalue.Object) level {
			events, ok := get(o, "events").([]any)
			return when(ok && (hasAny(o, "appName", "app_name", "userId", "user_id") || len(events) > 0 && isADKEventValue(events[0])), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(isADKEvent(o), decisive) }),
	})
}

// readADKEvents reads Google ADK events: the list the API server's /run
// answers with, the events of a /run_sse stream, one event, or a session
// object {"id", "appName", "userId", "events"} as the session endpoints
// and session services give it. Keys may be camelCase (the API server) or
// snake_case (Python model dumps). An event's content is a Gemini content:
// functionCall parts are calls and functionResponse parts their results,
// linked by id; a response holding "error", or ADK's {"status": "error"},
// is a failed result. The user's event (author "user") that starts an
// invocation opens a turn. An event repeated in a stream (the same call
// id) is read once; events without content (state changes, transfers)
// hold no calls.
func readADKEvents(b *builder, v any) error {
	b.unique = true
	path := ""
	switch o := v.(type) {
	case jsonvalue.Object:
		if l, ok := get(o, "events").([]any); ok {
			v, path = l, "events"
			b.saw()
		} else if isADKEvent(o) {
			v = []any{o}
		}
	}
	events, ok := v.([]any)
	if !ok {
		return wantError("ADK events (a list, a /run_sse stream or a session {\"events\"})", v)
	}
	gs := &geminiStream{open: -1} // streamed function-call arguments
	defer gs.close(b)
	for i, e := range events {
		o, ok := e.(jsonvalue.Object)
		p := index(path, i)
		if !ok {
			return fieldError(p, "want an event object, got %s", jsonvalue.Kind(e))
		}
		if !isADKEvent(o) {
			b.skip(o, p, "record with keys %s", quoteKeys(o))
			continue
		}
		b.saw()
		content := get(o, "content")
		if content == nil {
			continue
		}
		if _, ok := content.(jsonvalue.Object); !ok {
			return fieldError(join(p, "content"), "want a content object, got %s", jsonvalue.Kind(content))
		}
		if str(o, "author") == "user" && ownContent(list(content, "parts"), geminiResult) {
			b.userTurn(get(content, "parts"))
		}
		if err := geminiParts(b, gs, list(content, "parts"), join(p, "content.parts")); err != nil {
			return err
		}
	}
	return nil
}

func isADKEventValue(v any) bool {
	o, ok := v.(jsonvalue.Object)
	return ok && isADKEvent(o)
}

// isADKEvent reports an ADK event: it names its author or invocation.
func isADKEvent(o jsonvalue.Object) bool {
	return hasAny(o, "invocationId", "invocation_id") || (o.Has("author") && hasAny(o, "content", "actions"))
}
