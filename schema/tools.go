// Package schema reads tool definitions, in the shapes LLM APIs, agent
// protocols and benchmarks write them, into [toolgrade.Tool] values, checks
// tool-call arguments against the tools' JSON Schemas, and provides the
// schema metric, which grades a case's calls without expected calls.
//
// Shapes read by [Parse], detected per tool:
//
//   - OpenAI Chat Completions: {"type": "function", "function": {"name",
//     "description", "parameters"}}
//   - OpenAI Responses (flat): {"type": "function", "name", "parameters"}
//   - Anthropic: {"name", "description", "input_schema"}
//   - Gemini: {"functionDeclarations": [{"name", "parameters"}]} with
//     OpenAPI upper-case types, or "parametersJsonSchema"
//   - Bedrock Converse: {"toolSpec": {"name", "inputSchema": {"json": ...}}}
//   - MCP tools/list: {"name", "inputSchema", "outputSchema"}
//   - BFCL function docs: {"name", "parameters": {"type": "dict", ...}} with
//     BFCL's float, tuple and any types (and Java/JavaScript type names)
//   - DeepFabric's converted form: "parameters" as a list of {"name",
//     "type": str|int|float|bool|list|dict, "required"}
//   - xLAM: "parameters" as a flat map {"param": {"type": "str",
//     "description", "default"}}
//   - plain {"name", "description", "parameters": JSON Schema}
//
// and the containers around them: a list; an object with "tools" (an
// OpenAI, Anthropic or Gemini request body, an MCP tools/list result); a
// JSON-RPC response wrapping a tools/list result; Bedrock's "toolConfig";
// "functions" (OpenAI's legacy form); a JSON string holding any of these
// (as xLAM stores them). Built-in tools that have no name (OpenAI's
// web_search, Gemini's googleSearch) are skipped: they have no schema.
//
// Every schema is rewritten into standard JSON Schema with its meaning kept
// (see normalize in dialect.go): BFCL's float is number, dict is object,
// tuple is array and any is no constraint; Gemini's STRING is string.
//
// Checks are offline: a schema's references resolve inside the schema,
// never to files or the network.
//
// Non-goals: checking tools' results (an MCP outputSchema is kept, not
// checked), and writing every shape Parse reads: [Write] writes the shapes
// of request bodies and of MCP's tools/list.
package schema

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Parse reads tool definitions given in any of the shapes listed in the
// package documentation. A nil value gives no tools. Errors are
// *toolgrade.FieldError values naming the element and field
// ("[2].function.parameters.properties.unit.type").
func Parse(v any) ([]toolgrade.Tool, error) {
	var tools []toolgrade.Tool
	if err := collect(v, &tools); err != nil {
		return nil, err
	}
	return tools, nil
}

// ReadFile reads tool definitions from a JSON file: one value in any shape
// [Parse] reads, or several values one after another (JSON Lines, such as
// an MCP session log, whose tools/list responses are collected and whose
// other messages are skipped). Errors name the file and line; a file that
// defines no tool is an error too.
//
// The file is read within the budget of a file read whole (256 MiB).
func ReadFile(path string) ([]toolgrade.Tool, error) {
	data, err := sniff.ReadFile(path, 0, "")
	if err != nil {
		return nil, err
	}
	return ReadText(path, data)
}

