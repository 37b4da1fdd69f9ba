package promptfoo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/compat/promptfoo"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestPromptfooConformance runs every line of promptfoo.jsonl (the
// package's sample, and the shared corpus when present) through the
// profile, built from the line's config as a config file would build it.
func TestPromptfooConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "promptfoo.jsonl", Lines: 1358})
}

func grade(t *testing.T, opts promptfoo.Options, cs string) toolgrade.MetricResult {
	t.Helper()
	m, err := promptfoo.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m.Grade(context.Background(), conformance.ParseCase(t, cs))
}

func TestToolCallF1Quirks(t *testing.T) {
	tests := []struct {
		name   string
		opts   promptfoo.Options
		output string // the output as JSON
		value  string
		score  float64
		pass   bool
		err    string
	}{
		{"sets: duplicates and arguments ignored", promptfoo.Options{}, `{"tool_calls":[{"function":{"name":"a","arguments":"{}"}},{"function":{"name":"a","arguments":"{\"x\":1}"}}]}`, `["a"]`, 1, true, ""},
		{"nothing called", promptfoo.Options{}, `"no tools"`, `"a, b"`, 0, false, ""},
		{"half the names", promptfoo.Options{Threshold: toolgrade.Float(0.6)}, `[{"name":"a"},{"name":"c"}]`, `["a","b"]`, 0.5, false, ""},
		{"not- inverts the verdict, not the score", promptfoo.Options{Type: "not-tool-call-f1"}, `[{"type":"tool_use","name":"a"}]`, `["a"]`, 1, false, ""},
		{"JSON on its own line in prose", promptfoo.Options{}, `"I will call:\n[{\"name\": \"a\"}]\nthen stop"`, `"a"`, 1, true, ""},
		{"a lone {name} object is no call", promptfoo.Options{}, `{"name":"a"}`, `"a"`, 0, false, ""},
		{"JSON in a fenced block is not read", promptfoo.Options{}, "\"```json\\n[{\\\"name\\\": \\\"a\\\"}]\\n```\"", `"a"`, 0, false, ""},
		{"JSON after text on its line is not read", promptfoo.Options{}, `"Calling: [{\"name\": \"a\"}]"`, `"a"`, 0, false, ""},
		{"list items through String()", promptfoo.Options{}, `[{"name":"null"},{"name":"1"}]`, `[null, 1, " "]`, 1, true, ""},
		{"weight 0 passes", promptfoo.Options{Weight: toolgrade.Float(0)}, `[]`, `["a"]`, 0, true, ""},
		{"no name at all", promptfoo.Options{}, `[]`, `" , "`, 0, false, "invariant failed"},
		{"a value of the wrong type", promptfoo.Options{}, `[]`, `{"a":1}`, 0, false, "invariant failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, tt.opts, `{"output":`+tt.output+`,"value":`+tt.value+`}`)
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || r.Score != tt.score || r.Success != tt.pass {
				t.Errorf("score %v success %v error %q, want %v %v (reason: %s)", r.Score, r.Success, r.Error, tt.score, tt.pass, r.Reason)
			}
		})
	}
}

func TestValidityQuirks(t *testing.T) {
	call := func(args string) string {
		return fmt.Sprintf(`[{"id":"c","type":"function","function":{"name":"f","arguments":%q}}]`, args)
	}
	tool := func(params string) string {
		return `[{"type":"function","function":{"name":"f","parameters":` + params + `}}]`
	}
	tests := []struct {
		name          string
		output, tools string
		pass          bool
		err           string
	}{
		{"valid", call(`{"n":3}`), tool(`{"type":"object","properties":{"n":{"type":"integer"}}}`), true, ""},
		{"3.0 is an integer", call(`{"n":3.0}`), tool(`{"type":"object","properties":{"n":{"type":"integer"}}}`), true, ""},
		{"an unknown keyword fails compilation", call(`{}`), tool(`{"type":"object","example":{}}`), false, ""},
		{"nullable is Ajv's", call(`{"s":null}`), tool(`{"type":"object","properties":{"s":{"type":"string","nullable":true}}}`), true, ""},
		{"a date-time needs a zone", call(`{"d":"2026-01-01T10:00:00"}`), tool(`{"type":"object","properties":{"d":{"type":"string","format":"date-time"}}}`), false, ""},
		{"no such date", call(`{"d":"2026-02-30"}`), tool(`{"type":"object","properties":{"d":{"type":"string","format":"date"}}}`), false, ""},
		{"lengths count code points", call(`{"s":"😀😀"}`), tool(`{"type":"object","properties":{"s":{"maxLength":2}}}`), true, ""},
		{"uniqueItems by value", call(`{"l":[1,1.0]}`), tool(`{"type":"object","properties":{"l":{"uniqueItems":true}}}`), false, ""},
		{"MCP Tool Result passes unchecked", `"MCP Tool Result (x): ok"`, `[]`, true, ""},
		{"arguments as an object fail", `[{"function":{"name":"f","arguments":{}}}]`, tool(`true`), false, ""},
		{"no tools", call(`{}`), `null`, false, ""},
		{"a null output throws", `null`, tool(`true`), false, "TypeError"},
		{"lookaround is not reproduced", call(`{"s":"a"}`), tool(`{"properties":{"s":{"pattern":"(?=a)"}}}`), false, "lookaround"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, promptfoo.Options{Type: "is-valid-openai-tools-call"}, `{"output":`+tt.output+`,"available_tools":`+tt.tools+`}`)
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || r.Success != tt.pass {
				t.Errorf("success %v error %q, want %v (reason: %s)", r.Success, r.Error, tt.pass, r.Reason)
			}
		})
	}
}

