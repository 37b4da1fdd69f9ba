package schema_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

const bookingSchema = `{
	"type": "object",
	"properties": {
		"city":  {"type": "string", "minLength": 1},
		"nights": {"type": "integer", "minimum": 1},
		"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
		"guests": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}},
		"a/b": {"type": "boolean"}
	},
	"required": ["city"],
	"additionalProperties": false
}`

func TestValidate(t *testing.T) {
	tests := []struct {
		name, args string
		want       []string // "pointer keyword: message" per violation
	}{
		{"valid", `{"city": "Paris", "nights": 2, "unit": "celsius"}`, nil},
		{"integer spelled as a float", `{"city": "Paris", "nights": 2.0}`, nil},
		{"missing required", `{"nights": 2}`, []string{`/ required: missing property 'city'`}},
		{"wrong type", `{"city": 5}`, []string{`/city type: got number, want string`}},
		{"float for integer", `{"city": "P", "nights": 1.5}`, []string{`/nights type: got number, want integer`}},
		{"enum", `{"city": "P", "unit": "kelvin"}`, []string{`/unit enum: value must be one of 'celsius', 'fahrenheit'`}},
		{"additional property", `{"city": "P", "country": "FR"}`, []string{`/ additionalProperties: additional properties 'country' not allowed`}},
		{"nested item", `{"city": "P", "guests": [{"name": "a"}, {}]}`, []string{`/guests/1 required: missing property 'name'`}},
		{"escaped pointer", `{"city": "P", "a/b": "yes"}`, []string{`/a~1b type: got string, want boolean`}},
		{"every violation", `{"city": "", "nights": 0, "x": 1}`, []string{
			`/ additionalProperties: additional properties 'x' not allowed`,
			`/city minLength: minLength: got 0, want 1`,
			`/nights minimum: minimum: got 0, want 1`,
		}},
		{"not an object", `[1]`, []string{`/ type: got array, want object`}},
	}
	s := mustJSON(t, bookingSchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := schema.Validate(s, mustJSON(t, tt.args))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, displayPointer(v.Pointer)+" "+v.Keyword+": "+v.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func displayPointer(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

func TestValidateDrafts(t *testing.T) {
	tests := []struct {
		name, schema, value string
		valid               bool
	}{
		// 2020-12 by default: prefixItems is a keyword.
		{"default draft", `{"prefixItems": [{"type": "integer"}]}`, `["x"]`, false},
		// Draft 7 does not know prefixItems, and has array items.
		{"draft 7", `{"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "integer"}]}`, `["x"]`, true},
		{"draft 7 items array", `{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "integer"}]}`, `["x"]`, false},
		// Draft 4's boolean exclusiveMinimum.
		{"draft 4", `{"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": true}`, `1`, false},
		// Formats are annotations.
		{"format not asserted", `{"type": "string", "format": "email"}`, `"not an email"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := schema.Validate(mustJSON(t, tt.schema), mustJSON(t, tt.value))
			if err != nil {
				t.Fatal(err)
			}
			if (len(vs) == 0) != tt.valid {
				t.Errorf("violations %v, want valid %v", vs, tt.valid)
			}
		})
	}
}

func TestValidateBadSchemas(t *testing.T) {
	for _, s := range []string{
		`{"type": "text"}`,
		`{"required": "city"}`,
		`{"$ref": "https://example.com/schema.json"}`,
		`{"$ref": "file:///etc/passwd"}`,
		`{"$ref": "other.json"}`,
		`{"$schema": "https://example.com/my-draft"}`,
		`{"pattern": "(?<=x)"}`,
	} {
		if _, err := schema.Validate(mustJSON(t, s), jsonvalue.Object{}); err == nil {
			t.Errorf("%s: no error", s)
		} else if !strings.HasPrefix(err.Error(), "invalid JSON Schema: ") {
			t.Errorf("%s: error %q", s, err)
		}
	}
}

// TestValidateConcurrent validates from many goroutines at once, against
// schemas compiled on first use (run with -race).
func TestValidateConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				s := jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "required", Value: []any{fmt.Sprint("p", i%5)}}}
				vs, err := schema.Validate(s, jsonvalue.Object{{Key: fmt.Sprint("p", g%5), Value: true}})
				if err != nil {
					t.Error(err)
					return
				}
				if want := i%5 != g%5; (len(vs) > 0) != want {
					t.Errorf("goroutine %d, schema %d: violations %v", g, i, vs)
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkValidate(b *testing.B) {
	s := mustJSON(b, bookingSchema)
	args := mustJSON(b, `{"city": "Paris", "nights": 2, "unit": "kelvin", "guests": [{"name": "a"}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema.Validate(s, args); err != nil {
			b.Fatal(err)
		}
	}
}

// The library reports additional properties in map order; toolgrade's
// message names them sorted, so that results are the same run to run.
func TestValidateAdditionalPropertiesStable(t *testing.T) {
	s := mustJSON(t, `{"type":"object","properties":{"location":{"type":"string"}},"additionalProperties":false}`)
	args := mustJSON(t, `{"zeta":1,"city":"Paris","days":2,"alpha":true,"mid":null}`)
	const want = "additional properties 'alpha', 'city', 'days', 'mid', 'zeta' not allowed"
	for range 50 {
		vs, err := schema.Validate(s, args)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 1 || vs[0].Message != want {
			t.Fatalf("violations %v, want one with message %q", vs, want)
		}
	}
}
