package schema_test

import (
	"context"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// Check an agent's calls against an MCP server's tools/list response, with
// no expected calls.
func Example() {
	dump, _ := jsonvalue.ParseString(`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
		{"name": "get_weather", "description": "Current weather for a city",
		 "inputSchema": {"type": "object", "properties": {
		   "location": {"type": "string"},
		   "units": {"type": "string", "enum": ["metric", "imperial"]}},
		   "required": ["location"]}}]}}`)
	tools, err := schema.Parse(dump)
	if err != nil {
		panic(err)
	}
	metric, _ := schema.New(schema.Options{Tools: tools})

	args := func(s string) any { v, _ := jsonvalue.ParseString(s); return v }
	c := &toolgrade.Case{Called: []toolgrade.Call{
		{Name: "get_weather", Args: args(`{"location": "Paris"}`)},
		{Name: "get_weather", Args: args(`{"units": "kelvin"}`)},
		{Name: "get_forecast", Args: args(`{"location": "Rome"}`)},
	}}
	r := metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f, passed %v\n", r.Score, r.Success)
	fmt.Println(r.Reason)
	// Output:
	// score 0.33, passed false
	// 1 of 3 calls valid; call 1 get_weather: args: missing property 'location'; call 1 get_weather: args/units: value must be one of 'metric', 'imperial'; call 2 get_forecast: unknown tool (available: get_weather)
}

func ExampleValidate() {
	s, _ := jsonvalue.ParseString(`{"type": "object", "properties": {"days": {"type": "integer", "maximum": 14}}, "additionalProperties": false}`)
	args, _ := jsonvalue.ParseString(`{"days": 30, "city": "Oslo"}`)
	violations, err := schema.Validate(s, args)
	if err != nil {
		panic(err)
	}
	for _, v := range violations {
		fmt.Println(v)
	}
	// Output:
	// /: additional properties 'city' not allowed
	// /days: maximum: got 30, want 14
}

func ExampleParse() {
	// A Gemini tool declaration, with OpenAPI's upper-case types.
	v, _ := jsonvalue.ParseString(`[{"functionDeclarations": [{"name": "find_flights",
		"parameters": {"type": "OBJECT", "properties": {"from": {"type": "STRING"}, "max_stops": {"type": "INTEGER", "nullable": true}}}}]}]`)
	tools, err := schema.Parse(v)
	if err != nil {
		panic(err)
	}
	fmt.Println(tools[0].Name, string(jsonvalue.Append(nil, tools[0].Parameters)))
	// Output:
	// find_flights {"type":"object","properties":{"from":{"type":"string"},"max_stops":{"type":["integer","null"]}}}
}
