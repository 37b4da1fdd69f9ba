package grounding_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// argValue draws argument values of every kind the metric tells apart.
func argValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kinds := 9
		if depth <= 0 {
			kinds = 7
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return rapid.StringMatching(`#?[A-Z]{1,3}[0-9]{3,8}`).Draw(t, "id")
		case 1:
			return rapid.StringMatching(`[a-z]{1,6}@[a-z]{1,6}\.(com|io)`).Draw(t, "email")
		case 2:
			return json.Number(strconv.Itoa(rapid.IntRange(-1e9, 1e9).Draw(t, "int")))
		case 3:
			return json.Number(rapid.StringMatching(`-?[0-9]{1,6}(\.[0-9]{1,4})?(e[+-]?[0-9])?`).Draw(t, "number"))
		case 4:
			return rapid.String().Draw(t, "string")
		case 5:
			return rapid.SampledFrom([]any{nil, true, false, "Paris", "https://example.com/a/b", "555-123-4567", "2026-03-06"}).Draw(t, "plain")
		case 6:
			return rapid.StringMatching(`[a-z ]{0,12}[0-9 ]{0,8}`).Draw(t, "text")
		case 7:
			return rapid.SliceOfN(argValue(depth-1), 0, 3).Draw(t, "list")
		default:
			return argObject(depth-1).Draw(t, "object")
		}
	})
}

func argObject(depth int) *rapid.Generator[jsonvalue.Object] {
	return rapid.Custom(func(t *rapid.T) jsonvalue.Object {
		var o jsonvalue.Object
		for _, k := range rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z_]{1,6}`), 0, 4, rapid.ID[string]).Draw(t, "keys") {
			o = append(o, jsonvalue.Member{Key: k, Value: argValue(depth).Draw(t, "value")})
		}
		return o
	})
}

func randomCase(t *rapid.T) *toolgrade.Case {
	c := &toolgrade.Case{Input: argValue(1).Draw(t, "input")}
	for range rapid.IntRange(0, 4).Draw(t, "calls") {
		c.Called = append(c.Called, toolgrade.Call{
			Name:   rapid.SampledFrom([]string{"get_order", "cancel_order", "search"}).Draw(t, "name"),
			Args:   argObject(2).Draw(t, "args"),
			Output: argValue(1).Draw(t, "output"),
			Turn:   rapid.IntRange(0, 2).Draw(t, "turn"),
		})
	}
	if rapid.Bool().Draw(t, "turns") {
		c.Turns = []toolgrade.Turn{{Input: argValue(1).Draw(t, "turn 1")}, {Input: argValue(1).Draw(t, "turn 2")}}
	}
	return c
}

func TestPropertyScore(t *testing.T) {
	m, err := grounding.New(grounding.Options{MinLength: 6})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		c := randomCase(t)
		r := m.Grade(context.Background(), c)
		if r.Error != "" {
			t.Fatalf("error: %s", r.Error)
		}
		if r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v out of [0, 1]", r.Score)
		}
		if (len(toolgrade.DetailOf[toolgrade.Diffs](&r)) == 0) != (r.Score == 1) {
			t.Fatalf("score %v with %d ungrounded values", r.Score, len(toolgrade.DetailOf[toolgrade.Diffs](&r)))
		}
		if len(toolgrade.DetailOf[toolgrade.Diffs](&r)) == 0 {
			return
		}
		// Adding an ungrounded value to the input grounds it: as a value,
		// and, for strings, as text.
		d := toolgrade.DetailOf[toolgrade.Diffs](&r)[rapid.IntRange(0, len(toolgrade.DetailOf[toolgrade.Diffs](&r))-1).Draw(t, "diff")]
		inputs := []any{[]any{c.Input, d.Got}}
		if s, ok := d.Got.(string); ok {
			text, _ := c.Input.(string)
			inputs = append(inputs, text+" "+s)
		}
		for _, in := range inputs {
			c2 := *c
			c2.Input = in
			r2 := m.Grade(context.Background(), &c2)
			if slices.ContainsFunc(toolgrade.DetailOf[toolgrade.Diffs](&r2), func(d2 toolgrade.ArgDiff) bool { return d2.Path == d.Path }) {
				t.Fatalf("%s %s still ungrounded with the input %s", d.Path, jsonvalue.Format(d.Got), jsonvalue.Format(in))
			}
			if r2.Score < r.Score {
				t.Fatalf("score fell from %v to %v when the input gained a value", r.Score, r2.Score)
			}
		}
	})
}
