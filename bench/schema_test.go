package bench_test

import (
	"testing"

	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/schema"
)

// BenchmarkSchemaValidate checks one called call's arguments against its
// tool's JSON Schema (compiled once and cached by package schema, as in a
// run); parse reads the seven tool definitions.
func BenchmarkSchemaValidate(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		defs := bench.Tools()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.Parse(defs); err != nil {
				b.Fatal(err)
			}
		}
	})
	tools, err := schema.Parse(bench.Tools())
	if err != nil {
		b.Fatal(err)
	}
	params := map[string]any{}
	for _, t := range tools {
		params[t.Name] = t.Parameters
	}
	type check struct{ schema, args any }
	var checks []check
	for _, c := range cases() {
		for _, call := range c.Called {
			if s, ok := params[call.Name]; ok && !call.Invalid {
				checks = append(checks, check{s, call.Args})
			}
		}
	}
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ck := checks[i%len(checks)]
			if _, err := schema.Validate(ck.schema, ck.args); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
