package trace

import (
	"strings"

	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "langfuse",
		keys: []string{"observations", "data", "type"},
		read: readLangfuse,
		trace: func(o jsonvalue.Object) level {
			l := list(o, "data")
			return when(o.Has("observations") || len(l) > 0 && isObservationValue(l[0]), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level { return when(isObservation(o), decisive) }),
	})
}

func isObservationValue(v any) bool {
	o, ok := v.(jsonvalue.Object)
	return ok && isObservation(o)
}

// isObservation says whether o is a Langfuse trace or observation.
func isObservation(o jsonvalue.Object) bool {
	return o.Has("observations") || (o.Has("type") && hasAny(o, "traceId", "parentObservationId") && o.Has("startTime"))
}

// readLangfuse reads Langfuse exports: a trace with its observations
// {"id", "observations": [...]} (the public API's trace, or a UI export),
// {"data": [...]} pages of traces or observations, or a list of either.
// Observations are read in startTime order.
//
// A GENERATION's output holds the calls the model made (a chat message, a
// list of them, a provider response or LangChain generations). A TOOL
// observation is a call named after the observation, input the arguments,
// output the result (failed when its level is ERROR or its output is a
// ToolMessage with status "error"); it answers the
// model's call it ran (by tool_call_id, else the earliest unanswered call of
// that tool) or, without one, is a call of its own. A SPAN named after a
// tool the model called and not yet answered is that call's execution.
// Other observations (other spans, events, agents, chains, retrievers,
// evaluators) are not calls.
func readLangfuse(b *builder, v any) error {
	b.unique = true
	var obs []lfObs
	var collect func(v any, path string) bool
	collect = func(v any, path string) bool {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				if !collect(e, index(path, i)) {
					return false
				}
			}
			return len(v) > 0
		case jsonvalue.Object:
			if d, ok := get(v, "data").([]any); ok {
				return collect(d, join(path, "data"))
			}
			if l, ok := get(v, "observations").([]any); ok {
				// The trace has a name, an input and an output (the
				// application's); the UI's export keeps it apart.
				b.notCallItself(v, "a trace, not a call")
				if t := obj(v, "trace"); t != nil {
					b.notCallItself(t, "a trace, not a call")
					b.read(get(t, "observations")) // the observations below, again
				}
				if len(l) == 0 {
					b.saw()
				}
				for i, o := range l {
					oo, isObj := o.(jsonvalue.Object)
					if !isObj {
						return false
					}
					obs = append(obs, lfObs{o: oo, path: index(join(path, "observations"), i)})
				}
				return true
			}
			if v.Has("type") && hasAny(v, "traceId", "trace_id", "startTime", "parentObservationId") {
				obs = append(obs, lfObs{o: v, path: path})
				return true
			}
		}
		return false
	}
	if !collect(v, "") {
		return wantError(`a Langfuse trace {"observations": [...]}, {"data": [...]} or a list of observations`, v)
	}
	sorting.Stable(obs, func(a, b lfObs) int {
		return strings.Compare(str(a.o, "startTime"), str(b.o, "startTime"))
	})
	var vercel vercelRun
	for _, o := range obs {
		if err := lfRead(b, &vercel, o); err != nil {
			return err
		}
	}
	return vercel.flush(b)
}

type lfObs struct {
	o    jsonvalue.Object
	path string
}

func lfRead(b *builder, vercel *vercelRun, ob lfObs) error {
	o := ob.o
	b.saw()
	t := strings.ToUpper(str(o, "type"))
	attrs := vercelAttributes(b, o)
	switch t {
	case "GENERATION":
		b.notCallItself(o, "a model call, its input the messages")
		if attrs != nil {
			return vercel.observation(b, o, attrs, ob.path)
		}
		return modelOutput(b, get(o, "output"), join(ob.path, "output"))
	case "TOOL", "SPAN":
		n := str(o, "name")
		in, hasIn := o.Get("input")
		out, hasOut := o.Get("output")
		callID := id(get(in, "tool_call_id"))
		if attrs != nil {
			// An AI SDK tool span: its id among the attributes, its
			// result JSON text.
			callID = id(get(attrs, "ai.toolCall.id"))
			out = vercelJSON(b, out)
		}
		if content, msgID, ok := toolMessage(out); ok {
			out = content
			if callID == "" {
				callID = msgID
			}
		}
		if strings.EqualFold(str(o, "level"), "ERROR") && !failedOutput(out) {
			if out == nil {
				out = get(o, "statusMessage")
			}
			out, hasOut = failed(out), true
		}
		if t == "SPAN" && !lfRunsCall(b, n, callID) {
			b.notCallItself(o, "a span of the application, not a tool's")
			return nil
		}
		if hasIn && in == nil {
			hasIn = false
		}
		toolRun(b, o, n, callID, in, hasIn, out, hasOut)
	case "EVENT", "AGENT", "CHAIN", "RETRIEVER", "EVALUATOR", "EMBEDDING", "GUARDRAIL":
		b.notCallItself(o, "an observation that is not a tool's")
	default:
		b.skip(o, ob.path, "observation of type %q", str(o, "type"))
	}
	return nil
}

// lfRunsCall says whether a span is the execution of a call the model
// made: one with its id, or an unanswered one with its name.
func lfRunsCall(b *builder, n, callID string) bool {
	for k := range b.calls {
		if callID != "" && b.calls[k].ID == callID {
			return true
		}
		if n != "" && b.calls[k].Name == n && !b.answered[k] {
			return true
		}
	}
	return false
}
