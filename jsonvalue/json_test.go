package jsonvalue_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`null`, nil},
		{`true`, true},
		{` false `, false},
		{`0`, json.Number("0")},
		{`-1.50e+3`, json.Number("-1.50e+3")},
		{`"a\"b\\c\/\n\t\u00e9\ud83d\ude00"`, "a\"b\\c/\n\té😀"},
		{`"\ud800"`, "\uFFFD"}, // a lone surrogate has no UTF-8 form
		{"\"\xff\"", "\uFFFD"}, // invalid UTF-8 is replaced
		{`[]`, []any{}},
		{`{}`, jsonvalue.Object{}},
		{`[1, "x", [null]]`, []any{json.Number("1"), "x", []any{nil}}},
		{`{"b": 1, "a": {"c": []}}`, jsonvalue.Object{{"b", json.Number("1")}, {"a", jsonvalue.Object{{"c", []any{}}}}}},
		// A repeated key keeps its first position and its last value, as
		// Python and JavaScript do.
		{`{"a": 1, "b": 2, "a": 3}`, jsonvalue.Object{{"a", json.Number("3")}, {"b", json.Number("2")}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := jsonvalue.Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseLargeObjectRepeats(t *testing.T) {
	// Past 16 members the parser indexes keys; repeats must still collapse.
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		b.WriteString(`"k` + string(rune('a'+i%26)) + `":` + string(rune('0'+i%10)) + ",")
	}
	b.WriteString(`"end":true}`)
	v, err := jsonvalue.ParseString(b.String())
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(jsonvalue.Object)
	if len(obj) != 27 {
		t.Fatalf("got %d members, want 26 distinct keys and end", len(obj))
	}
	if got, _ := obj.Get("ka"); got != json.Number("6") { // last "ka" is i=26
		t.Errorf("ka = %v, want the last value 6", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in       string
		wantLine int
		wantMsg  string
	}{
		{``, 1, "unexpected end of input"},
		{`{"a": 1,}`, 1, "want a string key"},
		{"{\n\"a\": tru}", 2, `want "true"`},
		{`[1 2]`, 1, "want ',' or ']'"},
		{`01`, 1, "after the value"},
		{`1.`, 1, "digit after '.'"},
		{`-`, 1, "digit after '-'"},
		{`"abc`, 1, "unterminated string"},
		{"\"a\nb\"", 1, "control character"},
		{`"\x"`, 1, "invalid escape"},
		{`"\u12G4"`, 1, "invalid \\u escape"},
		{`{"a" 1}`, 1, "want ':'"},
		{`NaN`, 1, "want a value"},
		{`{"a": undefined}`, 1, "want a value"},
		{strings.Repeat("[", 10002), 1, "nesting deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := jsonvalue.ParseString(tt.in)
			var se *jsonvalue.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error = %v, want a *SyntaxError", tt.in, err)
			}
			if se.Line != tt.wantLine || !strings.Contains(se.Msg, tt.wantMsg) {
				t.Errorf("Parse(%q) = line %d %q, want line %d containing %q", tt.in, se.Line, se.Msg, tt.wantLine, tt.wantMsg)
			}
		})
	}
}

func TestAppendJSONRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"b":1,"a":[true,false,null,"x\u0001\"\\"],"c":{"d":-1.5e-7}}`,
		`"\u2028 é 😀"`,
		`[]`,
		`{}`,
	} {
		v, err := jsonvalue.ParseString(in)
		if err != nil {
			t.Fatal(err)
		}
		out := jsonvalue.Append(nil, v)
		v2, err := jsonvalue.Parse(out)
		if err != nil {
			t.Fatalf("re-parse %s: %v", out, err)
		}
		if diff := cmp.Diff(v, v2); diff != "" {
			t.Errorf("round trip of %s changed (-first +second):\n%s", in, diff)
		}
		// And the standard library agrees it is valid JSON.
		if !json.Valid(out) {
			t.Errorf("AppendJSON wrote invalid JSON: %s", out)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {0.5, "0.5"}, {1.0 / 3, "0.3333333333333333"},
		{1e-7, "1e-07"}, {1e21, "1e+21"}, {-2.5, "-2.5"},
	}
	for _, tt := range tests {
		if got := string(jsonvalue.AppendFloat(nil, tt.f)); got != tt.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

// FuzzParse: the parser never panics, accepts exactly what
// encoding/json accepts (apart from invalid UTF-8, which it repairs), and
// what it parses survives a round trip.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `[]`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, `-0.0e+1`, `{"a" 1}`, `[1,]`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Parse(data)
		if utf8.Valid(data) && (err == nil) != json.Valid(data) {
			t.Fatalf("Parse error %v, encoding/json Valid %v, for %q", err, json.Valid(data), data)
		}
		if err != nil {
			return
		}
		out := jsonvalue.Append(nil, v)
		v2, err := jsonvalue.Parse(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if !jsonvalue.Equal(v, v2) {
			t.Fatalf("round trip changed %q to %q", data, out)
		}
	})
}
