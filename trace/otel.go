package trace

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(spansFormat("otel_genai"))
	register(spansFormat("openinference"))
}

// spansFormat registers a span convention: spans are read by the
// convention their attributes follow (see readSpans), and detected as
// openinference when any span uses OpenInference's attributes, else as
// vercel_ai_otel when any span has the AI SDK's.
func spansFormat(name string) format {
	is := func(v any) bool { return spanFormat(v) == name }
	return format{
		name: name,
		read: readSpans,
		keys: []string{"resourceSpans", "resource_spans", "resourceLogs", "resource_logs", "attributes", "parts",
			"openinference.span.kind", "ai.operationId", "ai.prompt.messages", "ai.response.toolCalls"},
		keyPrefixes: []string{"llm.input_messages", "llm.output_messages", "tool_call.", "ai.toolCall.", "gen_ai."}, // see attributeFormat
		trace: func(o jsonvalue.Object) level {
			switch {
			case o.Has("resourceSpans") || o.Has("resource_spans"):
				return when(is(o), decisive)
			case o.Has("resourceLogs") || o.Has("resource_logs"):
				return when(name == "otel_genai", decisive) // GenAI events
			case attributeFormat(o) != "":
				return when(attributeFormat(o) == name, weak) // a span's attributes
			case o.Has("attributes"):
				return when(is(o), weak) // a span
			}
			return no
		},
		item: itemObject(func(o jsonvalue.Object) level {
			switch {
			case o.Has("resourceSpans") || o.Has("resource_spans") || o.Has("attributes"):
				return when(is(o), decisive)
			case o.Has("resourceLogs") || o.Has("resource_logs"):
				return when(name == "otel_genai", decisive)
			case attributeFormat(o) != "":
				return when(attributeFormat(o) == name, decisive)
			case o.Has("parts"):
				// a GenAI message, not the AI SDK's UIMessage
				return when(name == "otel_genai" && partsOf(list(o, "parts")) == "otel_genai" && !isUIMessage(o), decisive)
			}
			return no
		}),
	}
}

// attributeFormat recognizes a flat span attribute map by its keys.
func attributeFormat(o jsonvalue.Object) string {
	genAI, vercel := false, false
	for _, m := range o {
		switch {
		case isOpenInferenceKey(m.Key):
			return "openinference"
		case isVercelKey(m.Key):
			vercel = true
		case strings.HasPrefix(m.Key, "gen_ai."):
			genAI = true
		}
	}
	switch {
	case vercel:
		return "vercel_ai_otel"
	case genAI:
		return "otel_genai"
	}
	return ""
}

