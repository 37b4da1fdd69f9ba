package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/schema"
)

// TestMCPSchemaExample runs the README's command on examples/mcp-schema
// and compares the results with the golden file.
func TestMCPSchemaExample(t *testing.T) {
	code, out, stderr := run(t, "", "eval", "--config", "../../examples/mcp-schema/config.yaml", "../../examples/mcp-schema/cases.jsonl")
	if code != 1 {
		t.Errorf("exit code %d, want 1 (the example has invalid calls on purpose); stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "10 cases: 4 passed, 6 failed") {
		t.Errorf("summary missing from stderr: %s", stderr)
	}
	checkGolden(t, "examples_mcp_schema.golden.jsonl", out)
}

func TestEvalToolsFlag(t *testing.T) {
	tools := writeFile(t, "tools.json", `{"tools": [{"name": "lookup", "inputSchema": {"type": "object", "required": ["q"]}}]}`)
	other := writeFile(t, "other.json", `[{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}]`)
	config := writeFile(t, "config.yaml", "tools: "+filepath.Base(tools)+"\nmetrics:\n  - metric: schema\n")
	// config.yaml and tools.json are in different directories: a relative
	// tools path resolves against the config's directory.
	if err := os.Rename(tools, filepath.Join(filepath.Dir(config), filepath.Base(tools))); err != nil {
		t.Fatal(err)
	}
	cases := writeFile(t, "cases.jsonl", `{"id": "a", "tools_called": [{"name": "lookup", "args": {}}]}`+"\n"+
		`{"id": "b", "tools_called": [{"name": "lookup", "args": {}}], "available_tools": [{"name": "lookup"}]}`+"\n")

	code, out, stderr := run(t, "", "eval", "--config", config, cases)
	if code != 1 || !strings.Contains(out, `"id":"a","success":false`) || !strings.Contains(out, "missing property 'q'") ||
		!strings.Contains(out, `"id":"b","success":true`) {
		t.Errorf("config tools: exit %d\n%s\n%s", code, out, stderr)
	}
	// --tools overrides the config's tools.
	code, out, stderr = run(t, "", "eval", "--config", config, "--tools", other, cases)
	if code != 0 || strings.Contains(out, `"success":false`) {
		t.Errorf("--tools: exit %d\n%s\n%s", code, out, stderr)
	}
	// An unreadable tools file is bad input: exit 2 before any result.
	bad := writeFile(t, "bad.json", `[{"name": "x", "parameters": {"type": "datetime"}}]`)
	code, out, stderr = run(t, "", "eval", "--config", config, "--tools", bad, cases)
	if code != 2 || out != "" || !strings.Contains(stderr, `bad.json: field [0].parameters.type: unknown type "datetime"`) {
		t.Errorf("bad tools: exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	// The schema metric without any tools says so, per case.
	code, out, _ = run(t, "", "eval", "--config", writeFile(t, "c.yaml", "metrics:\n  - metric: schema\n"), cases)
	if code != 1 || !strings.Contains(out, "no tool definitions") {
		t.Errorf("no tools: exit %d\n%s", code, out)
	}
}

// TestWriteFindingsShared: a finding several tools share is one line
// naming them; the count still counts each tool's finding.
func TestWriteFindingsShared(t *testing.T) {
	const gemini = `Gemini's OpenAPI-style "parameters" field rejects "$schema"`
	var findings []schema.Finding
	for _, name := range []string{"a", "b", "c"} {
		findings = append(findings, schema.Finding{Tool: name, Path: "parameters", Level: schema.LintWarning, Message: gemini})
	}
	findings = append(findings, schema.Finding{Tool: "b", Path: "description", Level: schema.LintWarning, Message: "no description"},
		schema.Finding{Tool: "a.b", Path: "name", Level: schema.LintError, Message: "bad name"})
	var out strings.Builder
	if errs := writeFindings(&out, findings); errs != 1 {
		t.Errorf("%d errors, want 1", errs)
	}
	want := "warning: 3 tools (a, b, c): parameters: " + gemini + "\n" +
		"warning: tool b: description: no description\n" +
		"error: tool a.b: name: bad name\n" +
		"1 errors, 4 warnings\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
