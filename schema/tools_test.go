package schema_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

func mustJSON(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatalf("%v in %s", err, s)
	}
	return v
}

// The same weather tool, in standard JSON Schema.
const weatherSchema = `{"type": "object", "properties": {
	"city": {"type": "string", "description": "City name"},
	"days": {"type": "integer", "description": "Days to forecast"}},
	"required": ["city"]}`

// TestParseShapesRoundTrip reads the same tool written in every provider's
// shape and checks that each gives the same Tool.
func TestParseShapesRoundTrip(t *testing.T) {
	want := toolgrade.Tool{Name: "get_weather", Description: "Get the weather", Parameters: mustJSON(t, weatherSchema)}
	shapes := []struct{ name, js string }{
		{"openai chat", `[{"type": "function", "function": {"name": "get_weather", "description": "Get the weather", "parameters": ` + weatherSchema + `}}]`},
		{"openai chat request body", `{"model": "gpt-4o", "messages": [], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather", "parameters": ` + weatherSchema + `, "strict": false}}]}`},
		{"openai legacy functions", `{"functions": [{"name": "get_weather", "description": "Get the weather", "parameters": ` + weatherSchema + `}]}`},
		{"openai responses", `[{"type": "function", "name": "get_weather", "description": "Get the weather", "parameters": ` + weatherSchema + `}, {"type": "web_search_preview"}]`},
		{"anthropic", `{"model": "claude", "tools": [{"name": "get_weather", "description": "Get the weather", "input_schema": ` + weatherSchema + `}]}`},
		{"gemini", `{"contents": [], "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Get the weather", "parameters": {"type": "OBJECT", "properties": {
			"city": {"type": "STRING", "description": "City name"},
			"days": {"type": "INTEGER", "description": "Days to forecast"}}, "required": ["city"]}}]}, {"googleSearch": {}}]}`},
		{"gemini json schema", `[{"function_declarations": [{"name": "get_weather", "description": "Get the weather", "parametersJsonSchema": ` + weatherSchema + `}]}]`},
		{"bedrock", `{"toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "description": "Get the weather", "inputSchema": {"json": ` + weatherSchema + `}}}]}}`},
		{"mcp tools/list result", `{"tools": [{"name": "get_weather", "title": "Weather", "description": "Get the weather", "inputSchema": ` + weatherSchema + `}], "nextCursor": "x"}`},
		{"mcp json-rpc response", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "get_weather", "description": "Get the weather", "inputSchema": ` + weatherSchema + `}]}}`},
		{"bfcl", `[{"name": "get_weather", "description": "Get the weather", "parameters": {"type": "dict", "properties": {
			"city": {"type": "string", "description": "City name"},
			"days": {"type": "integer", "description": "Days to forecast"}}, "required": ["city"]}}]`},
		{"deepfabric", `[{"name": "get_weather", "description": "Get the weather", "parameters": [
			{"name": "city", "type": "str", "description": "City name", "required": true, "default": ""},
			{"name": "days", "type": "int", "description": "Days to forecast", "required": false, "default": ""}],
			"returns": "", "category": "general", "component": null}]`},
		{"xlam (a JSON string)", `"[{\"name\": \"get_weather\", \"description\": \"Get the weather\", \"parameters\": {\"city\": {\"type\": \"str\", \"description\": \"City name\"}, \"days\": {\"type\": \"int, optional\", \"description\": \"Days to forecast\"}}}]"`},
		{"tools as JSON strings", `["{\"name\": \"get_weather\", \"description\": \"Get the weather\", \"parameters\": ` + strings.NewReplacer(`"`, `\"`, "\n", "", "\t", "").Replace(weatherSchema) + `}"]`},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			tools, err := schema.Parse(mustJSON(t, s.js))
			if err != nil {
				t.Fatal(err)
			}
			if len(tools) != 1 {
				t.Fatalf("got %d tools, want 1: %+v", len(tools), tools)
			}
			got := tools[0]
			if got.Name != want.Name || got.Description != want.Description {
				t.Errorf("name %q, description %q", got.Name, got.Description)
			}
			if !jsonvalue.Equal(got.Parameters, want.Parameters) {
				t.Errorf("parameters\n got %s\nwant %s", jsonvalue.Append(nil, got.Parameters), jsonvalue.Append(nil, want.Parameters))
			}
		})
	}
}

// TestParseDialects checks that each dialect's types become standard JSON
// Schema with the same meaning.
func TestParseDialects(t *testing.T) {
	tests := []struct{ name, params, want string }{
		{"bfcl float, tuple, any, dict",
			`{"type": "dict", "properties": {"x": {"type": "float"}, "t": {"type": "tuple", "items": {"type": "float"}}, "a": {"type": "any", "description": "d"}, "o": {"type": "dict", "properties": {"k": {"type": "integer"}}}}, "required": ["x"]}`,
			`{"type": "object", "properties": {"x": {"type": "number"}, "t": {"type": "array", "items": {"type": "number"}}, "a": {"description": "d"}, "o": {"type": "object", "properties": {"k": {"type": "integer"}}}}, "required": ["x"]}`},
		{"bfcl java",
			`{"type": "dict", "properties": {"s": {"type": "String"}, "l": {"type": "long"}, "d": {"type": "double"}, "m": {"type": "HashMap"}, "a": {"type": "ArrayList", "items": {"type": "char"}}}}`,
			`{"type": "object", "properties": {"s": {"type": "string"}, "l": {"type": "integer"}, "d": {"type": "number"}, "m": {"type": "object"}, "a": {"type": "array", "items": {"type": "string"}}}}`},
		{"bfcl javascript, and an empty type",
			`{"type": "dict", "properties": {"b": {"type": "Boolean"}, "n": {"type": "Bigint"}, "e": {"type": ""}}}`,
			`{"type": "object", "properties": {"b": {"type": "boolean"}, "n": {"type": "integer"}, "e": {}}}`},
		{"gemini nullable and unspecified",
			`{"type": "OBJECT", "properties": {"n": {"type": "NUMBER", "nullable": true}, "u": {"type": "TYPE_UNSPECIFIED"}, "l": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["a", "b"]}}}}`,
			`{"type": "object", "properties": {"n": {"type": ["number", "null"]}, "u": {}, "l": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}}`},
		{"type lists and composition",
			`{"anyOf": [{"type": ["STRING", "null"]}, {"type": "dict"}], "$defs": {"p": {"type": "float"}}, "not": {"type": "tuple"}, "enum": ["dict"]}`,
			`{"anyOf": [{"type": ["string", "null"]}, {"type": "object"}], "$defs": {"p": {"type": "number"}}, "not": {"type": "array"}, "enum": ["dict"]}`},
		{"any in a type list drops the constraint",
			`{"type": ["string", "any"]}`, `{}`},
		{"xlam types",
			`{"q": {"type": "str"}, "n": {"type": "int", "default": 5}, "l": {"type": "List[int]"}, "d": {"type": "Dict[str, Any]"}, "o": {"type": "Optional[float]"}, "w": {"type": "Callable"}}`,
			`{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer", "default": 5}, "l": {"type": "array", "items": {"type": "integer"}}, "d": {"type": "object"}, "o": {"type": "number"}, "w": {}}, "required": ["q", "l", "d", "w"]}`},
		{"a parameter named type is not a keyword",
			`{"type": {"type": "str", "description": "kind"}}`,
			`{"type": "object", "properties": {"type": {"type": "string", "description": "kind"}}, "required": ["type"]}`},
		{"a schema of keywords only is a schema",
			`{"items": {"type": "string"}}`, `{"items": {"type": "string"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := schema.Parse(mustJSON(t, `[{"name": "f", "parameters": `+tt.params+`}]`))
			if err != nil {
				t.Fatal(err)
			}
			if want := mustJSON(t, tt.want); !jsonvalue.Equal(tools[0].Parameters, want) {
				t.Errorf("got  %s\nwant %s", jsonvalue.Append(nil, tools[0].Parameters), jsonvalue.Append(nil, want))
			}
		})
	}
}

func TestParseOutputSchema(t *testing.T) {
	tools, err := schema.Parse(mustJSON(t, `{"tools": [{"name": "f", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"t": {"type": "number"}}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := mustJSON(t, `{"type": "object", "properties": {"t": {"type": "number"}}}`); !jsonvalue.Equal(tools[0].OutputSchema, want) {
		t.Errorf("output schema %s", jsonvalue.Append(nil, tools[0].OutputSchema))
	}
}

func TestParseSkips(t *testing.T) {
	for _, js := range []string{
		`null`, `[]`, `{"tools": []}`,
		`{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`,
		`{"jsonrpc": "2.0", "id": 2, "result": {"content": [], "isError": false}}`,
		`[{"type": "web_search"}, {"codeExecution": {}}]`,
	} {
		tools, err := schema.Parse(mustJSON(t, js))
		if err != nil || len(tools) != 0 {
			t.Errorf("%s: %d tools, %v; want none", js, len(tools), err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ js, want string }{
		{`[{"description": "no name"}]`, "field [0].name: missing"},
		{`[{"name": ""}]`, "field [0].name: want a non-empty string"},
		{`[{"name": 5}]`, "field [0].name: want a non-empty string"},
		{`{"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"w": {"type": "datetime"}}}}}]}`,
			`field tools[0].function.parameters.properties.w.type: unknown type "datetime"`},
		{`[{"name": "f", "input_schema": [1]}]`, "field [0].input_schema: want a JSON Schema (an object), got array"},
		{`[{"name": "f", "parameters": {"anyOf": [{"type": 3}]}}]`, "field [0].parameters.anyOf[0].type: want a type name"},
		{`[3]`, "field [0]: want a tool definition (an object), got integer"},
		{`"not json"`, "not JSON"},
		{`[{"name": "f", "parameters": [{"type": "str"}]}]`, "field [0].parameters[0].name: want a string"},
		{`[{"type": "object", "properties": {"q": {"type": "string"}}}]`, "field [0].name: missing"},
	}
	for _, tt := range tests {
		_, err := schema.Parse(mustJSON(t, tt.js))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.js, err, tt.want)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// An MCP session log: requests, a paged tools/list, a tools/call.
	session := write("session.jsonl", `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "2"}}

{"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "b", "inputSchema": {"type": "object"}}]}}
{"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "ok"}]}}
`)
	tools, err := schema.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 2 || tools[0].Name != "a" || tools[1].Name != "b" {
		t.Errorf("got %+v", tools)
	}
	bad := write("bad.jsonl", "{\"tools\": []}\n{oops\n")
	if _, err := schema.ReadFile(bad); err == nil || err.Error() != bad+":2: invalid JSON: unexpected 'o', want a string key" {
		t.Errorf("error %v, want the file and line 2", err)
	}
	broken := write("broken.json", "[{\"name\": \"a\",\n")
	if _, err := schema.ReadFile(broken); err == nil || err.Error() != broken+":2: invalid JSON: unexpected end of input, want a string key" {
		t.Errorf("error %v, want the file, the line and the syntax error", err)
	}
	// Another of toolgrade's files, or not text, says so.
	for _, tt := range []struct{ text, want string }{
		{`{"id":"c","tools_called":[],"expected_tools":[]}` + "\n" + `{"id":"d","tools_called":[],"expected_tools":[]}`, ":1: a case file, not tool definitions"},
		{`{"id":"c","success":true,"metrics":[]}`, ": a toolgrade results file, not tool definitions"},
		{`{"metrics":[{"profile":"default"}]}`, ": a toolgrade config, not tool definitions"},
		{"\x1f\x8b\x08", ": gzip-compressed data"},
	} {
		f := write("other.json", tt.text)
		if _, err := schema.ReadFile(f); err == nil || !strings.HasPrefix(err.Error(), f+tt.want) {
			t.Errorf("ReadFile of %q: error %v, want %q", tt.text, err, tt.want)
		}
	}
	if _, err := schema.ReadFile(dir); err == nil || err.Error() != dir+" is a directory: give a file in it" {
		t.Errorf("ReadFile of a directory: error %v", err)
	}
	if _, err := schema.ReadFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("no error for a missing file")
	}
	// A file that defines no tool is a mistake, not a run without tools.
	for _, text := range []string{"", "\n  \n", "[]", `{"tools": []}`} {
		f := write("none.json", text)
		if _, err := schema.ReadFile(f); err == nil || !strings.Contains(err.Error(), "no tool definitions") {
			t.Errorf("ReadFile of %q: error %v, want \"no tool definitions\"", text, err)
		}
	}
}

// TestReadFileMCPFixture reads a real MCP session transcript.
func TestReadFileMCPFixture(t *testing.T) {
	tools, err := schema.ReadFile(shared.Path(t, "fixtures", "traces", "mcp", "spec_2025_06_18_tools_call.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "get_weather" {
		t.Fatalf("got %+v", tools)
	}
}

// TestBFCLFunctionDocsParse parses the function docs of every BFCL
// question and compiles each schema.
func TestBFCLFunctionDocsParse(t *testing.T) {
	files, err := filepath.Glob(shared.Path(t, "conformance", "bfcl", "BFCL_v4_*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no BFCL question files (%v)", err)
	}
	n := 0
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		line := 0
		for sc.Scan() {
			line++
			entry := mustJSON(t, sc.Text()).(jsonvalue.Object)
			docs, _ := entry.Get("function")
			tools, err := schema.Parse(docs)
			if err != nil {
				t.Errorf("%s:%d: %v", filepath.Base(path), line, err)
				continue
			}
			for _, tool := range tools {
				if _, err := schema.Validate(tool.Parameters, jsonvalue.Object{}); err != nil {
					t.Errorf("%s:%d: tool %s: %v", filepath.Base(path), line, tool.Name, err)
				}
				n++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d function docs", n)
}

// mcpForm writes tools back as an MCP tools/list result.
func mcpForm(tools []toolgrade.Tool) any {
	out := make([]any, len(tools))
	for i, t := range tools {
		o := jsonvalue.Object{{Key: "name", Value: t.Name}, {Key: "description", Value: t.Description}}
		if t.Parameters != nil {
			o = append(o, jsonvalue.Member{Key: "inputSchema", Value: t.Parameters})
		}
		if t.OutputSchema != nil {
			o = append(o, jsonvalue.Member{Key: "outputSchema", Value: t.OutputSchema})
		}
		out[i] = o
	}
	return jsonvalue.Object{{Key: "tools", Value: out}}
}

// FuzzParse: Parse never panics, and what it reads, written back as an MCP
// tools/list result, reads back the same (normalized schemas are fixed
// points).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]`,
		`{"tools": [{"name": "f", "inputSchema": {"type": "object", "properties": {"x": {"type": "float"}}}}]}`,
		`[{"functionDeclarations": [{"name": "g", "parameters": {"type": "OBJECT", "nullable": true}}]}]`,
		`[{"name": "x", "parameters": {"a": {"type": "List[str], optional"}}}]`,
		`[{"name": "x", "parameters": [{"name": "a", "type": "dict", "required": true}]}]`,
		`{"jsonrpc": "2.0", "result": {"tools": [{"name": "m", "inputSchema": {"type": ["null", "any"]}}]}}`,
		`[{"toolSpec": {"name": "b", "inputSchema": {"json": {"type": "dict"}}}}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonvalue.ParseString(text)
		if err != nil {
			return
		}
		tools, err := schema.Parse(v)
		if err != nil {
			return
		}
		again, err := schema.Parse(mcpForm(tools))
		if err != nil {
			t.Fatalf("re-reading %s: %v", jsonvalue.Append(nil, mcpForm(tools)), err)
		}
		if len(again) != len(tools) {
			t.Fatalf("%d tools, then %d", len(tools), len(again))
		}
		for i := range tools {
			if again[i].Name != tools[i].Name || again[i].Description != tools[i].Description ||
				!jsonvalue.Equal(again[i].Parameters, tools[i].Parameters) || !jsonvalue.Equal(again[i].OutputSchema, tools[i].OutputSchema) {
				t.Fatalf("tool %d changed:\n%+v\n%+v", i, tools[i], again[i])
			}
		}
	})
}
