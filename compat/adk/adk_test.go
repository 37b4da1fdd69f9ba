package adk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/adk"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestADKConformance runs every line of adk.jsonl (the package's sample,
// and the shared corpus when present): the scores ADK's real
// TrajectoryEvaluator gave, and its per-invocation scores.
func TestADKConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "adk.jsonl", Lines: 997, More: checkInvocations})
}

// checkInvocations compares the per-invocation scores ADK gave with the
// result's components.
func checkInvocations(t *testing.T, l conformance.Line, r toolgrade.MetricResult) bool {
	t.Helper()
	per, _ := l.Expect.Get("per_invocation")
	if per == nil || r.Error != "" {
		return true
	}
	ok := true
	list, _ := per.([]any)
	comps := toolgrade.DetailOf[toolgrade.Components](&r)
	if len(comps) != len(list) {
		t.Errorf("%s (line %d): %d invocation components, want %d", l.ID, l.Line, len(comps), len(list))
		ok = false
	}
	for i, v := range list {
		want := jsonvalue.NumberFloat(v.(json.Number))
		if got, has := comps["invocation_"+strconv.Itoa(i)]; !has || got != want {
			t.Errorf("%s (line %d): invocation_%d = %v, want %v", l.ID, l.Line, i, got, want)
			ok = false
		}
	}
	return ok
}

func TestADKQuirks(t *testing.T) {
	const (
		a1  = `{"name":"a","args":{"x":1}}`
		a1f = `{"name":"a","args":{"x":1.0}}`
		a1t = `{"name":"a","args":{"x":true}}`
		a1s = `{"name":"a","args":{"x":"1"}}`
		b   = `{"name":"b","args":{}}`
		bn  = `{"name":"b","args":null}`
		c   = `{"name":"c","args":{}}`
	)
	inv := func(called, expected string) string {
		return `{"tools_called":[` + called + `],"expected_tools":[` + expected + `]}`
	}
	for _, tt := range []struct {
		name, matchType string
		invocations     []string
		want            float64 // NaN: an error result
	}{
		{"exact", "EXACT", []string{inv(a1+","+b, a1+","+b)}, 1},
		{"exact: order matters", "EXACT", []string{inv(b+","+a1, a1+","+b)}, 0},
		{"exact: extra call", "EXACT", []string{inv(a1+","+b+","+c, a1+","+b)}, 0},
		{"python equality: 1 == 1.0 == true", "EXACT", []string{inv(a1f, a1), inv(a1t, a1)}, 1},
		{"python equality: \"1\" != 1", "EXACT", []string{inv(a1s, a1)}, 0},
		{"null args differ from {}", "EXACT", []string{inv(bn, b)}, 0},
		{"null args equal null", "EXACT", []string{inv(bn, bn)}, 1},
		{"in order with extras", "IN_ORDER", []string{inv(c+","+a1+","+c+","+b, a1+","+b)}, 1},
		{"in order: wrong order", "IN_ORDER", []string{inv(b+","+a1, a1+","+b)}, 0},
		{"in order: nothing expected", "IN_ORDER", []string{inv(a1, "")}, 1},
		{"in order: nothing called", "IN_ORDER", []string{inv("", a1)}, 0},
		{"any order", "ANY_ORDER", []string{inv(b+","+c+","+a1, a1+","+b)}, 1},
		{"any order: duplicates need duplicates", "ANY_ORDER", []string{inv(a1, a1+","+a1)}, 0},
		{"mean over invocations", "ANY_ORDER", []string{inv(a1, a1), inv("", b), inv(b, b)}, 2.0 / 3},
		{"spelling: in-order", "in-order", []string{inv(b+","+a1, a1)}, 1},
		{"spelling:  Any Order ", " Any Order ", []string{inv(b+","+a1, a1)}, 1},
		{"no invocations: not evaluated", "EXACT", nil, math.NaN()},
		{"list args: ValidationError", "EXACT", []string{inv(`{"name":"a","args":[1]}`, a1)}, math.NaN()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := adk.New(adk.Options{MatchType: adk.MatchType(tt.matchType)})
			if err != nil {
				t.Fatal(err)
			}
			js := `{"invocations":[`
			for i, s := range tt.invocations {
				if i > 0 {
					js += ","
				}
				js += s
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, js+`]}`))
			if math.IsNaN(tt.want) {
				if r.Error == "" {
					t.Fatalf("score %v, want an error result", r.Score)
				}
				return
			}
			if r.Error != "" {
				t.Fatalf("error %s", r.Error)
			}
			if r.Score != tt.want {
				t.Errorf("score %v, want %v (reason: %s)", r.Score, tt.want, r.Reason)
			}
			if r.Success != (r.Score >= 1) {
				t.Errorf("success %v with the default threshold 1 and score %v", r.Success, r.Score)
			}
		})
	}
}