// ReadText reads tool definitions from data, the contents of the file
// named name, as [ReadFile] does (a byte-order mark dropped, UTF-16 with
// one decoded, what is not text refused).
func ReadText(name string, data []byte) ([]toolgrade.Tool, error) {
	data, err := sniff.Bytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tools, err := parseText(data)
	if err != nil {
		var se *jsonvalue.SyntaxError
		var le *lineError
		switch {
		case errors.As(err, &le) && errors.As(le.err, &se):
			return nil, fmt.Errorf("%s:%d: invalid JSON: %s", name, le.line, se.Msg)
		case errors.As(err, &le):
			return nil, fmt.Errorf("%s:%d: %w", name, le.line, le.err)
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s:%d: invalid JSON: %s", name, se.Line, se.Msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(tools) == 0 {
		// A tools file that defines none is a mistake (an empty file, the
		// wrong file), not a run without tools.
		return nil, fmt.Errorf("%s: no tool definitions in the file", name)
	}
	return tools, nil
}

// A lineError is an error on one line of a file of JSON Lines.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %v", e.line, e.err) }
func (e *lineError) Unwrap() error { return e.err }

// notTools says what a file's first value is when it is one of
// toolgrade's other files rather than tool definitions, or "".
func notTools(v any) string {
	switch sniff.Document(v) {
	case sniff.Result:
		return "a toolgrade results file, not tool definitions"
	case sniff.Config:
		return "a toolgrade config, not tool definitions (give it with --config)"
	}
	if obj, ok := v.(jsonvalue.Object); ok && !obj.Has("name") && (obj.Has("expected_tools") || obj.Has("tools_called")) {
		return "a case file, not tool definitions (a case's own tools are its available_tools)"
	}
	return ""
}

// parseText reads one JSON value, or values one per line.
func parseText(data []byte) ([]toolgrade.Tool, error) {
	v, err := jsonvalue.Parse(data)
	if err == nil {
		if what := notTools(v); what != "" {
			return nil, errors.New(what)
		}
		return Parse(v)
	}
	// Not one value: try one value per line.
	var tools []toolgrade.Tool
	line := 0
	for len(data) > 0 {
		var text []byte
		text, data, _ = bytes.Cut(data, []byte("\n"))
		line++
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		v, lerr := jsonvalue.Parse(text)
		if lerr != nil {
			if line == 1 {
				return nil, err // the whole text was meant as one value
			}
			return nil, &lineError{line, lerr}
		}
		if what := notTools(v); what != "" && len(tools) == 0 {
			return nil, &lineError{line, errors.New(what)}
		}
		got, lerr := Parse(v)
		if lerr != nil {
			return nil, &lineError{line, lerr}
		}
		tools = append(tools, got...)
	}
	return tools, nil
}

// Keys that hold a list of tools when an object has no name of its own.
var containerKeys = []string{"tools", "functionDeclarations", "function_declarations", "functions", "toolConfig"}

// Gemini's built-in tools, which declare no functions.
var builtinKeys = []string{"googleSearch", "google_search", "googleSearchRetrieval", "codeExecution", "code_execution", "retrieval", "urlContext", "url_context", "googleMaps", "computerUse", "fileSearch"}

func collect(v any, tools *[]toolgrade.Tool) error {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		parsed, err := jsonvalue.ParseString(v)
		if err != nil {
			return fmt.Errorf("want tool definitions, got a string that is not JSON: %w", err)
		}
		if _, ok := parsed.(string); ok {
			return fmt.Errorf("want tool definitions, got a string")
		}
		return collect(parsed, tools)
	case []any:
		for i, e := range v {
			if err := collect(e, tools); err != nil {
				return toolgrade.InField("["+strconv.Itoa(i)+"]", err)
			}
		}
		return nil
	case jsonvalue.Object:
		if v.Has("jsonrpc") {
			// A JSON-RPC message: only a response carrying tools counts.
			if r, ok := v.Get("result"); ok {
				if ro, ok := r.(jsonvalue.Object); ok && ro.Has("tools") {
					return toolgrade.InField("result", collect(ro, tools))
				}
			}
			return nil
		}
		if !v.Has("name") {
			for _, k := range containerKeys {
				if c, ok := v.Get(k); ok {
					return toolgrade.InField(k, collect(c, tools))
				}
			}
			if builtin(v) {
				return nil
			}
		}
		t, err := parseTool(v)
		if err != nil {
			return err
		}
		*tools = append(*tools, t)
		return nil
	}
	return fmt.Errorf("want a tool definition (an object), got %s", jsonvalue.Kind(v))
}

