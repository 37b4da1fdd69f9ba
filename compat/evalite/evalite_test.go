package evalite_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/evalite"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestEvaliteConformance runs every line of evalite.jsonl (the package's
// sample, and the shared corpus when present) through the profile, built
// from the line's config as a config file would build it, and checks the
// counts evalite reports in its metadata against the result's components.
func TestEvaliteConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "evalite.jsonl", Lines: 1312, More: counts})
}

// metadataKeys maps evalite's metadata counts to the components.
var metadataKeys = map[string]string{
	"exactMatches": "exact_matches", "nameOnlyMatches": "name_only_matches",
	"wrongOrMissing": "wrong_or_missing", "extras": "extras", "missing": "missing",
}

func counts(t *testing.T, l conformance.Line, r toolgrade.MetricResult) bool {
	md, _ := l.Expect.Get("metadata")
	o, _ := md.(jsonvalue.Object)
	ok := true
	for _, m := range o {
		comp, known := metadataKeys[m.Key]
		if !known {
			continue
		}
		want := jsonvalue.NumberFloat(m.Value.(json.Number))
		if got, has := toolgrade.DetailOf[toolgrade.Components](&r)[comp]; !has || got != want {
			t.Errorf("%s (line %d): %s %v (present %v), want %v (evalite's %s)", l.ID, l.Line, comp, got, has, want, m.Key)
			ok = false
		}
	}
	return ok
}

func ptr[T any](v T) *T { return &v }

// grade scores a case given as JSON with the options.
func grade(t *testing.T, opts evalite.Options, js string) toolgrade.MetricResult {
	t.Helper()
	m, err := evalite.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m.Grade(context.Background(), conformance.ParseCase(t, js))
}

