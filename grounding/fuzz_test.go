package grounding_test

import (
	"context"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// FuzzGrade grades arbitrary JSON as arguments, input, output and tools:
// it must never panic, and the score stays in [0, 1].
func FuzzGrade(f *testing.F) {
	f.Add(`{"order_id": "W2378156", "n": 12345.5}`, `"Cancel order W2378156"`, `{"id": "x@y.io"}`, `[{"name": "f", "parameters": {"enum": ["A1B2"]}}]`)
	f.Add(`"{\"a\": [\"ord_8123\", 1e999]}"`, `[{"role": "user", "content": "1,234.50 (555) 123-4567"}]`, `"[1,234]"`, `null`)
	f.Add(`[1e-999, -0.00012345, "2026-03-06", "16384MB", "https://a.b/"]`, `{"text": "99,999,999"}`, `"9 9-9/9(9)9"`, `{}`)
	m, err := grounding.New(grounding.Options{MinLength: 3, IgnoreArgs: []string{"skip", "a.*.b"}, IgnoreTools: []string{"x*"}})
	if err != nil {
		f.Fatal(err)
	}
	parse := func(s string) any {
		v, err := jsonvalue.ParseString(s)
		if err != nil {
			return s
		}
		return v
	}
	f.Fuzz(func(t *testing.T, args, input, output, tools string) {
		c := &toolgrade.Case{
			Input:      parse(input),
			Turns:      []toolgrade.Turn{{Input: parse(output)}},
			Trajectory: parse(input),
			Called: []toolgrade.Call{
				{Name: "f", Args: parse(args), Output: parse(output), Turn: 1},
				{Name: "f", Args: parse(output), Output: parse(args)},
				{Name: "g", Invalid: true, ArgsRaw: args},
			},
		}
		if v, err := jsonvalue.ParseString(tools); err == nil {
			c.Raw = jsonvalue.Object{{Key: "available_tools", Value: v}}
		}
		r := m.Grade(context.Background(), c)
		if r.Error == "" && (r.Score < 0 || r.Score > 1) {
			t.Fatalf("score %v out of [0, 1]", r.Score)
		}
	})
}
