package schema

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// deepSchema nests "items" levels deep: levels+1 objects.
func deepSchema(levels int) any {
	v, err := jsonvalue.ParseString(strings.Repeat(`{"items":`, levels) + `{"type":"string"}` + strings.Repeat(`}`, levels))
	if err != nil {
		panic(err)
	}
	return v
}

// wideSchema has n properties of three values each.
func wideSchema(n int) any {
	props := jsonvalue.Object{}
	for i := range n {
		props = append(props, jsonvalue.Member{Key: "p" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + jsonvalue.Format(i), Value: jsonvalue.Object{{Key: "type", Value: "string"}}})
	}
	return jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "properties", Value: props}}
}

// A schema past a budget is refused before it is compiled, naming the
// budget; one at the budget compiles.
func TestSchemaBudgets(t *testing.T) {
	for _, tt := range []struct {
		name   string
		schema any
		want   string // "" for none
	}{
		{"at the depth budget", deepSchema(MaxSchemaDepth - 1), ""},
		{"past the depth budget", deepSchema(MaxSchemaDepth), "the schema nests deeper than 128 levels, the most toolgrade compiles"},
		{"3,000 levels", deepSchema(3000), "the schema nests deeper than 128 levels"},
		{"past the size budget", wideSchema(MaxSchemaValues / 2), "the schema holds more than 50000 values, the most toolgrade compiles"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate(tt.schema, []any{})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tt.want == "" && err != nil || !strings.Contains(got, tt.want) {
				t.Errorf("Validate error = %q, want %q", got, tt.want)
			}
		})
	}
}

// Each distinct schema is compiled once, however many calls it checks.
func TestSchemaCompiledOnce(t *testing.T) {
	schema := jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "title", Value: "compiled once"}}
	compiler.Lock()
	before := compiler.n
	compiler.Unlock()
	for range 10 {
		if _, err := Validate(schema, jsonvalue.Object{}); err != nil {
			t.Fatal(err)
		}
	}
	compiler.Lock()
	defer compiler.Unlock()
	if n := compiler.n - before; n != 1 && compiler.n != 1 {
		t.Errorf("compiled %d times, want once", n)
	}
}