func TestEvaliteQuirks(t *testing.T) {
	flexible := evalite.Options{Mode: ptr(evalite.ModeFlexible)}
	tests := []struct {
		name   string
		opts   evalite.Options
		cs     string
		want   float64
		err    string // a substring of the error, if one is wanted
		reason string // a substring of the reason
	}{
		{name: "both empty", cs: `{"tools_called":[],"expected_tools":[]}`, want: 1},
		{name: "nothing called", cs: `{"tools_called":[],"expected_tools":[{"name":"a"}]}`, want: 0},
		{name: "an unknown mode with an empty list", opts: evalite.Options{Mode: ptr(evalite.Mode("strict"))}, cs: `{"tools_called":[],"expected_tools":[{"name":"a"}]}`, want: 0},
		{name: "an unknown mode", opts: evalite.Options{Mode: ptr(evalite.Mode(""))}, cs: `{"tools_called":[{"name":"a"}],"expected_tools":[{"name":"a"}]}`, err: "invalid mode"},
		{name: "exact: name only earns half", cs: `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":2}}]}`, want: 0.5},
		{name: "exact: swapped calls score 0", cs: `{"tools_called":[{"name":"b"},{"name":"a"}],"expected_tools":[{"name":"a"},{"name":"b"}]}`, want: 0},
		{
			name: "exact: a surplus call counts wrong twice",
			cs:   `{"tools_called":[{"name":"a"},{"name":"b"}],"expected_tools":[{"name":"a"}]}`, want: 0.5, reason: "count wrong twice",
		},
		{
			name: "exact: missing calls cost only their credit",
			cs:   `{"tools_called":[{"name":"a"}],"expected_tools":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]}`, want: 0.25,
		},
		{name: "exact: expected without args accepts any", cs: `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a"}]}`, want: 1},
		{name: "exact: called without args", cs: `{"tools_called":[{"name":"a"}],"expected_tools":[{"name":"a","args":{}}]}`, want: 0.5},
		{name: "null args are not {}", cs: `{"tools_called":[{"name":"a","args":null}],"expected_tools":[{"name":"a","args":{}}]}`, want: 0.5},
		{name: "string args stay strings", cs: `{"tools_called":[{"name":"a","args":"{\"x\":1}"}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, want: 0.5},
		{name: "values by JavaScript's rules", cs: `{"tools_called":[{"name":"a","args":{"x":1.0,"y":-0,"z":[{}]}}],"expected_tools":[{"name":"a","args":{"z":[{}],"y":0,"x":1}}]}`, want: 1},
		{name: "an array is not an object", cs: `{"tools_called":[{"name":"a","args":{"l":[]}}],"expected_tools":[{"name":"a","args":{"l":{}}}]}`, want: 0.5},
		{
			name: "flexible: order-free, extras penalised once",
			opts: flexible, cs: `{"tools_called":[{"name":"b"},{"name":"a"},{"name":"c"}],"expected_tools":[{"name":"a"},{"name":"b"}]}`, want: 0.875,
		},
		{
			name: "flexible: expected without args only name-matches",
			opts: flexible, cs: `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a"}]}`, want: 0.5,
		},
		{
			name: "flexible: exact matches first, then names",
			opts: flexible, cs: `{"tools_called":[{"name":"a","args":{"x":2}},{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":1}},{"name":"a","args":{"x":3}}]}`, want: 0.75,
		},
		{
			name: "weights: exact is never read",
			opts: evalite.Options{Weights: &evalite.Weights{Exact: ptr(0.5), NameOnly: ptr(0.25)}},
			cs:   `{"tools_called":[{"name":"a"},{"name":"b","args":{}}],"expected_tools":[{"name":"a"},{"name":"b","args":{"x":1}}]}`, want: 0.625, reason: "weights.exact (0.5) not read",
		},
		{
			name: "clamped to 0",
			opts: evalite.Options{Weights: &evalite.Weights{WrongPenalty: ptr(2.0)}},
			cs:   `{"tools_called":[{"name":"a"},{"name":"x"}],"expected_tools":[{"name":"a"},{"name":"b"}]}`, want: 0,
		},
		{
			name: "clamped to 1",
			opts: evalite.Options{Weights: &evalite.Weights{WrongPenalty: ptr(-1.0)}},
			cs:   `{"tools_called":[{"name":"a"},{"name":"x"}],"expected_tools":[{"name":"a"},{"name":"b"}]}`, want: 1,
		},
		{name: "outputs are not compared", cs: `{"tools_called":[{"name":"a","output":1}],"expected_tools":[{"name":"a","output":2}]}`, want: 1, reason: "outputs not compared"},
		{name: "a null list", cs: `{"tools_called":[{"name":"a"}],"expected_tools":null}`, err: "TypeError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, tt.opts, tt.cs)
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || math.Abs(r.Score-tt.want) > 1e-12 || r.Threshold != nil {
				t.Errorf("score %v threshold %v error %q, want %v (reason: %s)", r.Score, r.Threshold, r.Error, tt.want, r.Reason)
			}
			if !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("reason %q lacks %q", r.Reason, tt.reason)
			}
		})
	}
}