// builtin reports a provider's built-in tool, which has no name and no
// schema: OpenAI's {"type": "web_search"}, Gemini's {"googleSearch": {}}.
func builtin(v jsonvalue.Object) bool {
	if t, ok := v.Get("type"); ok && t != "function" && !v.Has("function") {
		// A type that names a JSON Schema type is a schema given where
		// a tool belongs, not a built-in tool: that is an error.
		s, isString := t.(string)
		_, schemaType := standardType(s)
		return isString && !schemaType
	}
	for _, k := range builtinKeys {
		if v.Has(k) {
			return true
		}
	}
	return false
}

// parseTool reads one tool definition.
func parseTool(obj jsonvalue.Object) (toolgrade.Tool, error) {
	if spec, ok := obj.Get("toolSpec"); ok { // Bedrock
		so, ok := spec.(jsonvalue.Object)
		if !ok {
			return toolgrade.Tool{}, &toolgrade.FieldError{Path: "toolSpec", Err: fmt.Errorf("want an object, got %s", jsonvalue.Kind(spec))}
		}
		t, err := parseTool(so)
		return t, toolgrade.InField("toolSpec", err)
	}
	if fn, ok := obj.Get("function"); ok { // OpenAI Chat Completions
		if fo, ok := fn.(jsonvalue.Object); ok {
			t, err := parseTool(fo)
			return t, toolgrade.InField("function", err)
		}
	}
	var t toolgrade.Tool
	name, ok := obj.Get("name")
	if !ok {
		return t, &toolgrade.FieldError{Path: "name", Err: errors.New("missing (a tool needs a name)")}
	}
	if t.Name, ok = name.(string); !ok || t.Name == "" {
		return t, &toolgrade.FieldError{Path: "name", Err: fmt.Errorf("want a non-empty string, got %s", jsonvalue.Format(name))}
	}
	if d, ok := obj.Get("description"); ok && d != nil {
		if t.Description, ok = d.(string); !ok {
			return t, &toolgrade.FieldError{Path: "description", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(d))}
		}
	}
	var err error
	switch key, params := firstOf(obj, "input_schema", "inputSchema", "parametersJsonSchema", "parameters"); key {
	case "":
	case "inputSchema":
		// Bedrock nests the schema one level down, under "json".
		if po, ok := params.(jsonvalue.Object); ok && len(po) == 1 && po[0].Key == "json" {
			params, key = po[0].Value, "inputSchema.json"
		}
		t.Parameters, err = schemaValue(params)
		err = toolgrade.InField(key, err)
	case "parameters":
		t.Parameters, err = parameters(params)
		err = toolgrade.InField(key, err)
	default:
		t.Parameters, err = schemaValue(params)
		err = toolgrade.InField(key, err)
	}
	if err != nil {
		return t, err
	}
	if key, out := firstOf(obj, "outputSchema", "responseJsonSchema", "response"); key != "" {
		if t.OutputSchema, err = schemaValue(out); err != nil {
			return t, toolgrade.InField(key, err)
		}
	}
	return t, nil
}

func firstOf(obj jsonvalue.Object, keys ...string) (string, any) {
	for _, k := range keys {
		if v, ok := obj.Get(k); ok && v != nil {
			return k, v
		}
	}
	return "", nil
}

// schemaValue reads a JSON Schema (possibly as JSON text) and normalizes its
// dialect.
func schemaValue(v any) (any, error) {
	if s, ok := v.(string); ok {
		parsed, err := jsonvalue.ParseString(s)
		if err != nil {
			return nil, fmt.Errorf("want a JSON Schema, got a string that is not JSON: %w", err)
		}
		v = parsed
	}
	switch v.(type) {
	case jsonvalue.Object, bool:
		return normalize(v)
	}
	return nil, fmt.Errorf("want a JSON Schema (an object), got %s", jsonvalue.Kind(v))
}