func TestTrajectoryQuirks(t *testing.T) {
	span := func(name, start string, attrs string) string {
		return `{"spanId":"s","name":"` + name + `","startTime":` + start + `,"endTime":` + start + `,"attributes":` + attrs + `}`
	}
	trace := `{"traceId":"t","spans":[` + strings.Join([]string{
		span("execute_tool search", "2", `{"tool.name":"search","tool.arguments":"{\"q\":\"x\",\"n\":0}"}`),
		span("llm", "1", `{"gen_ai.operation.name":"chat"}`),
		span("mcp call/fetch", "3", `{"input":{"url":"u"}}`),
		span("shell", "4", `{"tool.name":"shell","command":"ls"}`),
	}, ",") + `]}`
	tests := []struct {
		name  string
		typ   promptfoo.Type
		value string
		pass  bool
		err   string
	}{
		{"a glob on the span name", "trajectory:tool-used", `"EXECUTE_TOOL*"`, true, ""},
		{"a tool named by an mcp span", "trajectory:tool-used", `["fetch","search"]`, true, ""},
		{"a command tool is not a tool step", "trajectory:tool-used", `"shell"`, false, ""},
		{"not-: none may match", "not-trajectory:tool-used", `["fetch","nope"]`, false, ""},
		{"count", "trajectory:tool-used", `{"pattern":"*","min":2,"max":2}`, true, ""},
		{"in order", "trajectory:tool-sequence", `["search","fetch"]`, true, ""},
		{"exact needs every tool step", "trajectory:tool-sequence", `{"mode":"exact","steps":["search"]}`, false, ""},
		{"partial args", "trajectory:tool-args-match", `{"name":"search","args":{"q":"x"}}`, true, ""},
		{"0 is not -0", "trajectory:tool-args-match", `{"name":"search","args":{"q":"x","n":-0},"mode":"exact"}`, false, ""},
		{"defaults drop equal arguments", "trajectory:tool-args-match", `{"name":"search","args":{"q":"x"},"mode":"exact","defaults":{"n":0}}`, true, ""},
		{"mode is case-sensitive", "trajectory:tool-args-match", `{"name":"search","args":{},"mode":"EXACT"}`, false, "mode must be"},
		{"an empty list throws", "trajectory:tool-used", `[]`, false, "at least one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, promptfoo.Options{Type: tt.typ}, `{"output":"","trace":`+trace+`,"value":`+tt.value+`}`)
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" || r.Success != tt.pass || r.Score != map[bool]float64{true: 1, false: 0}[tt.pass] {
				t.Errorf("score %v success %v error %q, want %v (reason: %s)", r.Score, r.Success, r.Error, tt.pass, r.Reason)
			}
		})
	}
}

// FuzzToolCallF1 feeds any text to tool-call-f1: no panic, a score in
// [0, 1].
func FuzzToolCallF1(f *testing.F) {
	for _, s := range []string{"```json\n{\"name\":\"a\"}\n```", "- {\"name\":\"a\"}\n{\"name\":\"b\"}", "{\"a\": {\"name\":\"i\"}, bad}", "[[[[", "\"x\\\"{\"", "~~~\n  {\n~~~"} {
		f.Add(s)
	}
	m, _ := promptfoo.New(promptfoo.Options{})
	f.Fuzz(func(t *testing.T, text string) {
		c := &toolgrade.Case{Raw: jsonvalue.Object{{Key: "output", Value: text}, {Key: "value", Value: "a,b"}}}
		r := m.Grade(context.Background(), c)
		if r.Error != "" || r.Score < 0 || r.Score > 1 {
			t.Fatalf("score %v error %q", r.Score, r.Error)
		}
	})
}

// FuzzSchemaCheck feeds any parameters and arguments to the tools check:
// no panic.
func FuzzSchemaCheck(f *testing.F) {
	f.Add(`{"type":"object","properties":{"s":{"type":"string","pattern":"^[A-Z]{3}$","format":"email"}},"required":["s"]}`, `{"s":"ABC"}`)
	f.Add(`{"$ref":"#/definitions/d","definitions":{"d":{"anyOf":[{"type":"integer"},{"const":{"a":[1]}}]}}}`, `{"a":[1.0]}`)
	f.Add(`{"pattern":"[\\u{1F600}-\\u{1F64F}]+\\p{L}?(?<x>a)"}`, `"😀"`)
	m, _ := promptfoo.New(promptfoo.Options{Type: "is-valid-openai-tools-call"})
	f.Fuzz(func(t *testing.T, params, args string) {
		p, err := jsonvalue.ParseString(params)
		if err != nil {
			return
		}
		call := jsonvalue.Object{{Key: "function", Value: jsonvalue.Object{{Key: "name", Value: "f"}, {Key: "arguments", Value: args}}}}
		tools := []any{jsonvalue.Object{{Key: "type", Value: "function"}, {Key: "function", Value: jsonvalue.Object{{Key: "name", Value: "f"}, {Key: "parameters", Value: p}}}}}
		m.Grade(context.Background(), &toolgrade.Case{Raw: jsonvalue.Object{{Key: "output", Value: []any{call}}, {Key: "available_tools", Value: tools}}})
	})
}

func ExampleMetric() {
	m, _ := promptfoo.New(promptfoo.Options{Type: "tool-call-f1", Threshold: toolgrade.Float(0.5)})
	v, _ := jsonvalue.ParseString(`{"output": "Let me look.\n{\"tool_calls\": [{\"function\": {\"name\": \"search\"}}, {\"function\": {\"name\": \"search\"}}]}", "value": ["search", "book"]}`)
	c := &toolgrade.Case{Raw: v.(jsonvalue.Object)}
	r := m.Grade(context.Background(), c)
	fmt.Printf("%.3f %v\n", r.Score, r.Success)
	// Output: 0.667 true
}