func TestEvaliteWeightsJSON(t *testing.T) {
	tests := []struct {
		in, option string // option: the one the error names, "" for none
		unknown    bool
	}{
		{`{"mode":"flexible","weights":{"exact":2,"name_only":0.1,"extra_penalty":-1,"wrong_penalty":null}}`, "", false},
		{`{"weights":{"nameOnly":1}}`, "weights.nameOnly", true},
		{`{"weights":{"bonus":1}}`, "weights.bonus", true},
		{`{"weights":{"exact":"1"}}`, "weights.exact", false},
		{`{"weights":[1]}`, "weights", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var o evalite.Options
			err := toolgrade.DecodeOptions([]byte(tt.in), &o)
			oe, isOption := errors.AsType[*toolgrade.OptionError](err)
			switch {
			case tt.option == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.option != "" && (!isOption || oe.Option != tt.option || errors.Is(err, toolgrade.ErrUnknownOption) != tt.unknown):
				t.Fatalf("error %#v, want an OptionError naming %s (unknown: %v)", err, tt.option, tt.unknown)
			}
		})
	}
	// A null weight is 0, as JavaScript's arithmetic reads null.
	var o evalite.Options
	if err := json.Unmarshal([]byte(`{"weights":{"name_only":null}}`), &o); err != nil {
		t.Fatal(err)
	}
	if r := grade(t, o, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`); r.Score != 0 {
		t.Errorf("null name_only: score %v, want 0", r.Score)
	}
}

// FuzzEvaliteWeights checks that the weights read any JSON without
// panicking, and that what they read scores in [0, 1].
func FuzzEvaliteWeights(f *testing.F) {
	for _, s := range []string{`{}`, `{"name_only":1e308,"wrong_penalty":-1e308}`, `{"exact":null}`, `null`, `[]`, `{"x":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var w evalite.Weights
		if json.Unmarshal([]byte(s), &w) != nil {
			return
		}
		m, err := evalite.New(evalite.Options{Weights: &w})
		if err != nil {
			t.Fatal(err)
		}
		c := conformance.ParseCase(t, `{"tools_called":[{"name":"a"},{"name":"b","args":{}},{"name":"c"}],"expected_tools":[{"name":"a"},{"name":"b","args":{"x":1}}]}`)
		if r := m.Grade(context.Background(), c); r.Error == "" && (r.Score < 0 || r.Score > 1) {
			t.Fatalf("score %v", r.Score)
		}
	})
}

func TestEvaliteScoresAreClamped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.SampledFrom([]float64{-1, 0, 0.25, 0.5, 2})
		m, _ := evalite.New(evalite.Options{
			Mode:    ptr(rapid.SampledFrom([]evalite.Mode{evalite.ModeExact, evalite.ModeFlexible}).Draw(t, "mode")),
			Weights: &evalite.Weights{NameOnly: ptr(w.Draw(t, "name_only")), ExtraPenalty: ptr(w.Draw(t, "extra")), WrongPenalty: ptr(w.Draw(t, "wrong"))},
		})
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
		r := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		if r.Error != "" || r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v, error %q", r.Score, r.Error)
		}
		if len(exp) > 0 && len(got) > 0 && len(r.Matches)+len(r.Missing) != len(exp) {
			t.Fatalf("%d matches and %d missing of %d expected", len(r.Matches), len(r.Missing), len(exp))
		}
	})
}

func TestEvaliteFlexibleIgnoresOrder(t *testing.T) {
	// Exact matches pair equal canonical keys and name-only matches equal
	// names: both counts are minima per key, whatever the order.
	m, _ := evalite.New(evalite.Options{Mode: ptr(evalite.ModeFlexible)})
	rapid.Check(t, func(t *rapid.T) {
		exp, got := conformance.CallsGen.Draw(t, "expected"), conformance.CallsGen.Draw(t, "called")
		a := m.Grade(context.Background(), &toolgrade.Case{Expected: exp, Called: got})
		b := m.Grade(context.Background(), &toolgrade.Case{Expected: rapid.Permutation(exp).Draw(t, "e2"), Called: rapid.Permutation(got).Draw(t, "c2")})
		if a.Score != b.Score {
			t.Fatalf("score %v, then %v after reordering", a.Score, b.Score)
		}
	})
}

func ExampleNew() {
	m, err := evalite.New(evalite.Options{}) // exact mode, default weights
	if err != nil {
		panic(err)
	}
	c := &toolgrade.Case{
		Called: []toolgrade.Call{
			{Name: "search", Args: jsonvalue.Object{{Key: "q", Value: "paris"}}},
			{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: "Paris"}}},
		},
		Expected: []toolgrade.Call{
			{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: "Paris"}}},
			{Name: "book"},
		},
	}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score)
	fmt.Println(r.Reason)
	// Output:
	// 0
	// exact mode, by position: 0 exact, 0 name-only (0.5 each), 2 wrong (−0.25 each) of 2 expected; call #0 search is not get_weather, the expected call at its place; call #1 get_weather is not book, the expected call at its place
}
