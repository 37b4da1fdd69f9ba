package state_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/state"
)

var (
	keys    = []string{"a", "b", "c", "ts", "k y"}
	scalars = []any{nil, true, false, json.Number("1"), json.Number("1.0"), json.Number("2"), "x", "y", ""}
	paths   = []string{"$", "$.a", "$..ts", "$.b[*]", "$[*].c", "$..*", "$.a[0]", `$["k y"]`, "$..[1]"}
)

// randomValue draws a JSON value of small alphabets, so that two draws
// often share parts.
func randomValue(t *rapid.T, depth int) any {
	kind := rapid.IntRange(0, 2).Draw(t, "kind")
	if depth == 0 {
		kind = 0
	}
	switch kind {
	case 1:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		l := make([]any, n)
		for i := range l {
			l[i] = randomValue(t, depth-1)
		}
		return l
	case 2:
		ks := rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 3, rapid.ID).Draw(t, "keys")
		o := make(jsonvalue.Object, len(ks))
		for i, k := range ks {
			o[i] = jsonvalue.Member{Key: k, Value: randomValue(t, depth-1)}
		}
		return o
	}
	return rapid.SampledFrom(scalars).Draw(t, "scalar")
}

// shuffle permutes the members of every object in v.
func shuffle(t *rapid.T, v any) any {
	switch v := v.(type) {
	case jsonvalue.Object:
		o := rapid.Permutation(v).Draw(t, "order")
		for i := range o {
			o[i].Value = shuffle(t, o[i].Value)
		}
		return o
	case []any:
		l := make([]any, len(v))
		for i := range v {
			l[i] = shuffle(t, v[i])
		}
		return l
	}
	return v
}

func randomOptions(t *rapid.T) state.Options {
	var o state.Options
	o.Ignore = rapid.SliceOfN(rapid.SampledFrom(paths[1:]), 0, 2).Draw(t, "ignore")
	o.Unordered = rapid.SliceOfN(rapid.SampledFrom(paths), 0, 2).Draw(t, "unordered")
	for _, p := range rapid.SliceOfNDistinct(rapid.SampledFrom(paths[1:]), 0, 2, rapid.ID).Draw(t, "rule paths") {
		rule := rapid.SampledFrom([]string{`{"optional": true}`, `{"type": "string"}`, `{"tol": 0.5}`, `{"regex": "x"}`, `{"one_of": [1, "y"]}`, `{}`}).Draw(t, "rule")
		v, _ := jsonvalue.ParseString(rule)
		o.Rules = append(o.Rules, jsonvalue.Member{Key: p, Value: v})
	}
	return o
}

func sortedDiffs(r toolgrade.MetricResult) []string {
	out := diffText(toolgrade.DetailOf[toolgrade.Diffs](&r))
	slices.Sort(out)
	return out
}

func TestProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := randomOptions(t)
		m, err := state.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		// Without rules (conditions may fail whatever the states), a
		// state equals itself.
		plain, err := state.New(state.Options{Ignore: opts.Ignore, Unordered: opts.Unordered})
		if err != nil {
			t.Fatal(err)
		}
		expected, final := randomValue(t, 3), randomValue(t, 3)
		grade := func(e, f any) toolgrade.MetricResult {
			return m.Grade(context.Background(), states(e, f, nil))
		}
		r := grade(expected, final)
		if expected == nil || final == nil {
			if r.Error == "" {
				t.Fatalf("no error for a null state")
			}
			return
		}
		if r.Error != "" {
			t.Fatal(r.Error)
		}
		if r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v out of [0, 1]", r.Score)
		}
		if (r.Score == 1) != (len(toolgrade.DetailOf[toolgrade.Diffs](&r)) == 0) {
			t.Fatalf("score %v with diffs %q", r.Score, diffText(toolgrade.DetailOf[toolgrade.Diffs](&r)))
		}
		if same := plain.Grade(context.Background(), states(expected, expected, nil)); same.Score != 1 || len(toolgrade.DetailOf[toolgrade.Diffs](&same)) != 0 {
			t.Fatalf("a state compared with itself scores %v: %s", same.Score, same.Reason)
		}
		again := grade(shuffle(t, expected), shuffle(t, final))
		if again.Score != r.Score || !slices.Equal(sortedDiffs(again), sortedDiffs(r)) {
			t.Fatalf("reordering members changed the result: %v %q, then %v %q", r.Score, sortedDiffs(r), again.Score, sortedDiffs(again))
		}
	})
}
