package trace_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

func TestParseToolCalls(t *testing.T) {
	tests := []struct {
		protocol trace.Protocol
		text     string
		want     []string // calls as Call.String prints them
	}{
		{"hermes", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", []string{`get_weather({"city":"Paris"})`}},
		{"hermes", "Let me check.\n<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\n<tool_call>{'name': 'b', 'arguments': {'x': True}}</tool_call>", []string{`a({})`, `b({"x":true})`}},
		{"hermes", `<tool_call>{"name": "f", "arguments": {"x": </tool_call>`, []string{`f(<invalid JSON: "{\"name\": \"f\", \"arguments\": {\"x\":">)`}},
		{"hermes", "It is sunny in Paris.", nil},
		{"json", `{"name": "get_weather", "arguments": {"city": "Paris"}}`, []string{`get_weather({"city":"Paris"})`}},
		{"json", "```json\n[{\"name\": \"a\", \"parameters\": {\"n\": 1}}, {\"name\": \"b\", \"arguments\": \"{\\\"s\\\": \\\"x\\\"}\"}]\n```", []string{`a({"n":1})`, `b({"s":"x"})`}},
		{"json", `{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 2}"}}]}`, []string{`f({"a":2})`}},
		{"json", "Sure, calling it now:\n```\n{\"name\": \"f\", \"arguments\": {}}\n```", []string{`f({})`}},
		{"json", `{"name": "f", "arguments": {"a": 1`, []string{`f(<invalid JSON: "{\"name\": \"f\", \"arguments\": {\"a\": 1">)`}},
		{"json", "The answer is 42.", nil},
		{"pythonic", "[get_weather(city='Paris', days=3), math.factorial(number=5)]", []string{`get_weather({"city":"Paris","days":3})`, `math.factorial({"number":5})`}},
		{"pythonic", "```python\nf(a=None, b=[1, 2])\n```", []string{`f({"a":null,"b":[1,2]})`}},
		{"pythonic", "[f(a='unterminated)]", []string{`f(<invalid JSON: "[f(a='unterminated)]">)`}},
		{"pythonic", "f(1, 2)", []string{`f(<invalid JSON: "1, 2">)`}},
		{"pythonic", "[]", nil},
		{"pythonic", "I cannot help with that.", nil},
		{"pythonic", "Here you go:\n```\n[g(x=1)]\n```", []string{`g({"x":1})`}},
	}
	for _, tt := range tests {
		t.Run(string(tt.protocol)+"/"+tt.text, func(t *testing.T) {
			calls, err := trace.ParseToolCalls(tt.text, tt.protocol)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range calls {
				got = append(got, c.String())
				if c.Invalid != (c.ArgsRaw != "") {
					t.Errorf("%s: Invalid %v with ArgsRaw %q", c, c.Invalid, c.ArgsRaw)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("calls %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseToolCallsUnknownProtocol(t *testing.T) {
	_, err := trace.ParseToolCalls("f()", "xml")
	if err == nil || !strings.Contains(err.Error(), "hermes, json, pythonic") {
		t.Errorf("error %v, want one naming the protocols", err)
	}
}

func FuzzParseToolCalls(f *testing.F) {
	for _, s := range []string{
		"<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>",
		`[{"name": "f", "arguments": {"a": [1, {"b": null}]}}]`,
		"```json\n{\"tool_calls\": [{\"function\": {\"name\": \"f\"}}]}\n```",
		"[f(a=1), g(b='x')]",
		"```python\nf(\n```",
		"prose with ``` a fence",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range trace.TextProtocols() {
			calls, err := trace.ParseToolCalls(text, p)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, c := range calls {
				if c.Invalid && c.Args != nil || !c.Invalid && c.ArgsRaw != "" {
					t.Errorf("%s: call %+v: Invalid calls keep ArgsRaw and no Args; valid ones no ArgsRaw", p, c)
				}
			}
		}
	})
}
