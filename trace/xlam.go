package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "xlam",
		keys: []string{"answers"},
		read: readXLAM,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("answers") && o.Has("query") && !o.Has("correct_answer"), decisive)
		},
	})
}

// readXLAM reads xLAM / APIGen function-calling records {"id", "query",
// "tools", "answers"}: answers (a JSON string or a list) holds the calls
// {"name", "arguments"}. No ids, no outputs.
func readXLAM(b *builder, v any) error {
	a, ok := first(v, "answers")
	if !ok {
		return wantError(`an xLAM record {"query", "tools", "answers"}`, v)
	}
	if text, isText := a.(string); isText {
		x, err := b.parse(text)
		if err != nil {
			return fieldError("answers", "not JSON: %v", err)
		}
		a = x
	}
	calls, ok := a.([]any)
	if !ok {
		return fieldError("answers", "want a list of calls, got %s", jsonvalue.Kind(a))
	}
	b.saw()
	for i, c := range calls {
		p := index("answers", i)
		n, err := name(c, "name", p)
		if err != nil {
			return err
		}
		call := toolgrade.Call{Name: n}
		nullableArgs(&call, c, "arguments", "parameters")
		b.add(c, call)
	}
	return nil
}
