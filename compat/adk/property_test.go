package adk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/adk"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestADKMatchTypesNest(t *testing.T) {
	// An invocation that matches EXACT matches IN_ORDER, and one that
	// matches IN_ORDER matches ANY_ORDER; ANY_ORDER ignores call order.
	var ms []*adk.Metric
	for _, mt := range []adk.MatchType{adk.MatchExact, adk.MatchInOrder, adk.MatchAnyOrder} {
		m, _ := adk.New(adk.Options{MatchType: mt})
		ms = append(ms, m)
	}
	rapid.Check(t, func(t *rapid.T) {
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
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

// FuzzADKMatchType checks the match_type reader against a direct model of
// ADK's normalisation: strip, upper-case, "-" and " " to "_".
func FuzzADKMatchType(f *testing.F) {
	for _, s := range []string{"EXACT", " in-order ", "Any Order", "FUZZY", "ın_order", "\u00a0exact\u001f", "", "in order "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Through JSON, as a config file gives it: there "" is a value, and
		// ADK rejects it.
		text, _ := json.Marshal(s)
		var o adk.Options
		err := json.Unmarshal([]byte(`{"match_type":`+string(text)+`}`), &o)
		if err == nil {
			_, err = adk.New(o)
		}
		n := strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
		n = strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToUpper(n))
		want := n == "EXACT" || n == "IN_ORDER" || n == "ANY_ORDER"
		if (err == nil) != want {
			t.Fatalf("match_type %q: error %v, want accepted=%v", s, err, want)
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
	m, _ := adk.New(adk.Options{MatchType: "ANY_ORDER"})
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
		if comps := toolgrade.DetailOf[toolgrade.Components](&r); r.Error == "" && (r.Score < 0 || r.Score > 1 || len(comps) == 0) {
			t.Fatalf("score %v, components %v", r.Score, comps)
		}
	})
}
