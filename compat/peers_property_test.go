package compat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Properties and fuzz tests of the axion, adk and deepfabric profiles.

// callGen makes small calls whose arguments collide often across Python's
// equal-but-different spellings (1, 1.0, true, "1").
var callGen = rapid.Custom(func(t *rapid.T) toolgrade.Call {
	values := []any{json.Number("1"), json.Number("1.0"), true, "1", nil, json.Number("0")}
	args := jsonvalue.Object{}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"x", "y"}), 0, 2, func(s string) string { return s }).Draw(t, "keys") {
		args = append(args, jsonvalue.Member{Key: k, Value: rapid.SampledFrom(values).Draw(t, "value")})
	}
	return toolgrade.Call{Name: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "name"), Args: args}
})

var callsGen = rapid.SliceOfN(callGen, 0, 5)

func TestAxionNameOnlyIgnoresOrder(t *testing.T) {
	// Matching by name alone is an equivalence, so greedy pairing finds a
	// maximum matching whatever the order of the calls.
	m, _ := compat.NewAxion(compat.AxionOptions{Scoring: "f1"})
	rapid.Check(t, func(t *rapid.T) {
		exp, got := callsGen.Draw(t, "expected"), callsGen.Draw(t, "called")
		a := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		b := m.Grade(context.Background(), &toolgrade.Case{Expected: rapid.Permutation(exp).Draw(t, "e2"), Called: rapid.Permutation(got).Draw(t, "c2")})
		if a.Score != b.Score {
			t.Fatalf("score %v, then %v after reordering", a.Score, b.Score)
		}
	})
}

func TestAxionScoresAreProportions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, _ := compat.NewAxion(compat.AxionOptions{
			CheckParameters:           rapid.Bool().Draw(t, "check"),
			ParameterMatchingStrategy: rapid.SampledFrom([]string{"exact", "subset", "fuzzy"}).Draw(t, "strategy"),
			Scoring:                   rapid.SampledFrom([]string{"recall", "precision", "f1"}).Draw(t, "scoring"),
		})
		exp, got := callsGen.Draw(t, "expected"), callsGen.Draw(t, "called")
		r := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		if r.Error != "" || r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v, error %q", r.Score, r.Error)
		}
		if len(r.Matches)+len(r.Missing) != len(exp) && len(exp) > 0 {
			t.Fatalf("%d matches and %d missing of %d expected", len(r.Matches), len(r.Missing), len(exp))
		}
	})
}

func TestADKMatchTypesNest(t *testing.T) {
	// An invocation that matches EXACT matches IN_ORDER, and one that
	// matches IN_ORDER matches ANY_ORDER; ANY_ORDER ignores call order.
	var ms []*compat.ADK
	for _, mt := range []string{"EXACT", "IN_ORDER", "ANY_ORDER"} {
		m, _ := compat.NewADK(compat.ADKOptions{MatchType: mt})
		ms = append(ms, m)
	}
	rapid.Check(t, func(t *rapid.T) {
		exp, got := callsGen.Draw(t, "expected"), callsGen.Draw(t, "called")
		c := &toolgrade.Case{Expected: exp, Called: got}
		var scores []float64
		for _, m := range ms {
			scores = append(scores, m.Grade(context.Background(), c).Score)
		}
		if scores[0] > scores[1] || scores[1] > scores[2] {
			t.Fatalf("EXACT, IN_ORDER, ANY_ORDER scored %v", scores)
		}
		shuffled := &toolgrade.Case{Expected: exp, Called: rapid.Permutation(got).Draw(t, "shuffled")}
		if s := ms[2].Grade(context.Background(), shuffled).Score; s != scores[2] {
			t.Fatalf("ANY_ORDER scored %v, then %v after shuffling the calls", scores[2], s)
		}
	})
}

func TestDeepFabricDefaultWeights(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		multi := rapid.Bool().Draw(t, "multi")
		m, _ := compat.NewDeepFabric(compat.DeepFabricOptions{MultiTurn: multi})
		r := m.Grade(context.Background(), &toolgrade.Case{Expected: callsGen.Draw(t, "expected"), Called: callsGen.Draw(t, "called")})
		c := r.Components
		want := float64(c["tool_selection"]*0.40) + float64(c["parameter_accuracy"]*0.35) + float64(c["execution_success"]*0.25)
		if r.Error != "" || r.Score != want {
			t.Fatalf("score %v, want %v from %v (error %q)", r.Score, want, c, r.Error)
		}
		if !multi && c["execution_success"] > min(c["tool_selection"], c["parameter_accuracy"]) {
			t.Fatalf("single-turn execution success without selection and parameters: %v", c)
		}
	})
}

