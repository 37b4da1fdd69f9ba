package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

func TestWriteRoundTrip(t *testing.T) {
	tools := []toolgrade.Tool{
		{Name: "get_weather", Description: "Weather", Parameters: mustJSON(t, `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
		{Name: "ping", Parameters: mustJSON(t, `{"type":"object","properties":{}}`)},
	}
	for _, shape := range schema.Shapes() {
		t.Run(string(shape), func(t *testing.T) {
			v, err := schema.Write(tools, shape)
			if err != nil {
				t.Fatal(err)
			}
			back, err := schema.Parse(v)
			if err != nil {
				t.Fatalf("%s: %v", jsonvalue.Format(v), err)
			}
			if diff := cmp.Diff(tools, back); diff != "" {
				t.Errorf("%s read back differs (-want +got):\n%s", jsonvalue.Format(v), diff)
			}
		})
	}
	for _, ts := range [][]toolgrade.Tool{tools, nil} {
		if _, err := schema.Write(ts, "xml"); err == nil || !strings.Contains(err.Error(), `unknown tool shape "xml"`) {
			t.Errorf("unknown shape, %d tools: %v", len(ts), err)
		}
	}
}

func TestLint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tools string
		want  []string
	}{
		{"clean", `[{"name": "a", "description": "A", "parameters": {"type": "object", "properties": {"x": {"type": "string", "description": "X"}}}}]`, nil},
		{"no descriptions", `[{"name": "a", "parameters": {"type": "object", "properties": {"x": {"description": "X"}, "y": {"type": "integer"}}}}]`, []string{
			"warning: tool a: description: no description: models choose tools by their descriptions",
			"warning: tool a: parameters.properties.x: no type: say what the parameter holds",
			"warning: tool a: parameters.properties.y: no description",
		}},
		{"names", `[{"name": "a.b", "description": "A"}, {"name": "a_b", "description": "B"}, {"name": "9lives", "description": "C"}]`, []string{
			`error: tool a.b: name: OpenAI, Anthropic reject the name "a.b" (it would be sent as "a_b")`,
			`error: tool 9lives: name: Gemini rejects the name "9lives" (it would be sent as "9lives")`,
			`error: tool a_b: name: collides with "a.b": both are sent as "a_b"`,
		}},
		{"schemas", `[{"name": "a", "description": "A", "parameters": {"type": "object", "anyOf": [{"required": ["x"]}], "additionalProperties": false, "properties": {"x": {"type": "array", "description": "X"}}}}]`, []string{
			`error: tool a: parameters: OpenAI rejects "anyOf" at the top of the schema`,
			`error: tool a: parameters.properties.x: OpenAI rejects an array schema without "items"`,
			`warning: tool a: parameters: Gemini's OpenAPI-style "parameters" field rejects "additionalProperties": send the schema as "parametersJsonSchema" (as --format gemini does)`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools, err := schema.Parse(mustJSON(t, tc.tools))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range schema.Lint(tools) {
				got = append(got, f.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func ExampleLint() {
	v, _ := jsonvalue.Parse([]byte(`[{"name": "math.add", "parameters": {"type": "object", "properties": {"a": {"type": "number"}}}}]`))
	tools, _ := schema.Parse(v)
	for _, f := range schema.Lint(tools) {
		fmt.Println(f)
	}
	// Output:
	// warning: tool math.add: description: no description: models choose tools by their descriptions
	// error: tool math.add: name: OpenAI, Anthropic reject the name "math.add" (it would be sent as "math_add")
	// warning: tool math.add: parameters.properties.a: no description
}

func ExampleWrite() {
	tools := []toolgrade.Tool{{Name: "ping", Description: "Checks the line"}}
	v, _ := schema.Write(tools, "anthropic")
	fmt.Println(string(jsonvalue.Append(nil, v)))
	// Output:
	// [{"name":"ping","description":"Checks the line","input_schema":{"type":"object","properties":{}}}]
}
