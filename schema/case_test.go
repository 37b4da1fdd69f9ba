package schema_test

import (
	"context"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// A case gives its tools under the first of available_tools,
// availableTools and tools it has, null included, whatever the order of
// its fields.
func TestDefinitions(t *testing.T) {
	tests := []struct {
		record, want string
	}{
		{`{}`, `null`},
		{`{"available_tools": [1]}`, `[1]`},
		{`{"tools": [3], "availableTools": [2]}`, `[2]`},
		{`{"tools": [3], "availableTools": [2], "available_tools": [1]}`, `[1]`},
		{`{"tools": [3]}`, `[3]`},
		{`{"available_tools": null, "tools": [3]}`, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.record, func(t *testing.T) {
			c := &toolgrade.Case{Raw: mustJSON(t, tt.record).(jsonvalue.Object)}
			if got := string(jsonvalue.Append(nil, schema.Definitions(c))); got != tt.want {
				t.Errorf("Definitions = %s, want %s", got, tt.want)
			}
		})
	}
	if schema.Definitions(&toolgrade.Case{}) != nil {
		t.Error("a case without a record gives tools")
	}
}

// A case built in code gives its tools in its record too, as ordinary Go
// values.
func TestMetricCaseBuiltInCode(t *testing.T) {
	m, _ := schema.New(schema.Options{})
	c := &toolgrade.Case{
		Called: []toolgrade.Call{{Name: "lookup", Args: map[string]any{}}},
		Raw: jsonvalue.Object{{Key: "available_tools", Value: []map[string]any{
			{"name": "lookup", "parameters": map[string]any{"type": "object", "required": []string{"q"}}},
		}}},
	}
	r := toolgrade.Grade(context.Background(), c, m).Metrics[0]
	if r.Error != "" || r.Reason != "0 of 1 calls valid; call 0 lookup: args: missing property 'q'" {
		t.Errorf("error %q, reason %q", r.Error, r.Reason)
	}
}
