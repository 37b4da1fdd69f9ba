package match

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// argValue draws argument-like values from a small alphabet, so that equal
// and nearly equal pairs are common.
func argValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kinds := 5
		if depth > 0 {
			kinds = 7
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return nil
		case 1:
			return rapid.Bool().Draw(t, "bool")
		case 2:
			return rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "string")
		case 3:
			return json.Number(rapid.SampledFrom([]string{"1", "1.0", "2", "1e0", "-0"}).Draw(t, "number"))
		case 4:
			return jsonvalue.Object{}
		case 5:
			return rapid.SliceOfN(argValue(depth-1), 0, 3).Draw(t, "array")
		}
		var obj jsonvalue.Object
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"x", "y", "z"}), 0, 3, rapid.ID).Draw(t, "keys") {
			obj = append(obj, jsonvalue.Member{Key: k, Value: argValue(depth-1).Draw(t, k)})
		}
		return obj
	})
}

// nearValue returns a copy of v that differs from it in one place at
// most, deep or shallow: objects and arrays that differ within, whose
// members are compared one by one.
func nearValue(t *rapid.T, v any) any {
	switch v := v.(type) {
	case jsonvalue.Object:
		if len(v) > 0 && rapid.IntRange(0, 3).Draw(t, "deeper") > 0 {
			out := slices.Clone(v)
			i := rapid.IntRange(0, len(v)-1).Draw(t, "member")
			out[i].Value = nearValue(t, v[i].Value)
			return out
		}
	case []any:
		if len(v) > 0 && rapid.IntRange(0, 3).Draw(t, "deeper") > 0 {
			out := slices.Clone(v)
			i := rapid.IntRange(0, len(v)-1).Draw(t, "item")
			out[i] = nearValue(t, v[i])
			return out
		}
	}
	return argValue(1).Draw(t, "replaced")
}

// TestExactShortcutAgreesWithWalker checks the exact-mode shortcut (Equal)
// against the walker it stands in for.
func TestExactShortcutAgreesWithWalker(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := argValue(2).Draw(t, "expected")
		c := e
		if rapid.Bool().Draw(t, "different") {
			c = argValue(2).Draw(t, "called")
		}
		if e == nil {
			return // no expectation: any arguments, before any comparison
		}
		got := Comparer{Mode: ArgsExact}.Score(e, c, nil)
		if _, ok := e.(jsonvalue.Object); ok && c == nil {
			c = jsonvalue.Object{} // as compare reads a call without arguments
		}
		w := walker{mode: ArgsExact}
		if want := w.value(e, c, ""); got != want {
			t.Fatalf("Score(%s, %s) = %v, the walker says %v", jsonvalue.Format(e), jsonvalue.Format(c), got, want)
		}
	})
}

// TestExactDiffsAgreeWithWalker checks exactDiffs, which lists the
// differences of exact comparison without rules, against the walker it
// stands in for: the same differences in the same order, and the same
// score.
func TestExactDiffsAgreeWithWalker(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := argValue(3).Draw(t, "expected")
		c := e
		switch rapid.IntRange(0, 2).Draw(t, "called") {
		case 1:
			c = argValue(3).Draw(t, "different")
		case 2:
			c = nearValue(t, e)
		}
		if e == nil {
			return // no expectation: any arguments, before any comparison
		}
		score, got := Comparer{Mode: ArgsExact}.compare(nil, e, c, nil, true)
		if _, ok := e.(jsonvalue.Object); ok && c == nil {
			c = jsonvalue.Object{} // as compare reads a call without arguments
		}
		w := walker{mode: ArgsExact, collect: true}
		wantScore := w.value(e, c, "")
		if diff := cmp.Diff(w.diffs, got); diff != "" || score != wantScore {
			t.Fatalf("Diff(%s, %s): score %v, the walker's %v; differences (-walker +exactDiffs):\n%s", jsonvalue.Format(e), jsonvalue.Format(c), score, wantScore, diff)
		}
	})
}

// The similarity notes read as fmt's %.2f writes them.
func TestSimilarityNotes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.Float64().Draw(t, "s")
		needed := rapid.Float64Range(0, 1).Draw(t, "needed")
		if got, want := similarityNote(s), fmt.Sprintf("similarity %.2f", s); got != want {
			t.Fatalf("similarityNote(%v) = %q, want %q", s, got, want)
		}
		if got, want := similarityBelow(s, needed), fmt.Sprintf("similarity %.2f below %.2f", s, needed); got != want {
			t.Fatalf("similarityBelow(%v, %v) = %q, want %q", s, needed, got, want)
		}
	})
}

// genCall draws a call for scoring: names that agree or differ (some by a
// random suffix), arguments from argValue, and now and then a type, a
// status, an output, a rule or invalid arguments.
func genCall(t *rapid.T, label string) toolgrade.Call {
	c := toolgrade.Call{
		Name: rapid.SampledFrom([]string{"a", "b", "a_x1y2"}).Draw(t, label+".name"),
		Args: argValue(2).Draw(t, label+".args"),
	}
	switch rapid.IntRange(0, 9).Draw(t, label+".extra") {
	case 0:
		c.Args, c.ArgsRaw, c.Invalid = nil, "{oops", true
	case 1:
		c.Type = rapid.SampledFrom([]string{"function", "mcp"}).Draw(t, label+".type")
	case 2:
		c.Status = toolgrade.Status(rapid.IntRange(0, 2).Draw(t, label+".status"))
	case 3:
		c.Output = argValue(1).Draw(t, label+".output")
	case 4:
		c.Rules = map[string]toolgrade.Rule{"x": {Optional: true}}
	}
	return c
}

