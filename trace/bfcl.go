package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "bfcl",
		keys:  []string{"ground_truth"},
		read:  readBFCL,
		trace: func(o jsonvalue.Object) level { return when(o.Has("ground_truth"), decisive) },
	})
}

// readBFCL reads a Berkeley Function Calling Leaderboard possible_answer
// record {"id", "ground_truth"}. Single-turn ground truth is a list of
// {function: {param: [acceptable values...]}}; each entry is one call and
// args keep BFCL's parameter → acceptable-values object unchanged.
// Multi-turn ground truth is a list of turns, each a list of Python call
// strings, flattened in order and read as [readPythonic] reads them, each
// list a turn (with the record's question for it, when given). No ids, no
// outputs.
func readBFCL(b *builder, v any) error {
	gt, ok := v.([]any)
	path := ""
	if !ok {
		x, found := get(v, "ground_truth").([]any)
		if !found {
			return wantError(`a possible_answer record {"id", "ground_truth"}`, v)
		}
		gt, path = x, "ground_truth"
	}
	for i, e := range gt {
		p := index(path, i)
		switch e := e.(type) {
		case jsonvalue.Object:
			for _, m := range e {
				params, ok := m.Value.(jsonvalue.Object)
				if !ok {
					b.skip(m.Value, join(p, m.Key), "ground truth for %q that is not {param: values} but %s", m.Key, jsonvalue.Kind(m.Value))
					continue
				}
				// BFCL lists each parameter's acceptable values; an
				// object of other values is another format's.
				if i := slices.IndexFunc(params, func(m jsonvalue.Member) bool { _, ok := m.Value.([]any); return !ok }); i >= 0 {
					b.skip(m.Value, join(p, m.Key), "ground truth for %q whose %q is %s, not a list of acceptable values", m.Key, params[i].Key, jsonvalue.Kind(params[i].Value))
					continue
				}
				b.add(e, toolgrade.Call{Name: m.Key, Args: m.Value})
			}
		case []any:
			// A multi-turn entry: each is one user turn's calls.
			var q any
			if qs := list(v, "question"); i < len(qs) {
				q = qs[i]
			}
			b.userTurn(q)
			for j, s := range e {
				text, ok := s.(string)
				if !ok {
					return fieldError(index(p, j), "want a Python call string, got %s", jsonvalue.Kind(s))
				}
				if err := addPythonCalls(b, text, index(p, j)); err != nil {
					return err
				}
			}
		case string:
			if err := addPythonCalls(b, e, p); err != nil {
				return err
			}
		default:
			return fieldError(p, "want {function: {param: values}} or a list of Python calls, got %s", jsonvalue.Kind(e))
		}
	}
	return nil
}
