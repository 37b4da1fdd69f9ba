package compat_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Every argument key of the table is read, and a call with several is
// read from the first in the table's order, whatever its own.
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
		{"openai", `{"name":"f","arguments":"{\"q\": \"x\"}"}`, toolgrade.Call{Name: "f", Args: q}},
		{"openai not JSON", `{"name":"f","arguments":"{q: 1}"}`, toolgrade.Call{Name: "f", ArgsRaw: "{q: 1}", Invalid: true}},
		{"openai form", `{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"q\": 1}"}}`,
			toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "q", Value: json.Number("1")}}, ID: "call_1", Type: "function"}},
		{"anthropic", `{"name":"f","input":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"args first", `{"name":"f","input":1,"arguments":"2","inputParameters":3,"input_parameters":4,"args":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"then input_parameters", `{"name":"f","input":1,"arguments":"2","inputParameters":3,"input_parameters":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"then inputParameters", `{"name":"f","input":1,"arguments":"2","inputParameters":{"q":"x"}}`, toolgrade.Call{Name: "f", Args: q}},
		{"then arguments", `{"name":"f","input":1,"arguments":"{\"q\":\"x\"}"}`, toolgrade.Call{Name: "f", Args: q}},
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

func TestCallKeys(t *testing.T) {
	want := []string{"name", "args", "input_parameters", "inputParameters", "arguments", "input",
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
		`{"function":"f"}`, `[]`, `"f"`,
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
	})
}
