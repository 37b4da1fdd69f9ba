package compat_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// Every argument key of the table is read, from a call that gives its
// arguments under one of them.
func TestDecodeCallArgsKeys(t *testing.T) {
	q := jsonvalue.Object{{Key: "q", Value: "x"}}
	tests := []struct {
		name string
		in   string
		want toolgrade.Call
	}{
		{"toolgrade", `{"name":"f","args":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"deepeval", `{"name":"f","input_parameters":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"deepeval json", `{"name":"f","inputParameters":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"deepeval metadata", `{"name":"f","inputParameters":{"q":"x"},"description":"d","reasoning":"r"}`, toolgrade.Call{Name: "f", Args: q}},
		{"openai", `{"name":"f","arguments":"{\"q\": \"x\"}"}`, toolgrade.Call{Name: "f", Args: q}},
		{"openai not JSON", `{"name":"f","arguments":"{q: 1}"}`, toolgrade.Call{Name: "f", ArgsRaw: "{q: 1}", Invalid: true}},
		{"openai form", `{"id":"call_1","type":"function","index":0,"function":{"name":"f","arguments":"{\"q\": 1}"}}`,
			toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "q", Value: json.Number("1")}}, ID: "call_1", Type: "function"}},
		{"anthropic", `{"type":"tool_use","id":"t1","name":"f","input":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q, ID: "t1", Type: "tool_use"}},
		{"llama", `{"name":"f","parameters":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"llama with a type", `{"type":"function","name":"f","parameters":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q, Type: "function"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := compat.DecodeCall(v)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DecodeCall(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestDecodeCallKeysNotRead: a key no format gives a call's arguments
// under is an error naming it and what it may mean, never a call that
// drops its arguments and accepts any; so are arguments given twice, and
// a tool definition given as a call.
func TestDecodeCallKeysNotRead(t *testing.T) {
	const argsHint = `not a field of a call; if it gives the call's arguments, name them "args" (or "input_parameters", "inputParameters", "arguments", "input" or "parameters"): read under another name, they would be lost and an expected call would accept any arguments`
	tests := []struct{ in, want string }{
		{`{"name":"get_weather","params":{"city":"Berlin"}}`, "field params: " + argsHint},
		{`{"name":"get_weather","kwargs":{"city":"Berlin"}}`, "field kwargs: " + argsHint},
		{`{"name":"get_weather","tool_input":{"city":"Berlin"}}`, "field tool_input: " + argsHint},
		{`{"name":"get_weather","input_params":{"city":"Berlin"}}`, "field input_params: " + argsHint},
		{`{"name":"get_weather","function_args":{"city":"Berlin"}}`, "field function_args: " + argsHint},
		{`{"name":"get_weather","Args":{"city":"Berlin"}}`, "field Args: " + argsHint},
		{`{"name":"get_weather","agrs":{"city":"Berlin"}}`, "field agrs: " + argsHint},
		{`{"name":"get_weather","arg":"{\"city\":\"Berlin\"}"}`, "field arg: " + argsHint},
		{`{"name":"get_weather","payload":"{\"city\":\"Berlin\"}"}`, "field payload: " + argsHint},
		{`{"name":"get_weather","args":{"city":"Berlin"},"outptu":"sunny"}`, `field outptu: not a field of a call; did you mean "output"?`},
		{`{"name":"get_weather","args":{},"latency_ms":12}`, `field latency_ms: not a field of a call; a call has "name", "args", "input_parameters", "inputParameters", "arguments", "input", "parameters", "output", "id", "type", "rules", "function", "status" or "turn" (see docs/cases.md)`},
		{`{"type":"function","function":{"name":"get_weather","parameters":{"city":"Berlin"}}}`,
			`field function.parameters: a call's function gives its arguments as "arguments"; "parameters" is the JSON Schema of a tool definition (do these belong in available_tools?)`},
		{`{"type":"function","function":{"name":"get_weather","description":"d","parameters":{"type":"object","properties":{}}}}`,
			`field function.description: not a field of a call; a call's "function" has "name" and "arguments" (a tool definition's has "description" and "parameters": does it belong in available_tools?)`},
		{`{"type":"function","function":{"name":"get_weather","params":{"city":"Berlin"}}}`, `field function.params: not a field of a call; a call's "function" has "name" and "arguments" (a tool definition's has "description" and "parameters": does it belong in available_tools?)`},
		{`{"name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}`,
			`field parameters: a JSON Schema ({"type": "object", "properties": ...}): this is a tool definition, not a call (tool definitions go in available_tools); a call gives the values of its arguments as "args"`},
		{`{"name":"get_weather","args":{"city":"Berlin"},"arguments":"{\"city\":\"Paris\"}"}`, `field arguments: the arguments are given both as "args" and as "arguments": give them once`},
		{`{"name":"get_weather","parameters":{"city":"Berlin"},"input":{}}`, `field input: the arguments are given both as "parameters" and as "input": give them once`},
		{`{"name":"a","function":{"name":"b","arguments":"{}"}}`, `field name: given both beside "function" and in it: give the name once`},
		{`{"args":{},"function":{"name":"b","arguments":"{}"}}`, `field args: given beside "function": give the arguments in it, as "arguments"`},
		{`{"function":"get_weather"}`, `field function: want the function called, {"name", "arguments"}, got string`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			c, err := compat.DecodeCall(v)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("DecodeCall(%s) = %+v, %v;\nwant error %s", tt.in, c, err, tt.want)
			}
			if _, err := compat.DecodeCalls([]any{v}); err == nil || !strings.HasPrefix(err.Error(), "field [0].") {
				t.Errorf("DecodeCalls([%s]) error %v, want it to name the element", tt.in, err)
			}
		})
	}
}

func TestCallKeys(t *testing.T) {
	want := []string{"name", "args", "input_parameters", "inputParameters", "arguments", "input", "parameters",
		"output", "id", "type", "rules", "function", "status", "turn"}
	if diff := cmp.Diff(want, compat.CallKeys()); diff != "" {
		t.Errorf("CallKeys (-want +got):\n%s", diff)
	}
}

// FuzzDecodeCall: any JSON value decodes to a call or an error, never a
// panic; a call read has a name, and its arguments are in the value model
// or kept as text.
func FuzzDecodeCall(f *testing.F) {
	for _, s := range []string{
		`{"name":"f","args":{"q":"x"}}`,
		`{"name":"f","input_parameters":{"q":[1,2.5]},"output":"ok","id":3}`,
		`{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":"}}`,
		`{"name":"f","input":null,"rules":{"q":{"regex":"^a"}},"turn":2,"status":"error"}`,
		`{"function":"f"}`, `[]`, `"f"`, `{"name":"f","params":{}}`, `{"name":"f","parameters":{"a":1},"description":"d"}`,
		`{"type":"function","function":{"name":"f","parameters":{}}}`, `{"name":"f","args":1,"input":2}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := jsonvalue.ParseString(s)
		if err != nil {
			return
		}
		c, err := compat.DecodeCall(v)
		if err != nil {
			return
		}
		if !jsonvalue.InModel(c.Args) || c.Invalid && c.Args != nil {
			t.Fatalf("%s: args %#v (invalid %v)", s, c.Args, c.Invalid)
		}
		// Every key was read or ignored for a reason, and the arguments
		// are read when any argument key is there.
		obj := v.(jsonvalue.Object)
		if fn, ok := obj.Get("function"); ok {
			obj = append(obj, fn.(jsonvalue.Object)...)
		}
		hasArgs := false
		for _, m := range obj {
			if _, ignored := compat.IgnoredCallKeys()[m.Key]; !slices.Contains(compat.CallKeys(), m.Key) && !ignored {
				t.Fatalf("%s decoded, though %q is not read", s, m.Key)
			}
			hasArgs = hasArgs || slices.Contains(compat.CallKeys()[1:7], m.Key)
		}
		if hasArgs && c.Args == nil && !c.Invalid && !c.ArgsNull {
			t.Fatalf("%s: the arguments were not read", s)
		}
	})
}

// TestDecodeCallsInAsEach holds DecodeCallsIn, which reads usual calls
// with toolgrade.DecodeUsualCall first, to DecodeCall of each call in
// turn: generated lists of calls, most usual, some with a schema as
// their parameters or keys a call does not have, decode alike or fail
// alike, into a buffer that held other calls.
func TestDecodeCallsInAsEach(t *testing.T) {
	schema := jsonvalue.Object{{Key: "type", Value: "object"}, {Key: "properties", Value: jsonvalue.Object{}}}
	values := []any{nil, "", "f", `{"q":1}`, `{"q":`, json.Number("1"), jsonvalue.Object{{Key: "q", Value: "x"}}, schema}
	keys := []string{"name", "args", "arguments", "parameters", "id", "description", "argz"}
	rapid.Check(t, func(t *rapid.T) {
		var list []any
		for range rapid.IntRange(0, 4).Draw(t, "calls") {
			obj := jsonvalue.Object{{Key: "name", Value: "f"}, {Key: "args", Value: rapid.SampledFrom(values).Draw(t, "args")}}
			if rapid.Bool().Draw(t, "unusual") {
				obj[0].Value = rapid.SampledFrom(values).Draw(t, "name")
				obj[1].Key = rapid.SampledFrom(keys).Draw(t, "key")
			}
			for range rapid.IntRange(0, 2).Draw(t, "more") / 2 {
				obj = append(obj, jsonvalue.Member{Key: rapid.SampledFrom(keys).Draw(t, "key"), Value: rapid.SampledFrom(values).Draw(t, "value")})
			}
			list = append(list, obj)
		}
		buf := slices.Repeat([]toolgrade.Call{{Name: "old", ID: "x", Turn: 3}}, len(list))
		got, gotErr := compat.DecodeCallsIn(buf, list)
		var want []toolgrade.Call
		var wantErr error
		for i, e := range list {
			c, err := compat.DecodeCall(e)
			if err != nil {
				wantErr = toolgrade.InField("["+strconv.Itoa(i)+"]", err)
				break
			}
			want = append(want, c)
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, want %v", gotErr, wantErr)
		}
		if gotErr == nil && !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
			t.Fatalf("calls (-each +list):\n%s", cmp.Diff(want, got, cmpopts.EquateEmpty()))
		}
	})
}