// parameters reads a "parameters" field: a JSON Schema in any dialect,
// DeepFabric's list of parameters, or xLAM's flat map of parameters.
func parameters(v any) (any, error) {
	if s, ok := v.(string); ok {
		parsed, err := jsonvalue.ParseString(s)
		if err != nil {
			return nil, fmt.Errorf("want parameters, got a string that is not JSON: %w", err)
		}
		v = parsed
	}
	switch v := v.(type) {
	case []any:
		return parameterList(v)
	case jsonvalue.Object:
		if flatParameters(v) {
			return parameterMap(v), nil
		}
	}
	return schemaValue(v)
}

// parameterList reads DeepFabric's converted form: [{"name", "type",
// "description", "required", "default"}], where a default of "" means none.
func parameterList(list []any) (any, error) {
	props := jsonvalue.Object{}
	var required []any
	for i, e := range list {
		p, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, &toolgrade.FieldError{Path: fmt.Sprintf("[%d]", i), Err: fmt.Errorf("want a parameter object, got %s", jsonvalue.Kind(e))}
		}
		name, ok := p.Get("name")
		ns, isString := name.(string)
		if !ok || !isString {
			return nil, &toolgrade.FieldError{Path: fmt.Sprintf("[%d].name", i), Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(name))}
		}
		prop := jsonvalue.Object{}
		if t, ok := p.Get("type"); ok {
			if ts, ok := t.(string); ok {
				if s, _ := pythonType(ts); s != nil {
					prop = s
				}
			}
		}
		if d, ok := p.Get("description"); ok && d != nil && d != "" {
			prop = append(prop, jsonvalue.Member{Key: "description", Value: d})
		}
		if d, ok := p.Get("default"); ok && d != nil && d != "" {
			prop = append(prop, jsonvalue.Member{Key: "default", Value: d})
		}
		props.Set(ns, prop)
		if r, _ := p.Get("required"); r == true {
			required = append(required, ns)
		}
	}
	return objectSchema(props, required), nil
}

// flatParameters reports xLAM's flat map: every member is a parameter
// object with a string type. A JSON Schema can look the same only when all
// its keys are keywords whose value is a schema ({"items": {"type":
// "string"}}), so at least one other key is required.
func flatParameters(v jsonvalue.Object) bool {
	paramKey := false
	for _, m := range v {
		p, ok := m.Value.(jsonvalue.Object)
		if !ok {
			return false
		}
		if t, ok := p.Get("type"); !ok {
			return false
		} else if _, ok := t.(string); !ok {
			return false
		}
		if !schemaValuedKeywords[m.Key] {
			paramKey = true
		}
	}
	return paramKey
}

// JSON Schema keywords whose value may be an object with a string "type".
var schemaValuedKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"additionalProperties": true, "items": true, "not": true, "if": true, "then": true,
	"else": true, "contains": true, "propertyNames": true, "dependentSchemas": true,
	"unevaluatedItems": true, "unevaluatedProperties": true, "additionalItems": true,
	"default": true, "const": true,
}

// parameterMap reads xLAM's flat map. A parameter is optional when its type
// says so ("str, optional") or it has a default.
func parameterMap(v jsonvalue.Object) any {
	props := make(jsonvalue.Object, 0, len(v))
	var required []any
	for _, m := range v {
		p := m.Value.(jsonvalue.Object)
		t, _ := p.Get("type")
		prop, optional := pythonType(t.(string))
		for _, pm := range p {
			if pm.Key != "type" {
				prop = append(prop, pm)
			}
		}
		if prop == nil {
			prop = jsonvalue.Object{}
		}
		props = append(props, jsonvalue.Member{Key: m.Key, Value: prop})
		if !optional && !p.Has("default") {
			required = append(required, m.Key)
		}
	}
	return objectSchema(props, required)
}

func objectSchema(props jsonvalue.Object, required []any) jsonvalue.Object {
	s := jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "properties", Value: props}}
	if len(required) > 0 {
		s = append(s, jsonvalue.Member{Key: "required", Value: required})
	}
	return s
}
