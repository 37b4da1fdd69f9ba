package state_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/state"
)

// states is a case built in code whose record gives these states and
// rules; a nil one is left out.
func states(expected, final, rules any) *toolgrade.Case {
	c := &toolgrade.Case{}
	for _, f := range []jsonvalue.Member{{Key: "expected_state", Value: expected}, {Key: "final_state", Value: final}, {Key: "state_rules", Value: rules}} {
		if f.Value != nil {
			c.Raw = append(c.Raw, f)
		}
	}
	return c
}

func parse(t testing.TB, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// diffText writes the diffs as "path note" lines, for comparison.
func diffText(diffs []toolgrade.ArgDiff) []string {
	out := []string{}
	for _, d := range diffs {
		s := d.Path
		if d.Note != "" {
			s += " " + d.Note
		}
		out = append(out, s)
	}
	return out
}

func TestGrade(t *testing.T) {
	for _, tc := range []struct {
		name            string
		opts            state.Options
		expected, final string
		rules           string // the case's state_rules
		score           float64
		diffs           []string
	}{
		{name: "equal", expected: `{"a": 1, "b": [true, null, "x"], "c": {}}`, final: `{"c": {}, "b": [true, null, "x"], "a": 1}`, score: 1, diffs: []string{}},
		{name: "scalars equal", expected: `"x"`, final: `"x"`, score: 1, diffs: []string{}},
		{name: "numbers by value", expected: `{"n": 1, "m": [100, 0.5]}`, final: `{"n": 1.0, "m": [1e2, 5E-1]}`, score: 1, diffs: []string{}},
		{name: "differing scalar", expected: `{"orders": [{"id": "o1", "status": "cancelled"}]}`, final: `{"orders": [{"id": "o1", "status": "pending"}]}`,
			score: 0.5, diffs: []string{"$.orders[0].status"}},
		{name: "types are not coerced", expected: `{"a": 1, "b": true, "c": null}`, final: `{"a": "1", "b": 1, "c": false}`,
			score: 0, diffs: []string{"$.a", "$.b", "$.c"}},
		{name: "missing member counts its values", expected: `{"a": 1, "b": {"x": 1, "y": [1, 2]}}`, final: `{"a": 1}`,
			score: 0.25, diffs: []string{"$.b missing"}},
		{name: "null is not absent", expected: `{"a": null}`, final: `{}`, score: 0, diffs: []string{"$.a missing"}},
		{name: "unexpected member", expected: `{"a": 1}`, final: `{"a": 1, "b": 2, "c": {"d": 3}}`,
			score: 1.0 / 3, diffs: []string{"$.b unexpected", "$.c unexpected"}},
		{name: "extra and missing list elements", expected: `{"l": [1, 2]}`, final: `{"l": [1, 2, 3]}`,
			score: 2.0 / 3, diffs: []string{"$.l[2] unexpected"}},
		{name: "shorter list", expected: `{"l": [1, 2, 3]}`, final: `{"l": [1]}`,
			score: 1.0 / 3, diffs: []string{"$.l[1] missing", "$.l[2] missing"}},
		{name: "lists are ordered", expected: `[1, 2]`, final: `[2, 1]`, score: 0, diffs: []string{"$[0]", "$[1]"}},
		{name: "kind differs", expected: `{"a": {"x": 1, "y": 2}, "b": 1}`, final: `{"a": [1, 2], "b": 1}`,
			score: 1.0 / 3, diffs: []string{"$.a"}},
		{name: "empty containers", expected: `{"a": {}, "b": []}`, final: `{"a": [], "b": [1]}`,
			score: 0, diffs: []string{"$.a", "$.b[0] unexpected"}},
		{name: "quoted keys", expected: `{"key with space": 1, "order-id": "x"}`, final: `{"key with space": 2, "order-id": "x"}`,
			score: 0.5, diffs: []string{`$["key with space"]`}},

		{name: "ignore", opts: state.Options{Ignore: []string{"$.updated_at"}},
			expected: `{"a": 1, "updated_at": "2026-01-01"}`, final: `{"a": 1, "updated_at": "2026-03-05"}`, score: 1, diffs: []string{}},
		{name: "ignore absent on either side", opts: state.Options{Ignore: []string{"$.updated_at", "$.created_at"}},
			expected: `{"a": 1, "updated_at": "x"}`, final: `{"a": 1, "created_at": "y"}`, score: 1, diffs: []string{}},
		{name: "ignore with wildcard", opts: state.Options{Ignore: []string{"$.orders[*].ts"}},
			expected: `{"orders": [{"id": 1, "ts": 5}, {"id": 2, "ts": 6}]}`, final: `{"orders": [{"id": 1, "ts": 7}, {"id": 3}]}`,
			score: 0.5, diffs: []string{"$.orders[1].id"}},
		{name: "ignore with recursive descent", opts: state.Options{Ignore: []string{"$..ts"}},
			expected: `{"ts": 1, "a": {"ts": 2, "b": [{"ts": 3, "v": 1}]}}`, final: `{"a": {"ts": 9, "b": [{"ts": 8, "v": 1}]}}`,
			score: 1, diffs: []string{}},
		{name: "ignored members leave their object", opts: state.Options{Ignore: []string{"$..ts"}},
			expected: `{"a": {"ts": 1}}`, final: `{"a": {"ts": 2}, "b": {"ts": 3}}`, score: 0.5, diffs: []string{"$.b unexpected"}},
		{name: "ignore the whole state", opts: state.Options{Ignore: []string{"$"}}, expected: `{"a": 1}`, final: `[]`, score: 1, diffs: []string{}},
		{name: "case ignores", expected: `{"a": 1, "b": 2}`, final: `{"a": 1, "b": 3}`, rules: `{"$.b": {"ignore": true}}`, score: 1, diffs: []string{}},
		{name: "case undoes an ignore", opts: state.Options{Ignore: []string{"$..ts"}},
			expected: `{"a": {"ts": 1}, "b": {"ts": 1}}`, final: `{"a": {"ts": 2}, "b": {"ts": 2}}`, rules: `{"$.b.ts": {"ignore": false}}`,
			score: 0.5, diffs: []string{"$.b.ts"}},

		{name: "approx", opts: state.Options{Rules: state.Rules{{Key: "$.orders[*].total", Value: parse(t, `{"approx": 100, "tol": 0.5}`)}}},
			expected: `{"orders": [{"total": 100}, {"total": 100}]}`, final: `{"orders": [{"total": 100.4}, {"total": 99}]}`,
			score: 0.5, diffs: []string{"$.orders[1].total not within 0.5 of 100"}},
		{name: "tol around the expected value", expected: `{"p": [10, 20]}`, final: `{"p": [10.01, 19]}`,
			rules: `{"$.p[*]": {"tol": 0.1}}`, score: 0.5, diffs: []string{"$.p[1] not within 0.1 of 20"}},
		{name: "regex", expected: `{"id": "ord_1", "ref": "x"}`, final: `{"id": "ord_9", "ref": "y"}`,
			rules: `{"$.id": {"regex": "^ord_"}, "$.ref": {"regex": "^ord_"}}`, score: 0.5, diffs: []string{"$.ref does not match /^ord_/"}},
		{name: "type", expected: `{"id": "a", "n": 1, "m": {"x": 1}}`, final: `{"id": "b", "n": "1", "m": {"y": 2}}`,
			rules: `{"$.id": {"type": "string"}, "$.n": {"type": "integer"}, "$.m": {"type": "object"}}`,
			score: 2.0 / 3, diffs: []string{"$.n not of type integer"}},
		{name: "one_of", expected: `{"s": "a"}`, final: `{"s": "c"}`, rules: `{"$.s": {"one_of": ["a", "b"]}}`,
			score: 0, diffs: []string{`$.s not one of ["a","b"]`}},
		{name: "fuzzy", expected: `{"note": "refund issued"}`, final: `{"note": "refund issued."}`, rules: `{"$.note": {"fuzzy": 0.9}}`,
			score: 1, diffs: []string{}},
		{name: "rule on a missing value", expected: `{"id": "ord_1"}`, final: `{}`, rules: `{"$.id": {"regex": "^ord_"}}`,
			score: 0, diffs: []string{"$.id missing"}},
		{name: "rule on an unexpected value", expected: `{}`, final: `{"id": "ord_1"}`, rules: `{"$.id": {"regex": "^ord_"}}`,
			score: 1, diffs: []string{}},
		{name: "optional", expected: `{"a": 1, "note": "x"}`, final: `{"a": 1, "extra": 5}`, rules: `{"$.note": {"optional": true}, "$.extra": {"optional": true}}`,
			score: 1, diffs: []string{}},
		{name: "optional present is compared", expected: `{"note": "x"}`, final: `{"note": "y"}`, rules: `{"$.note": {"optional": true}}`,
			score: 0, diffs: []string{"$.note"}},
		{name: "case rule overrides the config's", opts: state.Options{Rules: state.Rules{{Key: "$.t", Value: parse(t, `{"approx": 1, "tol": 0.1}`)}}},
			expected: `{"t": 1}`, final: `{"t": 1.5}`, rules: `{"$.t": {"approx": 1, "tol": 1}}`, score: 1, diffs: []string{}},

		{name: "unordered list", opts: state.Options{Unordered: []string{"$.users[*].orders"}},
			expected: `{"users": [{"orders": ["a", "b", "c"]}]}`, final: `{"users": [{"orders": ["c", "a", "b"]}]}`, score: 1, diffs: []string{}},
		{name: "unordered rows pair by content", opts: state.Options{Unordered: []string{"$.orders"}},
			expected: `{"orders": [{"id": 1, "s": "open"}, {"id": 2, "s": "open"}, {"id": 3, "s": "open"}]}`,
			final:    `{"orders": [{"id": 3, "s": "open"}, {"id": 2, "s": "cancelled"}, {"id": 1, "s": "open"}, {"id": 4, "s": "new"}]}`,
			score:    5.0 / 8, diffs: []string{"$.orders[1].s", "$.orders[3] unexpected"}},
		{name: "unordered from the case", expected: `[1, 2, 2]`, final: `[2, 1, 3]`, rules: `{"$": {"unordered": true}}`,
			score: 0.5, diffs: []string{"$[2] missing", "$[2] unexpected"}},
		{name: "unordered undone by the case", opts: state.Options{Unordered: []string{"$"}}, expected: `[1, 2]`, final: `[2, 1]`,
			rules: `{"$": {"unordered": false}}`, score: 0, diffs: []string{"$[0]", "$[1]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := state.New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			c := states(parse(t, tc.expected), parse(t, tc.final), parse(t, tc.rules))
			r := m.Grade(context.Background(), c)
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			got := diffText(toolgrade.DetailOf[toolgrade.Diffs](&r))
			if diff := abs(r.Score - tc.score); diff > 1e-9 || strings.Join(got, "|") != strings.Join(tc.diffs, "|") {
				t.Errorf("score %v, diffs %q; want %v, %q\nreason: %s", r.Score, got, tc.score, tc.diffs, r.Reason)
			}
			if r.Success != (r.Score == 1) {
				t.Errorf("success %v with score %v and the default threshold", r.Success, r.Score)
			}
			if r.Name != "state_match" || r.Profile != "default" || r.Threshold == nil || *r.Threshold != 1 {
				t.Errorf("name %q, profile %q, threshold %v", r.Name, r.Profile, r.Threshold)
			}
		})
	}
}

func abs(f float64) float64 { return max(f, -f) }

func TestDiffValues(t *testing.T) {
	m, _ := state.New(state.Options{})
	r := m.Grade(context.Background(), states(
		parse(t, `{"orders": [{"id": "o1", "status": "cancelled"}, {"id": "o2"}]}`),
		parse(t, `{"orders": [{"id": "o1", "status": "pending"}], "log": ["x"]}`), nil))
	want := []toolgrade.ArgDiff{
		{Path: "$.orders[0].status", Expected: "cancelled", Got: "pending"},
		{Path: "$.orders[1]", Expected: parse(t, `{"id": "o2"}`), Note: "missing"},
		{Path: "$.log", Got: parse(t, `["x"]`), Note: "unexpected"},
	}
	if len(toolgrade.DetailOf[toolgrade.Diffs](&r)) != len(want) {
		t.Fatalf("diffs %+v, want %+v", toolgrade.DetailOf[toolgrade.Diffs](&r), want)
	}
	for i, d := range toolgrade.DetailOf[toolgrade.Diffs](&r) {
		w := want[i]
		if d.Path != w.Path || d.Note != w.Note || !jsonvalue.Equal(d.Expected, w.Expected) || !jsonvalue.Equal(d.Got, w.Got) {
			t.Errorf("diff %d = %+v, want %+v", i, d, w)
		}
	}
	wantReason := `state differs at 3 of 4 values: $.orders[0].status expected "cancelled", got "pending"; $.orders[1] missing (expected {"id":"o2"}); $.log unexpected (got ["x"])`
	if r.Reason != wantReason {
		t.Errorf("reason:\n%s\nwant\n%s", r.Reason, wantReason)
	}
	if r.Success || r.Score != 0.25 {
		t.Errorf("score %v, success %v", r.Score, r.Success)
	}
}

func TestReason(t *testing.T) {
	m, _ := state.New(state.Options{Threshold: toolgrade.Float(0.5)})
	grade := func(e, f string) toolgrade.MetricResult {
		return m.Grade(context.Background(), states(parse(t, e), parse(t, f), nil))
	}
	if r := grade(`{"a": 1, "b": 2}`, `{"b": 2, "a": 1.0}`); r.Reason != "state matches at all 2 values" {
		t.Errorf("reason %q", r.Reason)
	}
	if r := grade(`0`, `0`); r.Reason != "state matches at its 1 value" {
		t.Errorf("reason %q", r.Reason)
	}
	r := grade(`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24]`, `[0,0,0,0,0,0,0,0,0,0,0,0,13,14,15,16,17,18,19,20,21,22,23,24]`)
	if !strings.HasPrefix(r.Reason, "state differs at 12 of 24 values: $[0] expected 1, got 0; ") || !strings.HasSuffix(r.Reason, "$[9] expected 10, got 0; and 2 more differences") {
		t.Errorf("reason %q", r.Reason)
	}
	if r.Score != 0.5 || !r.Success {
		t.Errorf("score %v, success %v with threshold 0.5", r.Score, r.Success)
	}
	if r := grade(`{"a": {"b": 1}}`, `{"a": {"b": 1, "c": {"d": "e"}}}`); r.Reason != `state differs at 1 of 2 values: $.a.c unexpected (got {"d":"e"})` {
		t.Errorf("reason %q", r.Reason)
	}
	if r := grade(`{"n": 1}`, `{"n": 2}`); r.Reason != `state differs at 1 of 1 values: $.n expected 1, got 2` {
		t.Errorf("reason %q", r.Reason)
	}
	m2, _ := state.New(state.Options{Ignore: []string{"$"}})
	if r := m2.Grade(context.Background(), states(parse(t, `1`), parse(t, `2`), nil)); r.Reason != "state matches: no values compared (all ignored)" || r.Score != 1 {
		t.Errorf("reason %q, score %v", r.Reason, r.Score)
	}
}

func TestCaseErrors(t *testing.T) {
	m, _ := state.New(state.Options{})
	for _, tc := range []struct {
		name                   string
		expected, final, rules string
		path, want             string // the FieldError's path; want in the message
	}{
		{name: "no state", want: "no expected_state and no final_state"},
		{name: "no expected state", final: `{}`, path: "expected_state", want: "gives final_state but not the expected_state"},
		{name: "no final state", expected: `{}`, path: "final_state", want: "gives expected_state but not the final_state"},
		{name: "rules not an object", expected: `{}`, final: `{}`, rules: `[]`, path: "state_rules", want: "want an object from JSONPath to rule"},
		{name: "bad path", expected: `{}`, final: `{}`, rules: `{"$.x[": {"ignore": true}}`, path: `state_rules["$.x["]`, want: `unterminated "["`},
		{name: "path without $", expected: `{}`, final: `{}`, rules: `{"x": {"ignore": true}}`, path: `state_rules["x"]`, want: `want "$" at the start`},
		{name: "rule not an object", expected: `{}`, final: `{}`, rules: `{"$.x": true}`, path: `state_rules["$.x"]`, want: "want a rule object"},
		{name: "bad regex", expected: `{}`, final: `{}`, rules: `{"$.x": {"regex": "("}}`, path: `state_rules["$.x"].regex`, want: "missing closing )"},
		{name: "from", expected: `{}`, final: `{}`, rules: `{"$.x": {"from": "a.output"}}`, path: `state_rules["$.x"].from`, want: "a from rule takes its value from a call's output"},
		{name: "unknown rule", expected: `{}`, final: `{}`, rules: `{"$.x": {"exact": true}}`, path: `state_rules["$.x"].exact`, want: "unknown rule (want one_of"},
		{name: "misspelled rule", expected: `{}`, final: `{}`, rules: `{"$.x": {"ignor": true}}`, path: `state_rules["$.x"].ignor`, want: `unknown rule; did you mean "ignore"?`},
		{name: "bad unordered", expected: `{}`, final: `{}`, rules: `{"$.x": {"unordered": 1}}`, path: `state_rules["$.x"].unordered`, want: "want true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := states(parse(t, tc.expected), parse(t, tc.final), parse(t, tc.rules))
			r := m.Grade(context.Background(), c)
			if r.Success || r.Verdict() || !strings.Contains(r.Error, tc.want) {
				t.Fatalf("error %q (success %v), want one with %q", r.Error, r.Success, tc.want)
			}
			var fe *toolgrade.FieldError
			switch {
			case tc.path == "":
				if !errors.Is(r.Err, state.ErrNoState) {
					t.Errorf("error %v is not ErrNoState", r.Err)
				}
			case !errors.As(r.Err, &fe):
				t.Errorf("error %T %v is not a FieldError", r.Err, r.Err)
			case fe.Path != tc.path:
				t.Errorf("error path %q, want %q", fe.Path, tc.path)
			}
		})
	}
}