// readSpans reads OpenTelemetry spans, in the GenAI semantic conventions
// (otel_genai) or OpenInference's (openinference); each span is read by
// the convention its attributes follow. It takes a flat span attribute
// map, a span {"attributes", "startTimeUnixNano", ...} (attributes as a map
// or as OTLP [{key, value}]), a list of spans, an OTLP/JSON export
// {"resourceSpans"} (or JSON Lines of them), or a list of GenAI messages
// in the parts form. Spans with start times are read in start order.
//
// GenAI: gen_ai.input.messages / gen_ai.output.messages (JSON strings or
// values) hold parts: tool_call {id, name, arguments}, tool_call_response
// {id, response}, server_tool_call and server_tool_call_response; the
// deprecated gen_ai.prompt / gen_ai.completion (JSON, or flattened as
// gen_ai.prompt.N.role, gen_ai.prompt.N.tool_calls.M.name ...) hold chat
// messages; execute_tool spans give gen_ai.tool.name, gen_ai.tool.call.id,
// gen_ai.tool.call.arguments and gen_ai.tool.call.result (or attributes
// input and output); one whose status is ERROR, or that has error.type,
// is a failed call. A user message opens a turn the first time its place
// in the conversation is shown (each chat span repeats the history).
//
// A span that has the Vercel AI SDK's attributes (ai.operationId,
// ai.prompt.messages, ai.response.toolCalls, ai.toolCall.*) is read by
// them too, whatever its other attributes follow (see vercel_ai_otel.go).
//
// A call shown more than once (a chat span's output, the next span's
// input, its execute_tool span) is listed once, at its first appearance.
func readSpans(b *builder, v any) error {
	b.unique = true
	b.views = true
	if done, err := readLogEvents(b, v); done || err != nil {
		return err
	}
	spans, err := collectSpans(v, "")
	if err != nil {
		return err
	}
	if spans == nil {
		if msgs, ok := partsForm(v); ok {
			return partsMessages(b, msgs, "")
		}
		return wantError("spans, span attributes, an OTLP export or GenAI messages", v)
	}
	timed := true
	for _, s := range spans {
		timed = timed && s.timed
	}
	if timed {
		sorting.Stable(spans, func(a, b span) int { return compareInt(a.start, b.start) })
	}
	var vercel vercelRun
	for _, s := range spans {
		var err error
		if isOpenInference(s.attrs) {
			err = openInferenceSpan(b, s.attrs, s.path, s.failed)
		} else {
			err = genAISpan(b, s.attrs, s.path, s.failed)
		}
		switch {
		case err != nil:
		case isVercelSpan(s.attrs):
			// The AI SDK's attributes, read beside whatever convention
			// the span's others follow, and the span's events.
			err = vercel.span(b, s)
		case len(s.events) > 0:
			err = spanEvents(b, s.events, join(s.path, "events"))
		case unrecorded(s.attrs):
			b.skip(nil, s.path, "span whose model stopped to call tools records no messages (is message content capture off?)")
		}
		if err != nil {
			return err
		}
	}
	return vercel.flush(b)
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// partsForm returns GenAI messages in the parts form, given as a list or
// as an object {"messages"}.
func partsForm(v any) ([]any, bool) {
	l, ok := v.([]any)
	if !ok {
		l, ok = get(v, "messages").([]any)
	}
	if !ok {
		return nil, false
	}
	for _, m := range l {
		if !has(m, "parts") {
			return nil, false
		}
	}
	return l, true
}

// A span is one span's attributes and start time.
type span struct {
	src    jsonvalue.Object // the span; nil for a bare attribute map
	attrs  jsonvalue.Object
	start  int64
	timed  bool
	path   string
	events []any // span events, read in the GenAI event conventions
	failed bool  // the span's status is ERROR
}

// collectSpans finds the spans in v; nil when v holds none.
func collectSpans(v any, path string) ([]span, error) {
	switch v := v.(type) {
	case []any:
		var spans []span
		for i, e := range v {
			s, err := collectSpans(e, index(path, i))
			if err != nil {
				return nil, err
			}
			if s == nil {
				return nil, nil // not a list of spans
			}
			spans = append(spans, s...)
		}
		return spans, nil
	case jsonvalue.Object:
		if rs, ok := first(v, "resourceSpans", "resource_spans"); ok {
			spans := []span{}
			for i, r := range asList(rs) {
				rp := index(join(path, "resourceSpans"), i)
				ss, _ := first(r, "scopeSpans", "scope_spans", "instrumentationLibrarySpans")
				for j, sc := range asList(ss) {
					sp := index(join(rp, "scopeSpans"), j)
					for k, s := range list(sc, "spans") {
						o, ok := s.(jsonvalue.Object)
						if !ok {
							return nil, fieldError(index(join(sp, "spans"), k), "want a span object, got %s", jsonvalue.Kind(s))
						}
						spans = append(spans, spanOf(o, index(join(sp, "spans"), k)))
					}
				}
			}
			return spans, nil
		}
		if v.Has("attributes") {
			return []span{spanOf(v, path)}, nil
		}
		if attributeFormat(v) != "" {
			return []span{{attrs: v, path: path}}, nil
		}
	}
	return nil, nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// spanOf reads a span object: its attributes (a map, or OTLP key/value
// pairs) and its start time.
func spanOf(o jsonvalue.Object, path string) span {
	s := span{src: o, path: path, events: list(o, "events")}
	switch a := get(o, "attributes").(type) {
	case jsonvalue.Object:
		s.attrs = a
	case []any:
		s.attrs = make(jsonvalue.Object, 0, len(a))
		for _, kv := range a {
			if k, ok := get(kv, "key").(string); ok {
				s.attrs = append(s.attrs, jsonvalue.Member{Key: k, Value: anyValue(get(kv, "value"))})
			}
		}
	}
	if t, ok := first(o, "startTimeUnixNano", "start_time_unix_nano", "startTime", "start_time"); ok {
		s.start, s.timed = timeKey(t)
	}
	s.failed = statusError(o)
	return s
}

// statusError reports a span whose status is ERROR: OTLP {"status":
// {"code": 2}} (or "STATUS_CODE_ERROR"), or "status_code": "ERROR" as
// Phoenix and other exporters write it.
func statusError(o jsonvalue.Object) bool {
	code, ok := first(obj(o, "status"), "code", "status_code")
	if !ok {
		code = get(o, "status_code")
	}
	switch c := code.(type) {
	case json.Number:
		return c == "2"
	case string:
		c = strings.ToUpper(c)
		return c == "ERROR" || c == "STATUS_CODE_ERROR"
	}
	return false
}

// anyValue turns an OTLP AnyValue ({"stringValue": ...}) into a plain
// value; other values are kept.
func anyValue(v any) any {
	o, ok := v.(jsonvalue.Object)
	if !ok || len(o) != 1 {
		return v
	}
	x := o[0].Value
	switch o[0].Key {
	case "stringValue", "boolValue", "bytesValue":
		return x
	case "intValue", "doubleValue":
		if s, ok := x.(string); ok {
			return json.Number(s)
		}
		return x
	case "arrayValue":
		vals := list(x, "values")
		out := make([]any, len(vals))
		for i, e := range vals {
			out[i] = anyValue(e)
		}
		return out
	case "kvlistValue":
		vals := list(x, "values")
		out := make(jsonvalue.Object, 0, len(vals))
		for _, kv := range vals {
			if k, ok := get(kv, "key").(string); ok {
				out = append(out, jsonvalue.Member{Key: k, Value: anyValue(get(kv, "value"))})
			}
		}
		return out
	}
	return v
}

// timeKey reads a start time: Unix nanoseconds (a number or a decimal
// string) or an RFC 3339 timestamp.
func timeKey(v any) (int64, bool) {
	var s string
	switch v := v.(type) {
	case json.Number:
		s = string(v)
	case string:
		s = v
	default:
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return int64(f), true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UnixNano(), true
	}
	return 0, false
}

// spanFormat names the convention of the spans in v: openinference when
// any span uses it, else mlflow when any span is MLflow's, else
// vercel_ai_otel when any span has the AI SDK's attributes, else
// otel_genai.
func spanFormat(v any) string {
	spans, _ := collectSpans(v, "")
	f := "otel_genai"
	for _, s := range spans {
		switch {
		case isOpenInference(s.attrs):
			return "openinference"
		case isMLflowSpan(s.attrs):
			f = "mlflow"
		case isVercelSpan(s.attrs) && f != "mlflow":
			f = "vercel_ai_otel"
		}
	}
	return f
}

func isOpenInference(attrs jsonvalue.Object) bool {
	for _, m := range attrs {
		if isOpenInferenceKey(m.Key) {
			return true
		}
	}
	return false
}

func isOpenInferenceKey(k string) bool {
	return k == "openinference.span.kind" || strings.HasPrefix(k, "llm.input_messages") ||
		strings.HasPrefix(k, "llm.output_messages") || strings.HasPrefix(k, "tool_call.")
}

// genAISpan reads one span in the GenAI conventions.
func genAISpan(b *builder, attrs jsonvalue.Object, path string, failed bool) error {
	for _, key := range []string{"gen_ai.input.messages", "gen_ai.output.messages"} {
		v, ok := attrs.Get(key)
		if !ok {
			continue
		}
		if raw := strings.TrimSuffix(strings.TrimPrefix(key, "gen_ai."), ".messages"); str(attrs, "gen_ai.operation.name") != "execute_tool" {
			// Some instrumentations keep the request or response body as
			// "input" or "output" beside the messages it holds.
			b.read(get(attrs, raw))
		}
		msgs, err := jsonAttr(b, v, join(path, key))
		if err != nil {
			return err
		}
		if err := partsMessages(b, asList(msgs), join(path, key)); err != nil {
			return err
		}
	}
	// Deprecated forms: chat messages as JSON, or flattened.
	for _, key := range []string{"gen_ai.prompt", "gen_ai.completion"} {
		if v, ok := attrs.Get(key); ok {
			msgs, err := jsonAttr(b, v, join(path, key))
			if err != nil {
				return err
			}
			if err := messagesIn(b, msgs, join(path, key)); err != nil {
				return err
			}
		}
		if tree := unflatten(attrs, key); tree != nil {
			l, _ := tree.toValue().([]any)
			if err := chatMessages(b, l, join(path, key)); err != nil {
				return err
			}
		}
	}
	if _, err := attrEvents(b, attrs, path); err != nil {
		return err
	}
	op := str(attrs, "gen_ai.operation.name")
	if op != "" {
		b.saw()
	}
	if op == "execute_tool" && str(attrs, "gen_ai.tool.name") == "" {
		b.skip(nil, path, "execute_tool span without gen_ai.tool.name")
	}
	if op == "execute_tool" || (op == "" && attrs.Has("gen_ai.tool.name")) {
		argsKey, outKey := "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"
		if !attrs.Has(argsKey) {
			argsKey = "input"
		}
		if !attrs.Has(outKey) {
			outKey = "output"
		}
		a, hasArgs := attrs.Get(argsKey)
		out, hasOut := attrs.Get(outKey)
		// A failed execution has an ERROR status and error.type.
		failed = failed || attrs.Has("error.type")
		toolSpan(b, nil, str(attrs, "gen_ai.tool.name"), id(get(attrs, "gen_ai.tool.call.id")), a, hasArgs, out, hasOut, failed)
	}
	return nil
}

// unrecorded says whether a span's model stopped to call tools but the
// span holds none of the messages that would say which: instrumentations
// record no message content unless told to, and its tool calls are then
// nowhere in the trace but in execute_tool spans, if any.
func unrecorded(attrs jsonvalue.Object) bool {
	for _, m := range attrs {
		if strings.HasPrefix(m.Key, "gen_ai.input.messages") || strings.HasPrefix(m.Key, "gen_ai.output.messages") ||
			strings.HasPrefix(m.Key, "gen_ai.completion") || m.Key == "events" ||
			strings.HasPrefix(m.Key, "llm.output_messages") {
			return false
		}
	}
	v, ok := attrs.Get("gen_ai.response.finish_reasons")
	if !ok {
		return false
	}
	if text, isText := v.(string); isText {
		if x, err := jsonvalue.ParseString(text); err == nil {
			v = x
		} else {
			v = []any{text}
		}
	}
	for _, r := range asList(v) {
		switch r {
		case "tool_calls", "tool_call", "tool_use", "function_call":
			return true
		}
	}
	return false
}

// jsonAttr decodes an attribute that holds JSON text; other values are
// taken as they are.
func jsonAttr(b *builder, v any, path string) (any, error) {
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	x, err := b.parse(s)
	if err != nil {
		return nil, fieldError(path, "%v", err)
	}
	return x, nil
}

// messagesIn reads messages in whatever form a span attribute holds them:
// GenAI parts, or chat messages.
func messagesIn(b *builder, v any, path string) error {
	if msgs, ok := partsForm(v); ok {
		return partsMessages(b, msgs, path)
	}
	if l, ok := v.([]any); ok {
		return chatMessages(b, l, path)
	}
	if msgs, ok := get(v, "messages").([]any); ok {
		return chatMessages(b, msgs, join(path, "messages"))
	}
	if has(v, "choices") {
		return chatMessages(b, []any{v}, path)
	}
	return nil
}

// partsMessages reads GenAI messages in the parts form.
func partsMessages(b *builder, msgs []any, path string) error {
	users := 0
	for i, m := range msgs {
		b.saw()
		if str(m, "role") == "user" && ownContent(list(m, "parts"), partsResult) {
			users++
			b.userMessage(users, get(m, "parts"))
		}
		for j, p := range list(m, "parts") {
			pp := index(join(index(path, i), "parts"), j)
			switch str(p, "type") {
			case "tool_call", "server_tool_call":
				n, err := name(p, "name", pp)
				if err != nil {
					return err
				}
				c := toolgrade.Call{Name: n, ID: id(get(p, "id"))}
				if str(p, "type") == "server_tool_call" {
					c.Type = n
					c.Args = get(p, "server_tool_call")
				} else {
					args(&c, p, "arguments")
				}
				b.add(p, c)
			case "tool_call_response":
				b.result(pp, id(get(p, "id")), "", get(p, "response"))
			case "server_tool_call_response":
				b.result(pp, id(get(p, "id")), "", get(p, "server_tool_call_response"))
			case "text", "reasoning", "thinking", "blob", "file", "uri", "image", "audio", "video":
			default:
				b.skip(p, pp, "message part of type %q", str(p, "type"))
			}
		}
	}
	return nil
}

// partsResult reports a tool_call_response part (see [ownContent]).
func partsResult(part any) bool {
	t := str(part, "type")
	return t == "tool_call_response" || t == "server_tool_call_response"
}

// toolSpan reads a span that records one tool execution. A call already
// seen (same id and name; without an id, the earliest unanswered call of
// that tool) gets what it lacks; otherwise the span adds the call.
func toolSpan(b *builder, src any, tool, callID string, a any, hasArgs bool, out any, hasOut bool, failed bool) {
	if tool == "" {
		return
	}
	if hasArgs {
		b.read(a) // the arguments, read as such
	}
	k := -1
	if callID != "" {
		k = b.find(callID, tool)
	} else {
		for j := b.open; j < len(b.calls); j++ {
			if !b.answered[j] && b.calls[j].Name == tool {
				k = j
				break
			}
		}
	}
	if k < 0 {
		k = b.add(src, toolgrade.Call{Name: tool, ID: callID})
	} else {
		b.read(src) // the execution of a call read before
	}
	if c := &b.calls[k]; hasArgs && c.Args == nil && !c.Invalid {
		c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(a)
	}
	switch {
	case failed && !b.answered[k]:
		b.setFailed(k, out)
	case failed:
		b.calls[k].Status = toolgrade.StatusError // its result was shown before
	case hasOut && !b.answered[k]:
		b.set(k, out)
	}
}
