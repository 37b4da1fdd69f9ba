package ragas_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/compat/ragas"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// permuteArgs returns the calls with the members of each call's
// arguments in a drawn order.
func permuteArgs(t *rapid.T, calls []toolgrade.Call, label string) []toolgrade.Call {
	out := make([]toolgrade.Call, len(calls))
	for i, c := range calls {
		args, _ := c.Args.(jsonvalue.Object)
		c.Args = jsonvalue.Object(rapid.Permutation(args).Draw(t, label))
		out[i] = c
	}
	return out
}

func TestRagasF1IgnoresArgumentOrder(t *testing.T) {
	// F1 compares sets of (name, frozenset(args.items())): neither the
	// order of the arguments nor that of the calls can change it.
	m, _ := ragas.New(ragas.Options{RagasMetric: ragas.ToolCallF1})
	rapid.Check(t, func(t *rapid.T) {
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
		a := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		exp2 := rapid.Permutation(permuteArgs(t, exp, "eargs")).Draw(t, "e2")
		got2 := rapid.Permutation(permuteArgs(t, got, "cargs")).Draw(t, "c2")
		b := m.Grade(context.Background(), &toolgrade.Case{Expected: exp2, Called: got2})
		if a.Error != "" || b.Error != "" || a.Score != b.Score {
			t.Fatalf("score %v (%s), then %v (%s) after reordering", a.Score, a.Error, b.Score, b.Error)
		}
		if a.Score < 0 || a.Score > 1 {
			t.Fatalf("score %v out of [0, 1]", a.Score)
		}
	})
}

func TestRagasAccuracyAnyOrderIgnoresCallOrder(t *testing.T) {
	// Without strict order both lists are sorted before they are zipped,
	// so the order of the calls made cannot change the score.
	f := false
	m, _ := ragas.New(ragas.Options{StrictOrder: &f})
	rapid.Check(t, func(t *rapid.T) {
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
		if exp == nil {
			exp = []toolgrade.Call{}
		}
		a := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		b := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: rapid.Permutation(got).Draw(t, "c2")})
		if a.Error != "" || b.Error != "" || a.Score != b.Score {
			t.Fatalf("score %v (%s), then %v (%s) after permuting the calls", a.Score, a.Error, b.Score, b.Error)
		}
		if a.Score < 0 || a.Score > 1 {
			t.Fatalf("score %v out of [0, 1]", a.Score)
		}
	})
}

func TestRagasAccuracyOfItself(t *testing.T) {
	// A call list graded against itself scores 1 in either order mode.
	rapid.Check(t, func(t *rapid.T) {
		strict := rapid.Bool().Draw(t, "strict")
		m, _ := ragas.New(ragas.Options{StrictOrder: &strict})
		calls := conformance.CallsGen.Draw(t, "calls")
		if calls == nil {
			calls = []toolgrade.Call{}
		}
		if r := m.Grade(context.Background(), &toolgrade.Case{Expected: calls, Called: calls}); r.Error != "" || r.Score != 1 {
			t.Fatalf("score %v (%s), want 1", r.Score, r.Error)
		}
	})
}
