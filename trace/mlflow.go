package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "mlflow",
		keys: []string{"info", "spans", "attributes", "resourceSpans", "resource_spans"},
		read: readMLflow,
		trace: func(o jsonvalue.Object) level {
			return when(isMLflowTrace(o) || isMLflowTraceData(o) ||
				hasAny(o, "resourceSpans", "resource_spans") && spanFormat(o) == "mlflow", decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(isMLflowTrace(o) || o.Has("attributes") && isMLflowSpan(spanOf(o, "").attrs), decisive)
		}),
	})
}

// isMLflowTrace reports an MLflow Trace, as Trace.to_json() and `mlflow
// traces get` write it: {"info", "data": {"spans"}}.
func isMLflowTrace(o jsonvalue.Object) bool {
	return o.Has("info") && obj(o, "data").Has("spans")
}

// isMLflowTraceData reports a Trace's data alone, {"spans"}, as
// trace.data.to_dict() gives it.
func isMLflowTraceData(o jsonvalue.Object) bool {
	spans := list(o, "spans")
	return len(spans) > 0 && isMLflowSpan(spanOf(asObject(spans[0]), "").attrs)
}

// isMLflowSpan says whether a span's attributes are MLflow's.
func isMLflowSpan(attrs jsonvalue.Object) bool {
	return attrs.Has("mlflow.spanType") || attrs.Has("mlflow.traceRequestId")
}

// readMLflow reads MLflow traces: a Trace {"info", "data": {"spans"}}, or
// its data {"spans"} (MLflow 2 and 3; spans in the schema of either:
// "context", "parent_id", "start_time", "status_code" in 2, "span_id",
// "start_time_unix_nano", "status" in 3), a list (or JSON Lines) of them,
// or MLflow's spans in any container the span formats take (a list of
// spans, an OTLP export).
// Spans are read in start order. Each attribute is JSON text (a string
// attribute is quoted too): mlflow.spanType, mlflow.spanInputs,
// mlflow.spanOutputs.
//
// A TOOL span is one tool's execution: a call named after the span, its
// inputs the arguments and its outputs the result, failed when the span's
// status is ERROR (the status message, or the exception event's, is then
// the result). It answers the model's call of that tool that has no
// result yet, or else is a call of its own. A CHAT_MODEL or LLM span is a
// model call: its outputs hold the calls the model made (a provider's
// response, a LangChain message or generations), its inputs the request
// and the conversation so far (messages, whose earlier calls are read
// where they first appear; their user messages open turns); the tools it
// offered (mlflow.chat.tools) are no calls. MLflow 2's mlflow.chat.messages
// repeats the conversation. Inputs or outputs in another shape than these
// are left to the audit. Other spans (AGENT, CHAIN, RETRIEVER, ...) are
// the application's; what they repeat of calls read is shown again.
// Streamed chunks (mlflow.chunk.item.N events) are views of the span's
// outputs. The trace's assessments (expectations, feedback) are no calls.
func readMLflow(b *builder, v any) error {
	b.unique = true
	b.views = true
	var spans []span
	var traces func(v any, path string) (bool, error)
	traces = func(v any, path string) (bool, error) {
		switch v := v.(type) {
		case jsonvalue.Object:
			data, dataPath := v, path
			switch {
			case isMLflowTrace(v):
				mlflowInfo(b, obj(v, "info"))
				data, dataPath = obj(v, "data"), join(path, "data")
			case !isMLflowTraceData(v):
				return false, nil
			}
			b.saw()
			s, err := collectSpans(get(data, "spans"), join(dataPath, "spans"))
			spans = append(spans, s...)
			return true, err
		case []any:
			for i, e := range v {
				if ok, err := traces(e, index(path, i)); !ok || err != nil {
					return ok, err
				}
			}
			return len(v) > 0, nil
		}
		return false, nil
	}
	ok, err := traces(v, "")
	switch {
	case err != nil:
		return err
	case !ok:
		if spans, err = collectSpans(v, ""); err != nil {
			return err
		}
		if spans == nil {
			return wantError(`an MLflow trace {"info", "data": {"spans"}}, a list of them, or MLflow spans`, v)
		}
	}
	timed := true
	for _, s := range spans {
		timed = timed && s.timed
	}
	if timed {
		sorting.Stable(spans, func(a, b span) int { return compareInt(a.start, b.start) })
	}
	for _, s := range spans {
		if err := mlflowSpan(b, s); err != nil {
			return err
		}
	}
	return nil
}

