package trace

import (
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "deepeval",
		keys:  []string{"toolSpans", "baseSpans", "llmSpans", "agentSpans", "retrieverSpans", "toolsCalled", "tools_called", "expectedTools", "expected_tools", "name"},
		read:  readDeepEval,
		trace: func(o jsonvalue.Object) level { return when(hasAny(o, deepEvalKeys...), decisive) },
		item: itemObject(func(o jsonvalue.Object) level {
			// A bare tool call {"name", "input_parameters"}, as other
			// formats' calls look too.
			return when(!o.Has("role") && o.Has("name") && hasAny(o, "inputParameters", "input_parameters", "args", "input", "arguments"), guess)
		}),
	})
}

// deepEvalKeys mark DeepEval / Confident AI traces, goldens and test cases.
var deepEvalKeys = []string{"toolSpans", "baseSpans", "llmSpans", "agentSpans", "retrieverSpans",
	"toolsCalled", "tools_called", "expectedTools", "expected_tools"}

// deepEvalCallKeys are the keys of a DeepEval ToolCall, in either case,
// and the other spellings of its arguments and id that readDeepEval reads.
var deepEvalCallKeys = []string{"name", "description", "reasoning", "output",
	"input_parameters", "inputParameters", "input", "args", "arguments", "id"}

// foreignKey returns the first key of the object v that is not one of
// keys, or "" (also when v is no object).
func foreignKey(v any, keys []string) string {
	o, _ := v.(jsonvalue.Object)
	for _, m := range o {
		if !slices.Contains(keys, m.Key) {
			return m.Key
		}
	}
	return ""
}

// readDeepEval reads DeepEval / Confident AI JSON: a trace (baseSpans,
// llmSpans, toolSpans, ..., and trace-level toolsCalled), a golden or test
// case (tools_called, expected_tools, in snake_case or camelCase), or a
// bare list of tool calls {"name", "input_parameters", "output"}.
//
// In a trace, each toolSpans[].toolsCalled entry is a call (args =
// inputParameters, output = its own output, else the span's), spans in
// startTime order; a tool span without toolsCalled is itself the call
// (its name and input). Trace-level toolsCalled entries follow. In a
// golden, tools_called entries are the calls; expected_tools are gold
// answers, not calls. No ids.
func readDeepEval(b *builder, v any) error {
	if l, ok := v.([]any); ok {
		return deepEvalCalls(b, l, "", nil)
	}
	o, ok := v.(jsonvalue.Object)
	if !ok || !hasAny(o, deepEvalKeys...) {
		return wantError("a DeepEval trace, golden or test case", v)
	}
	b.saw()
	b.notCallItself(o, "a trace or test case, with its name and input")
	for _, key := range []string{"expected_tools", "expectedTools"} {
		if x, ok := o.Get(key); ok {
			b.notCall(x, "expected tools: the gold answer, not calls made")
		}
	}
	for _, key := range []string{"baseSpans", "llmSpans", "agentSpans", "retrieverSpans"} {
		for _, s := range list(o, key) {
			// Their name and input are the span's; a call in them is
			// audited still.
			b.notCallItself(asObject(s), "a span that is not a tool's")
		}
	}
	for _, m := range o {
		if strings.HasSuffix(m.Key, "Spans") && !slices.Contains(deepEvalKeys, m.Key) {
			if l, ok := m.Value.([]any); ok && len(l) > 0 {
				b.skip(m.Value, m.Key, "span list %q", m.Key)
			}
		}
	}
	if spans, ok := get(o, "toolSpans").([]any); ok {
		type timed struct {
			span  any
			i     int
			start int64
		}
		order := make([]timed, len(spans))
		all := true
		for i, s := range spans {
			order[i].span, order[i].i = s, i
			var ok bool
			order[i].start, ok = timeKey(get(s, "startTime"))
			all = all && ok
		}
		if all {
			sorting.Stable(order, func(a, b timed) int { return compareInt(a.start, b.start) })
		}
		for _, t := range order {
			p := index("toolSpans", t.i)
			out, hasOut := first(t.span, "output")
			if calls, ok := get(t.span, "toolsCalled").([]any); ok && len(calls) > 0 {
				if err := deepEvalCalls(b, calls, join(p, "toolsCalled"), &spanOutput{out, hasOut}); err != nil {
					return err
				}
				continue
			}
			n, err := name(t.span, "name", p)
			if err != nil {
				return err
			}
			c := toolgrade.Call{Name: n}
			args(&c, t.span, "input")
			k := b.add(t.span, c)
			if hasOut {
				b.set(k, out)
			}
		}
	}
	for _, key := range []string{"toolsCalled", "tools_called"} {
		if calls, ok := get(o, key).([]any); ok {
			if err := deepEvalCalls(b, calls, key, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// spanOutput is a tool span's output, given to its calls that have none.
type spanOutput struct {
	value any
	ok    bool
}

func deepEvalCalls(b *builder, calls []any, path string, span *spanOutput) error {
	for i, e := range calls {
		p := index(path, i)
		if k := foreignKey(e, deepEvalCallKeys); path == "" && k != "" {
			// A bare list is DeepEval's only where its entries are
			// ToolCalls: an object of other keys (a message, a span,
			// a record) is another format's, and is not read as one.
			b.skip(e, p, "entry with key %q, which a DeepEval tool call has not", k)
			continue
		}
		n, err := name(e, "name", p)
		if err != nil {
			return err
		}
		c := toolgrade.Call{Name: n, ID: id(get(e, "id"))}
		args(&c, e, "inputParameters", "input_parameters", "input", "args", "arguments")
		k := b.add(e, c)
		if out := get(e, "output"); out != nil {
			b.set(k, out)
		} else if span != nil && span.ok {
			b.set(k, span.value)
		}
	}
	return nil
}
