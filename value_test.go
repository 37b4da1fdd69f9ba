package toolgrade_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

// tb is what mustParse needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func mustParse(t tb, s string) any {
	t.Helper()
	v, err := toolgrade.ParseJSONString(s)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`100`, `1E+2`, true},
		{`0`, `-0.0`, true},
		{`-0`, `0`, true},
		{`true`, `1`, false},
		{`false`, `0`, false},
		{`"1"`, `1`, false},
		{`null`, `null`, true},
		{`null`, `{}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{`{"a":null}`, `{}`, false},
		{`{"a":{"b":[1.0]}}`, `{"a":{"b":[1]}}`, true},
		{`[]`, `{}`, false},
		{`9007199254740993`, `9007199254740992`, false},   // integers compare exactly
		{`9007199254740993`, `9007199254740992.0`, false}, // and exactly against floats
		{`0.1`, `0.10`, true},
	}
	for _, tt := range tests {
		t.Run(tt.a+" vs "+tt.b, func(t *testing.T) {
			a, b := mustParse(t, tt.a), mustParse(t, tt.b)
			if got := toolgrade.Equal(a, b); got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := toolgrade.Equal(b, a); got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestCompareNumbers(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "2", -1}, {"-1", "-2", 1}, {"10", "9", 1}, {"-10", "-9", -1},
		{"1.5", "1", 1}, {"-0", "0", 0}, {"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"1e400", "1e300", 1},
	}
	for _, tt := range tests {
		if got := toolgrade.CompareNumbers(json.Number(tt.a), json.Number(tt.b)); got != tt.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestIsIntegerLiteral(t *testing.T) {
	for n, want := range map[string]bool{
		"0": true, "-12": true, "123456789012345678901234567890": true,
		"1.0": false, "1e5": false, "1E5": false, "-2.5e-3": false, "9007199254740993.": false,
	} {
		t.Run(n, func(t *testing.T) {
			if got := toolgrade.IsIntegerLiteral(n); got != want {
				t.Errorf("IsIntegerLiteral(%q) = %v, want %v", n, got, want)
			}
		})
	}
}

// genValue draws an arbitrary JSON value as text.
func genValue(depth int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		kinds := 5
		if depth > 0 {
			kinds = 7
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return "null"
		case 1:
			return rapid.SampledFrom([]string{"true", "false"}).Draw(t, "bool")
		case 2:
			return rapid.SampledFrom([]string{"0", "1", "1.0", "-2", "2.5", "1e2", "100"}).Draw(t, "num")
		case 3, 4:
			s, _ := json.Marshal(rapid.SampledFrom([]string{"", "a", "b", "é", "1"}).Draw(t, "str"))
			return string(s)
		case 5:
			n := rapid.IntRange(0, 3).Draw(t, "len")
			parts := make([]string, n)
			for i := range parts {
				parts[i] = genValue(depth-1).Draw(t, "elem")
			}
			return "[" + strings.Join(parts, ",") + "]"
		default:
			keys := rapid.SliceOfDistinct(rapid.SampledFrom([]string{"a", "b", "c", "d"}), rapid.ID).Draw(t, "keys")
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = `"` + k + `":` + genValue(depth-1).Draw(t, "member")
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
	})
}

// TestEqualIsAnEquivalence: reflexive, symmetric, and blind to key order.
func TestEqualIsAnEquivalence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := mustParse(t, genValue(3).Draw(t, "a"))
		b := mustParse(t, genValue(3).Draw(t, "b"))
		if !toolgrade.Equal(a, a) {
			t.Fatalf("Equal(a, a) is false for %s", toolgrade.AppendJSON(nil, a))
		}
		if toolgrade.Equal(a, b) != toolgrade.Equal(b, a) {
			t.Fatalf("Equal is not symmetric")
		}
		if obj, ok := a.(toolgrade.Object); ok && len(obj) > 1 {
			rev := make(toolgrade.Object, len(obj))
			for i := range obj {
				rev[i] = obj[len(obj)-1-i]
			}
			if !toolgrade.Equal(obj, rev) {
				t.Fatalf("key order matters for %s", toolgrade.AppendJSON(nil, obj))
			}
		}
	})
}

func TestValue(t *testing.T) {
	got, err := toolgrade.Value(map[string]any{"b": 1, "a": []any{2.5, true, nil, "x"}, "c": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, `{"a":[2.5,true,null,"x"],"b":1,"c":{}}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Value mismatch (-want +got):\n%s", diff)
	}
	// Integral floats stay floats.
	if v := toolgrade.MustValue(2.0); v != json.Number("2.0") {
		t.Errorf("MustValue(2.0) = %v, want 2.0", v)
	}
	type point struct {
		X int `json:"x"`
	}
	if v := toolgrade.MustValue([]point{{1}}); !toolgrade.Equal(v, mustParse(t, `[{"x":1}]`)) {
		t.Errorf("MustValue(struct slice) = %s", toolgrade.AppendJSON(nil, v))
	}
}

func TestKind(t *testing.T) {
	for in, want := range map[string]string{`null`: "null", `true`: "boolean", `1`: "integer", `1.0`: "number", `1e3`: "number", `""`: "string", `[]`: "array", `{}`: "object"} {
		if got := toolgrade.Kind(mustParse(t, in)); got != want {
			t.Errorf("Kind(%s) = %s, want %s", in, got, want)
		}
	}
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
	tests := []struct {
		name string
		in   string
		want toolgrade.Call
	}{
		{"plain", `{"name":"f","args":{"a":1},"output":"ok","id":"c1"}`,
			toolgrade.Call{Name: "f", Args: toolgrade.Object{{"a", json.Number("1")}}, Output: "ok", ID: "c1"}},
		{"args as JSON text", `{"name":"f","arguments":"{\"a\": [1]}"}`,
			toolgrade.Call{Name: "f", Args: toolgrade.Object{{"a", []any{json.Number("1")}}}}},
		{"args not JSON", `{"name":"f","arguments":"{a: 1}"}`,
			toolgrade.Call{Name: "f", ArgsRaw: "{a: 1}", Invalid: true}},
		{"empty args text", `{"name":"f","arguments":""}`,
			toolgrade.Call{Name: "f", ArgsRaw: "", Invalid: true}},
		{"deepeval names", `{"name":"f","input_parameters":{"q":"x"}}`,
			toolgrade.Call{Name: "f", Args: toolgrade.Object{{"q", "x"}}}},
		{"camel case", `{"name":"f","inputParameters":{"q":"x"}}`,
			toolgrade.Call{Name: "f", Args: toolgrade.Object{{"q", "x"}}}},
		{"no args", `{"name":"f"}`, toolgrade.Call{Name: "f"}},
		{"null args", `{"name":"f","args":null}`, toolgrade.Call{Name: "f"}},
		{"numeric id", `{"name":"f","id":7}`, toolgrade.Call{Name: "f", ID: "7"}},
		{"openai form", `{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}`,
			toolgrade.Call{Name: "f", Args: toolgrade.Object{}, ID: "call_1", Type: "function"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toolgrade.DecodeCall(mustParse(t, tt.in))
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
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := toolgrade.DecodeCalls(mustParse(t, tt.in))
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