func TestADKMatchTypes(t *testing.T) {
	// As config files give them: JSON, numbers included.
	for _, tt := range []struct {
		in string
		ok bool
	}{
		{`null`, true}, {`"EXACT"`, true}, {`"exact"`, true}, {`" Exact "`, true}, {`"in_order"`, true},
		{`"In-Order"`, true}, {`"any order"`, true}, {`"\u00a0ANY-ORDER\t"`, true}, {`"ın_order"`, true},
		{`0`, true}, {`2`, true}, {`1`, true}, {`2.0`, true},
		{`"FUZZY"`, false}, {`"INORDER"`, false}, {`"in__order"`, false}, {`""`, false},
		{`3`, false}, {`-1`, false}, {`1.5`, false}, {`true`, false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			var o adk.Options
			err := json.Unmarshal([]byte(`{"match_type":`+tt.in+`}`), &o)
			if err == nil {
				_, err = adk.New(o)
			}
			if (err == nil) != tt.ok {
				t.Errorf("match_type %s: error %v, want ok=%v", tt.in, err, tt.ok)
			}
		})
	}
	// From Go: the constants, and the same spellings as names.
	for _, mt := range []adk.MatchType{"", adk.MatchExact, adk.MatchInOrder, adk.MatchAnyOrder, "in-order"} {
		if _, err := adk.New(adk.Options{MatchType: mt}); err != nil {
			t.Errorf("MatchType %q: %v", mt, err)
		}
	}
	_, err := adk.New(adk.Options{MatchType: "FUZZY"})
	var oe *toolgrade.OptionError
	if !errors.As(err, &oe) || oe.Option != "match_type" {
		t.Errorf("MatchType FUZZY: error %v, want an *OptionError for match_type", err)
	}
}

func TestADKCaseWithoutInvocations(t *testing.T) {
	// A case of its own calls is one invocation.
	m, err := adk.New(adk.Options{MatchType: "IN_ORDER", Threshold: toolgrade.Float(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Grade(context.Background(), conformance.ParseCase(t, `{"tools_called":[{"name":"a","args":{}}],"expected_tools":[{"name":"a","args":{}}]}`))
	if comps := toolgrade.DetailOf[toolgrade.Components](&r); r.Score != 1 || !r.Success || comps["invocation_0"] != 1 {
		t.Errorf("got %+v", r)
	}
}

func ExampleNew() {
	m, err := adk.New(adk.Options{MatchType: "IN_ORDER", Threshold: toolgrade.Float(0.5)})
	if err != nil {
		panic(err)
	}
	search := toolgrade.Call{Name: "search", Args: jsonvalue.MustFrom(map[string]any{"q": "paris"})}
	book := toolgrade.Call{Name: "book", Args: jsonvalue.MustFrom(map[string]any{"seats": 2})}
	// One invocation: the case's own calls.
	c := &toolgrade.Case{
		Expected: []toolgrade.Call{search, book},
		Called:   []toolgrade.Call{book, search},
	}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score, r.Success)
	fmt.Println(r.Reason)
	// Output:
	// 0 false
	// 0 of 1 invocations match (IN_ORDER): invocation 0: expected call 1 book({"seats":2}) not made in order after the ones before it
}