// FuzzADKMatchType checks the match_type reader against a direct model of
// ADK's normalisation: strip, upper-case, "-" and " " to "_".
func FuzzADKMatchType(f *testing.F) {
	for _, s := range []string{"EXACT", " in-order ", "Any Order", "FUZZY", "ın_order", "\u00a0exact\u001f", "", "in order "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, err := compat.NewADK(compat.ADKOptions{MatchType: s})
		n := strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
		n = strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToUpper(n))
		want := n == "EXACT" || n == "IN_ORDER" || n == "ANY_ORDER"
		if (err == nil) != want {
			t.Fatalf("match_type %q: error %v, want accepted=%v", s, err, want)
		}
	})
}

// FuzzDeepFabricCase feeds arbitrary JSON to the deepfabric profile, which
// reads calls, samples and tool definitions itself: it must never panic,
// and must give either an error or all six components.
func FuzzDeepFabricCase(f *testing.F) {
	for _, s := range []string{
		`{"expected_tools":[{"name":"a","args":{"x":1}}],"tools_called":[{"name":"a","args":{"x":"1"}}],"available_tools":[{"name":"a","parameters":[{"name":"x","type":"int","required":true}]}]}`,
		`{"expected_tools":[],"tools_called":[],"available_tools":[{"type":"function","function":{"name":"a","parameters":{"properties":{"x":{"type":["string"]},"y":null},"required":["x","z"]}}}]}`,
		`{"samples":[{"expected_tools":[{"name":"a","args":{"q":""}}],"tools_called":[{"name":"a","args":null}],"final_response":" "}]}`,
		`{"samples":[{"available_tools":[{"name":"a","parameters":[{"name":"x"}]}]}]}`,
		`{"available_tools":{"name":"a"}}`,
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, js string, multi bool) {
		v, err := jsonvalue.ParseString(js)
		if err != nil {
			return
		}
		obj, ok := v.(jsonvalue.Object)
		if !ok {
			return
		}
		c := &toolgrade.Case{Raw: obj}
		c.AvailableTools, _ = obj.Get("available_tools")
		if v, ok := obj.Get("tools_called"); ok {
			if c.Called, err = toolgrade.DecodeCalls(v); err != nil {
				return
			}
		}
		if v, ok := obj.Get("expected_tools"); ok {
			if c.Expected, err = toolgrade.DecodeCalls(v); err != nil {
				return
			}
		}
		m, _ := compat.NewDeepFabric(compat.DeepFabricOptions{MultiTurn: multi})
		r := m.Grade(context.Background(), c)
		if r.Error == "" && len(r.Components) != 6 {
			t.Fatalf("components %v", r.Components)
		}
	})
}

// FuzzADKInvocations feeds arbitrary invocations to the adk profile: no
// panic, and a score is a mean of 0s and 1s.
func FuzzADKInvocations(f *testing.F) {
	for _, s := range []string{
		`{"invocations":[{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":1.0}}]}]}`,
		`{"invocations":[]}`,
		`{"invocations":[{"tools_called":[{"name":"a","args":[1]}]}]}`,
		`{"invocations":{"tools_called":[]}}`,
		`{"invocations":[1,{"expected_tools":null}]}`,
	} {
		f.Add(s)
	}
	m, _ := compat.NewADK(compat.ADKOptions{MatchType: "ANY_ORDER"})
	f.Fuzz(func(t *testing.T, js string) {
		v, err := jsonvalue.ParseString(js)
		if err != nil {
			return
		}
		obj, ok := v.(jsonvalue.Object)
		if !ok {
			return
		}
		r := m.Grade(context.Background(), &toolgrade.Case{Raw: obj})
		if r.Error == "" && (r.Score < 0 || r.Score > 1 || len(r.Components) == 0) {
			t.Fatalf("score %v, components %v", r.Score, r.Components)
		}
	})
}
