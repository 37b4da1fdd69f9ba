package axion_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/axion"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
)

func TestAxionNameOnlyIgnoresOrder(t *testing.T) {
	// Matching by name alone is an equivalence, so greedy pairing finds a
	// maximum matching whatever the order of the calls.
	m, _ := axion.New(axion.Options{Scoring: "f1"})
	rapid.Check(t, func(t *rapid.T) {
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
		a := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		b := m.Grade(context.Background(), &toolgrade.Case{Expected: rapid.Permutation(exp).Draw(t, "e2"), Called: rapid.Permutation(got).Draw(t, "c2")})
		if a.Score != b.Score {
			t.Fatalf("score %v, then %v after reordering", a.Score, b.Score)
		}
	})
}

func TestAxionScoresAreProportions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, _ := axion.New(axion.Options{
			CheckParameters:           rapid.Bool().Draw(t, "check"),
			ParameterMatchingStrategy: rapid.SampledFrom([]axion.Strategy{"exact", "subset", "fuzzy"}).Draw(t, "strategy"),
			Scoring:                   rapid.SampledFrom([]axion.Scoring{"recall", "precision", "f1"}).Draw(t, "scoring"),
		})
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
		r := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		if r.Error != "" || r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v, error %q", r.Score, r.Error)
		}
		if len(r.Matches)+len(r.Missing) != len(exp) && len(exp) > 0 {
			t.Fatalf("%d matches and %d missing of %d expected", len(r.Matches), len(r.Missing), len(exp))
		}
	})
}