// TestCellScoreAgreesWithPairScore holds cellScore, which scores exact
// arguments without rules on a path of its own (exactScore), to
// PairScore for calls of the same name, and exactRow's shortcut too
// (exactScore alone, for a valid call that plain lets pass), under
// generated options and calls.
func TestCellScoreAgreesWithPairScore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := Options{
			Args:           rapid.SampledFrom([]Mode{ArgsExact, ArgsPartial, ArgsContains, ArgsIgnore}).Draw(t, "args"),
			NormalizeNames: rapid.Bool().Draw(t, "normalize"),
			Output:         rapid.SampledFrom([]Output{OutputIgnore, OutputExact}).Draw(t, "output"),
			FailedCalls:    rapid.SampledFrom([]FailedCalls{FailedRetry, FailedCount}).Draw(t, "failed"),
		}
		if rapid.Bool().Draw(t, "override") {
			opts.ArgsOverrides = map[string]Mode{"b": ArgsExact, "a": ArgsPartial}
		}
		m, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		e := genCall(t, "expected")
		e.Invalid, e.ArgsRaw = false, "" // plain turns invalid expected calls away
		got := make([]toolgrade.Call, rapid.IntRange(1, 4).Draw(t, "k"))
		for j := range got {
			got[j] = genCall(t, fmt.Sprint("called", j))
			if rapid.IntRange(0, 2).Draw(t, fmt.Sprint("same", j)) == 0 {
				got[j].Name, got[j].Args = e.Name, e.Args
			}
		}
		for j := range got {
			c := &got[j]
			if m.name(c) != m.name(&e) {
				continue
			}
			want := m.PairScore(&e, c)
			if s := m.cellScore(&e, c, m.name(&e)); s != want {
				t.Fatalf("cellScore = %v, PairScore %v (expected %+v, called %+v)", s, want, e, *c)
			}
			if m.exactRow(&e) && !c.Invalid && (!c.Failed() || opts.FailedCalls == FailedCount) {
				if s := exactScore(e.Args, c.Args); s != want {
					t.Fatalf("exactRow: exactScore = %v, PairScore %v (expected %+v, called %+v)", s, want, e, *c)
				}
			}
		}
	})
}

// TestPartialScoreAgreesWithWalker holds partialScore, with which closest
// weighs candidates, to Score in ArgsPartial without rules, float for
// float.
func TestPartialScoreAgreesWithWalker(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := argValue(3).Draw(t, "expected")
		c := e
		if rapid.Bool().Draw(t, "different") {
			c = argValue(3).Draw(t, "called")
		}
		want := Comparer{Mode: ArgsPartial}.Score(e, c, nil)
		if got := partialScore(e, c); got != want {
			t.Fatalf("partialScore(%s, %s) = %v, Score %v", jsonvalue.Format(e), jsonvalue.Format(c), got, want)
		}
	})
}

// TestPairDiffsInRoom holds pairDiffs, which lists a plain case's
// differences in the result's memory for them while they fit, to
// diffsWith, which allocates each list: generated calls, options and
// room, several lists in a row, each still as listed once the later ones
// are (a list grown into the next one's room would be overwritten).
func TestPairDiffsInRoom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, err := New(Options{
			Args:   rapid.SampledFrom([]Mode{ArgsExact, ArgsPartial, ArgsFuzzy}).Draw(t, "args"),
			Output: rapid.SampledFrom([]Output{OutputIgnore, OutputExact}).Draw(t, "output"),
		})
		if err != nil {
			t.Fatal(err)
		}
		c := &toolgrade.Case{}
		for i := range rapid.IntRange(1, 4).Draw(t, "n") {
			e := genCall(t, fmt.Sprint("expected", i))
			called := genCall(t, fmt.Sprint("called", i))
			if rapid.Bool().Draw(t, fmt.Sprint("near", i)) {
				called.Args = nearValue(t, e.Args)
			}
			c.Expected, c.Called = append(c.Expected, e), append(c.Called, called)
		}
		room := make([]toolgrade.ArgDiff, 0, rapid.IntRange(0, 4).Draw(t, "room"))
		var lists [][]toolgrade.ArgDiff
		for i := range c.Expected {
			got := m.pairDiffs(c, nil, i, i, &room)
			want := m.diffsWith(&c.Expected[i], &c.Called[i], nil)
			if diff := cmp.Diff(want, got); diff != "" || (got == nil) != (want == nil) {
				t.Fatalf("call %d: pairDiffs (-diffsWith +pairDiffs, nil %v and %v):\n%s", i, want == nil, got == nil, diff)
			}
			lists = append(lists, got)
		}
		for i, got := range lists {
			if diff := cmp.Diff(m.diffsWith(&c.Expected[i], &c.Called[i], nil), got); diff != "" {
				t.Fatalf("call %d's list, once the later ones were listed (-diffsWith +pairDiffs):\n%s", i, diff)
			}
		}
	})
}
