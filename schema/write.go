package schema

import (
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Shape is a form of tool definitions that [Write] writes.
type Shape string

// The shapes [Write] writes.
const (
	ShapeOpenAI    Shape = "openai"
	ShapeResponses Shape = "responses"
	ShapeAnthropic Shape = "anthropic"
	ShapeGemini    Shape = "gemini"
	ShapeBedrock   Shape = "bedrock"
	ShapeMCP       Shape = "mcp"
)

// Shapes lists the tool shapes [Write] writes.
func Shapes() []Shape {
	return []Shape{ShapeOpenAI, ShapeResponses, ShapeAnthropic, ShapeGemini, ShapeBedrock, ShapeMCP}
}

// ParseShape returns the shape named s, or an error naming the shapes
// there are.
func ParseShape(s string) (Shape, error) {
	var names []string
	for _, shape := range Shapes() {
		if string(shape) == s {
			return shape, nil
		}
		names = append(names, string(shape))
	}
	if meant := suggest.Meant(s, names); len(meant) > 0 {
		return "", fmt.Errorf("unknown tool shape %q; did you mean %s? (want %s)", s, suggest.Or(meant), strings.Join(names, ", "))
	}
	return "", fmt.Errorf("unknown tool shape %q (want %s)", s, strings.Join(names, ", "))
}

// Write writes tools in one of the shapes [Parse] reads, as a value of
// package jsonvalue, ready for a request body's tools field:
//
//   - "openai": a list of {"type": "function", "function": {"name",
//     "description", "parameters"}} (Chat Completions)
//   - "responses": a list of {"type": "function", "name", "description",
//     "parameters"} (OpenAI Responses)
//   - "anthropic": a list of {"name", "description", "input_schema"}
//   - "gemini": a list with one {"functionDeclarations": [{"name",
//     "description", "parametersJsonSchema"}]}: the schema as JSON
//     Schema, which Gemini takes as it is (its OpenAPI-style "parameters"
//     field takes only a subset; see [Lint])
//   - "bedrock": a list of {"toolSpec": {"name", "description",
//     "inputSchema": {"json": ...}}} (Converse)
//   - "mcp": a tools/list result, {"tools": [{"name", "description",
//     "inputSchema", "outputSchema"}]}
//
// A tool without a schema gets the empty object schema, which every shape
// requires; a description is left out when the tool has none. Parse reads
// what Write writes back into the same tools.
func Write(tools []toolgrade.Tool, shape Shape) (any, error) {
	if _, err := ParseShape(string(shape)); err != nil {
		return nil, err
	}
	list := make([]any, len(tools))
	for i, t := range tools {
		params := t.Parameters
		if params == nil {
			params = jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "properties", Value: jsonvalue.Object{}}}
		}
		o := jsonvalue.Object{{Key: "name", Value: t.Name}}
		if t.Description != "" {
			o = append(o, jsonvalue.Member{Key: "description", Value: t.Description})
		}
		switch shape {
		case ShapeOpenAI:
			list[i] = jsonvalue.Object{{Key: "type", Value: "function"}, {Key: "function", Value: append(o, jsonvalue.Member{Key: "parameters", Value: params})}}
		case ShapeResponses:
			list[i] = append(jsonvalue.Object{{Key: "type", Value: "function"}}, append(o, jsonvalue.Member{Key: "parameters", Value: params})...)
		case ShapeAnthropic:
			list[i] = append(o, jsonvalue.Member{Key: "input_schema", Value: params})
		case ShapeGemini:
			list[i] = append(o, jsonvalue.Member{Key: "parametersJsonSchema", Value: params})
		case ShapeBedrock:
			list[i] = jsonvalue.Object{{Key: "toolSpec", Value: append(o, jsonvalue.Member{Key: "inputSchema", Value: jsonvalue.Object{{Key: "json", Value: params}}})}}
		case ShapeMCP:
			o = append(o, jsonvalue.Member{Key: "inputSchema", Value: params})
			if t.OutputSchema != nil {
				o = append(o, jsonvalue.Member{Key: "outputSchema", Value: t.OutputSchema})
			}
			list[i] = o
		}
	}
	switch shape {
	case ShapeGemini:
		return []any{jsonvalue.Object{{Key: "functionDeclarations", Value: list}}}, nil
	case ShapeMCP:
		return jsonvalue.Object{{Key: "tools", Value: list}}, nil
	}
	return list, nil
}
