package trace

import (
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "bfcl_result",
		keys: []string{"result"},
		read: readBFCLResult,
		trace: func(o jsonvalue.Object) level {
			return when(o.Has("result") && o.Has("id") && !o.Has("jsonrpc") && !o.Has("ground_truth"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			return when(o.Has("result") && o.Has("id") && !o.Has("jsonrpc") && len(o) <= 8 && !o.Has("role"), decisive)
		}),
	})
}

// readBFCLResult reads a Berkeley Function Calling Leaderboard result
// record {"id", "result", ...}, as BFCL writes a model's answers. A
// prompting model's result is Python call text ("[f(a=1), g(b=2)]"); a
// function-calling model's is a list of {name: arguments} objects, the
// arguments an object or JSON text. Multi-turn results are lists of turns,
// each a list of steps, each such a list; they are read in order, each
// turn a user turn, as the possible_answer's turns are. No ids, no outputs.
func readBFCLResult(b *builder, v any) error {
	r, ok := first(v, "result")
	if !ok {
		return wantError(`a BFCL result record {"id", "result"}`, v)
	}
	if turns, ok := r.([]any); ok && len(turns) > 0 && !slices.ContainsFunc(turns, func(t any) bool { _, ok := t.([]any); return !ok }) {
		for i, t := range turns {
			b.userTurn(nil)
			if err := bfclResult(b, t, index("result", i)); err != nil {
				return err
			}
		}
		return nil
	}
	return bfclResult(b, r, "result")
}

func bfclResult(b *builder, r any, path string) error {
	switch r := r.(type) {
	case string:
		if r == "" {
			b.saw() // no answer
			return nil
		}
		return addPythonCalls(b, r, path)
	case []any:
		for i, e := range r {
			if err := bfclResult(b, e, index(path, i)); err != nil {
				return err
			}
		}
		return nil
	case jsonvalue.Object:
		for _, m := range r {
			c := toolgrade.Call{Name: m.Key}
			c.Args, c.ArgsRaw, c.Invalid = toolgrade.DecodeArgs(m.Value)
			b.add(r, c)
		}
		return nil
	}
	return fieldError(path, "want Python call text or {name: arguments}, got %s", jsonvalue.Kind(r))
}
