package toolgrade_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func mustParse(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func TestNormalizeToolName(t *testing.T) {
	tests := map[string]string{
		"delegate_to_sql_agent_xg7c": "delegate_to_sql_agent",
		"search_zor2":                "search",
		"search_2ZOR":                "search",
		"get_data":                   "get_data",     // letters only: a real word
		"report_2024":                "report_2024",  // digits only: a real suffix
		"search_nxle":                "search_nxle",  // letters only, even if random
		"a_b1c2d":                    "a_b1c2d",      // five characters
		"_x1y2":                      "_x1y2",        // nothing left before it
		"tool_x-1y":                  "tool_x-1y",    // not letters and digits
		"weather_é1ab":               "weather_é1ab", // not ASCII
	}
	for in, want := range tests {
		if got := toolgrade.NormalizeToolName(in); got != want {
			t.Errorf("NormalizeToolName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeCall(t *testing.T) {
	own := &toolgrade.CallDecoder{}
	other := &toolgrade.CallDecoder{ArgsKeys: []string{"args", "params", "arguments"}}
	tests := []struct {
		name string
		dec  *toolgrade.CallDecoder
		in   string
		want toolgrade.Call
	}{
		{"plain", own, `{"name":"f","args":{"a":1},"output":"ok","id":"c1"}`,
			toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "a", Value: json.Number("1")}}, Output: "ok", ID: "c1"}},
		{"args as JSON text", own, `{"name":"f","args":"{\"a\": [1]}"}`,
			toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "a", Value: []any{json.Number("1")}}}}},
		{"args not JSON", own, `{"name":"f","args":"{a: 1}"}`,
			toolgrade.Call{Name: "f", ArgsRaw: "{a: 1}", Invalid: true}},
		{"empty args text", own, `{"name":"f","args":""}`,
			toolgrade.Call{Name: "f", ArgsRaw: "", Invalid: true}},
		{"no args", own, `{"name":"f"}`, toolgrade.Call{Name: "f"}},
		{"null args", own, `{"name":"f","args":null}`, toolgrade.Call{Name: "f", ArgsNull: true}},
		{"numeric id", own, `{"name":"f","id":7}`, toolgrade.Call{Name: "f", ID: "7"}},
		{"another key", other, `{"name":"f","params":{"q":"x"}}`,
			toolgrade.Call{Name: "f", Args: jsonvalue.Object{{Key: "q", Value: "x"}}}},
		{"ignored keys", &toolgrade.CallDecoder{Ignored: map[string]string{"note": "metadata"}}, `{"name":"f","note":"x"}`, toolgrade.Call{Name: "f"}},
		{"openai form", other, `{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}`,
			toolgrade.Call{Name: "f", Args: jsonvalue.Object{}, ID: "call_1", Type: "function"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.dec.DecodeCall(mustParse(t, tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DecodeCall(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestDecodeCallsErrorsNameTheField(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`[{"name":"f"},{"args":{}}]`, "field [1].name: missing"},
		{`[{"name":1}]`, "field [0].name: want a string, got integer"},
		{`[{"name":"f","rules":{"a":{"regex":"("}}}]`, "field [0].rules.a.regex: error parsing regexp"},
		{`[{"name":"f","rules":{"a":{"within":1}}}]`, "field [0].rules.a.within: unknown rule"},
		{`[{"name":"f","rules":{"a":{"type":"str"}}}]`, "field [0].rules.a.type: want one of"},
		{`{"name":"f"}`, "want a list of calls, got object"},
		// Every key is read, or an error: arguments under a key the
		// decoder does not read would be lost.
		{`[{"name":"f","arguments":"{}"}]`, "field [0].arguments: not a field of a call"},
		{`[{"name":"f","args":{},"args_note":1}]`, "field [0].args_note: not a field of a call"},
		{`[{"name":"f","function":{"name":"g","arguments":"{}"}}]`, `field [0].name: given both beside "function" and in it`},
		{`[{"type":"function","function":{"name":"g","parameters":{}}}]`, `field [0].function.parameters: a call's function gives its arguments as "arguments"`},
		{`[{"type":"function","function":{"name":"g","description":"d"}}]`, `field [0].function.description: not a field of a call; a call's "function" has "name" and "arguments"`},
		{`[{"name":""}]`, "field [0].name: empty"},
		{`[{"function":{"name":""}}]`, "field [0].name: empty"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := (&toolgrade.CallDecoder{}).DecodeCalls(mustParse(t, tt.in))
			var fe *toolgrade.FieldError
			if err != nil && !errors.As(err, &fe) && tt.in[0] == '[' {
				t.Errorf("DecodeCalls(%s) error %T, want a *FieldError", tt.in, err)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeCalls(%s) error = %v, want it to contain %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestDecodeRules(t *testing.T) {
	rules, err := toolgrade.DecodeRules(mustParse(t, `{
		"city": {"one_of": ["Paris", "paris"]},
		"when.date": {"regex": "^2024-"},
		"attendees[0].name": {"optional": true},
		"temp": {"approx": 20, "tol": 0.5},
		"note": {"fuzzy": 0.8, "type": "string"},
		"trace_id": {"ignore": true}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rules["attendees.0.name"]; !ok {
		t.Errorf("bracketed path not normalized: %v", rules)
	}
	if r := rules["temp"]; r.Approx == nil || *r.Approx != 20 || r.Tol != 0.5 || !r.HasTol {
		t.Errorf("temp rule = %+v", r)
	}
	if r := rules["note"]; r.Fuzzy != 0.8 || r.Type != "string" {
		t.Errorf("note rule = %+v", r)
	}
	if !rules["trace_id"].Ignore || rules["when.date"].Regex == nil || len(rules["city"].OneOf) != 2 {
		t.Errorf("rules = %+v", rules)
	}
}

func TestCallString(t *testing.T) {
	c := toolgrade.Call{Name: "get_weather", Args: mustParse(t, `{"city":"Paris"}`)}
	if got, want := c.String(), `get_weather({"city":"Paris"})`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	bad := toolgrade.Call{Name: "f", ArgsRaw: "{oops", Invalid: true}
	if got := bad.String(); !strings.Contains(got, "invalid JSON") {
		t.Errorf("String() of an invalid call = %s", got)
	}
}

// TestDecodeCallInto: decoding into a call gives what DecodeCall returns,
// whatever the call held before, and the zero call with an error.
func TestDecodeCallInto(t *testing.T) {
	d := &toolgrade.CallDecoder{ArgsKeys: []string{"args", "arguments"}}
	for _, in := range []string{
		`{"name": "f", "args": {"a": 1}, "id": "c1", "output": "x", "status": "ok", "turn": 2, "type": "function"}`,
		`{"id": 3, "type": "function", "function": {"name": "g", "arguments": "{\"b\": [1]}"}}`,
		`{"name": "h", "args": "{not json"}`,
		`{"name": "r", "args": {"n": 1}, "rules": {"n": {"approx": 1, "tol": 0.5}}}`,
		`{"name": ""}`, `{"args": {}}`, `{"name": "f", "args": {}, "arguments": {}}`, `{"name": "f", "turn": 0}`,
		`{"name": "f", "bogus": 1}`, `[1]`, `{"function": {"name": "f", "parameters": {}}}`,
	} {
		v := mustParse(t, in)
		want, wantErr := d.DecodeCall(v)
		got := toolgrade.Call{Name: "stale", Args: "stale", Turn: 9, Invalid: true}
		err := d.DecodeCallInto(&got, v)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%s: error %v, DecodeCall's %v", in, err, wantErr)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b toolgrade.Rule) bool { return a.Tol == b.Tol && a.HasTol == b.HasTol })); diff != "" {
			t.Errorf("%s: (-DecodeCall +DecodeCallInto)\n%s", in, diff)
		}
	}
}