func TestGoValues(t *testing.T) {
	m, _ := state.New(state.Options{})
	r := m.Grade(context.Background(), states(
		map[string]any{"a": 1, "b": []string{"x"}},
		parse(t, `{"b": ["x"], "a": 1.0}`),
		map[string]any{"$.c": map[string]any{"ignore": true}}))
	if r.Error != "" || r.Score != 1 {
		t.Errorf("score %v, error %q", r.Score, r.Error)
	}
}

func TestNewErrors(t *testing.T) {
	rules := func(s string) state.Rules { return state.Rules(parse(t, s).(jsonvalue.Object)) }
	for _, tc := range []struct {
		name   string
		opts   state.Options
		option string
		want   string
	}{
		{"ignore", state.Options{Ignore: []string{"$.a", "$.b["}}, "ignore[1]", `unterminated "["`},
		{"unordered", state.Options{Unordered: []string{"rows"}}, "unordered[0]", `want "$" at the start`},
		{"rule path", state.Options{Rules: rules(`{"$.a": {}, "$[-1]": {"ignore": true}}`)}, `rules["$[-1]"]`, "negative indexes"},
		{"rule", state.Options{Rules: rules(`{"$.a": {"tol": -1}}`)}, `rules["$.a"].tol`, "must not be negative"},
		{"from", state.Options{Rules: rules(`{"$.a": {"from": "x.output"}}`)}, `rules["$.a"].from`, "from rule"},
		{"threshold", state.Options{Threshold: toolgrade.Float(1.5)}, "threshold", "want a share in [0, 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := state.New(tc.opts)
			var oe *toolgrade.OptionError
			if !errors.As(err, &oe) || oe.Option != tc.option || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v, want an OptionError for %s with %q", err, tc.option, tc.want)
			}
		})
	}
}

func TestOptionsJSON(t *testing.T) {
	var o state.Options
	data := `{"ignore": ["$..ts"], "unordered": ["$.orders"], "rules": {"$.b": {"approx": 1.50, "tol": 0.1}, "$.a": {"ignore": true}}, "threshold": 0.5}`
	dec := func(s string, v any) error { return json.Unmarshal([]byte(s), v) }
	if err := dec(data, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Rules) != 2 || o.Rules[0].Key != "$.b" || *o.Threshold != 0.5 {
		t.Fatalf("decoded %+v", o)
	}
	if _, err := state.New(o); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(o.Rules)
	if err != nil || string(out) != `{"$.b":{"approx":1.50,"tol":0.1},"$.a":{"ignore":true}}` {
		t.Errorf("MarshalJSON = %s, %v", out, err)
	}
	if err := dec(`{"rules": null}`, &o); err != nil || o.Rules != nil {
		t.Errorf("null rules: %v, %v", o.Rules, err)
	}
	if err := dec(`{"rules": ["$.a"]}`, &o); err == nil || !strings.Contains(err.Error(), "want an object from JSONPath to rule") {
		t.Errorf("rules as a list: %v", err)
	}
}