// mlflowInfo reads what a trace's info holds: previews of the root span's
// inputs and outputs, and assessments.
func mlflowInfo(b *builder, info jsonvalue.Object) {
	for _, key := range []string{"request", "response", "request_preview", "response_preview"} {
		b.read(get(info, key))
	}
	for _, key := range []string{"trace_metadata", "request_metadata"} {
		md := obj(info, key)
		b.read(get(md, "mlflow.traceInputs"))
		b.read(get(md, "mlflow.traceOutputs"))
	}
	if a, ok := info.Get("assessments"); ok {
		b.notCall(a, "assessments: expectations and feedback on the trace, not calls")
	}
}

// mlflowAttr returns the value of an attribute, JSON text decoded, and
// whether the span has it.
func mlflowAttr(b *builder, attrs jsonvalue.Object, key string) (any, bool) {
	v, ok := attrs.Get(key)
	if text, isText := v.(string); isText {
		if x, err := b.parse(text); err == nil {
			return x, true
		}
	}
	return v, ok
}

// mlflowSpan reads one span.
func mlflowSpan(b *builder, s span) error {
	attrs := s.attrs
	if !isMLflowSpan(attrs) {
		b.skip(s.src, s.path, "span without MLflow's attributes")
		return nil
	}
	b.saw()
	typ, _ := mlflowAttr(b, attrs, "mlflow.spanType")
	in, hasIn := mlflowAttr(b, attrs, "mlflow.spanInputs")
	out, hasOut := mlflowAttr(b, attrs, "mlflow.spanOutputs")
	failure := any(nil)
	for _, e := range s.events {
		switch name := str(e, "name"); {
		case name == "exception":
			b.read(e)
			if m, ok := spanOf(asObject(e), "").attrs.Get("exception.message"); ok {
				failure = m
			}
		case strings.HasPrefix(name, "mlflow.chunk.item."):
			b.read(e) // a streamed piece of the outputs
		}
	}
	path := join(s.path, "attributes")
	switch typ {
	case "TOOL":
		name := str(s.src, "name")
		if name == "" {
			b.skip(s.src, s.path, "TOOL span without a name")
			return nil
		}
		if s.failed {
			if m, ok := first(s.src, "status_message"); ok && m != "" {
				failure = m
			} else if m := str(obj(s.src, "status"), "message"); m != "" {
				failure = m
			}
			out, hasOut = failure, true
		}
		// The arguments as the attribute holds them, JSON text that the
		// call decodes once.
		args, _ := attrs.Get("mlflow.spanInputs")
		toolSpan(b, nil, name, "", args, hasIn, out, hasOut, s.failed)
	case "CHAT_MODEL", "LLM":
		if tools, ok := attrs.Get("mlflow.chat.tools"); ok {
			b.notCall(tools, "tool definitions")
		}
		if hasIn {
			tolerant(b, func(b *builder) error { return mlflowInputs(b, in, join(path, "mlflow.spanInputs")) })
		}
		if msgs, ok := mlflowAttr(b, attrs, "mlflow.chat.messages"); ok {
			tolerant(b, func(b *builder) error { return requestMessages(b, msgs, join(path, "mlflow.chat.messages")) })
		}
		if hasOut {
			tolerant(b, func(b *builder) error {
				p := join(path, "mlflow.spanOutputs")
				if ok, err := responseBody(b, out, p); ok || err != nil {
					return err
				}
				return modelOutput(b, out, p)
			})
		}
	}
	return nil
}

// mlflowInputs reads a model span's inputs: the request, or its messages.
func mlflowInputs(b *builder, in any, path string) error {
	switch v := in.(type) {
	case []any:
		if len(v) > 0 {
			if inner, ok := v[0].([]any); ok && len(v) == 1 {
				// LangChain's chat model start: a batch of one conversation.
				return requestMessages(b, inner, index(path, 0))
			}
		}
		return requestMessages(b, v, path)
	case jsonvalue.Object:
		for _, key := range []string{"messages", "input"} {
			if msgs, ok := v.Get(key); ok {
				if tools, ok := v.Get("tools"); ok {
					b.notCall(tools, "tool definitions")
				}
				return requestMessages(b, msgs, join(path, key))
			}
		}
	}
	return nil
}

// tolerant runs read on b when it reads without error, which a trial run
// on a scratch builder tells: values whose shape the span conventions
// leave free are read when they are what read takes, and otherwise left
// to the audit.
func tolerant(b *builder, read func(b *builder) error) {
	scratch := builder{unique: b.unique, views: b.views, ledger: ledger{parsed: b.ledger.parsed}}
	if read(&scratch) == nil {
		_ = read(b)
	}
}
