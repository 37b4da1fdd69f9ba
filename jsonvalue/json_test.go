package jsonvalue_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

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
		// A lone surrogate has no UTF-8 form: it is kept as WTF-8, so that
		// it differs from every other string.
		{`"\ud800"`, "\xed\xa0\x80"},
		{`"\udbff"`, "\xed\xaf\xbf"},
		{`"\uDC00x"`, "\xed\xb0\x80x"},
		{`"\ud800\ud800"`, "\xed\xa0\x80\xed\xa0\x80"}, // two high surrogates are two lone ones
		{`"\udc00\ud800"`, "\xed\xb0\x80\xed\xa0\x80"}, // a low one then a high one too
		{`[]`, []any{}},
		{`{}`, jsonvalue.Object{}},
		{`[1, "x", [null]]`, []any{json.Number("1"), "x", []any{nil}}},
		{`{"b": 1, "a": {"c": []}}`, jsonvalue.Object{{"b", json.Number("1")}, {"a", jsonvalue.Object{{"c", []any{}}}}}},
		// Keys are compared as decoded: these are two keys.
		{`{"\ud800": 1, "\udbff": 2}`, jsonvalue.Object{{"\xed\xa0\x80", json.Number("1")}, {"\xed\xaf\xbf", json.Number("2")}}},
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

func TestParseRepeatedKeys(t *testing.T) {
	// A repeated key is an error wherever it is: readers differ on which
	// value it has. Past 16 members the parser indexes keys; spelled with
	// escapes it is the same key.
	var large strings.Builder
	large.WriteString("{")
	for i := range 40 {
		fmt.Fprintf(&large, `"k%02d":%d,`, i, i)
	}
	large.WriteString("\n" + `"k07":true}`)
	for _, tt := range []struct{ in, key string }{
		{`{"a": 1, "b": 2, "a": 3}`, `"a"`},
		{`{"a": 1, "\u0061": 2}`, `"a"`},
		{`[{"x": {"y": 1, "y": 1}}]`, `"y"`},
		{`{"\ud800": 1, "\ud800": 2}`, `"\ud800"`},
		{large.String(), `"k07"`},
	} {
		t.Run(tt.in, func(t *testing.T) {
			_, err := jsonvalue.ParseString(tt.in)
			var se *jsonvalue.SyntaxError
			if !errors.As(err, &se) || se.Msg != "duplicate key "+tt.key+" in object" {
				t.Fatalf("Parse(%q) error = %v, want duplicate key %s", tt.in, err, tt.key)
			}
			if first := strings.Index(tt.in, tt.key[:2]); tt.in[se.Offset] != '"' || se.Offset <= first {
				t.Errorf("error at offset %d (%q), want the repeat", se.Offset, tt.in[se.Offset:])
			}
		})
	}
	// The same keys in different objects are no repeat.
	if _, err := jsonvalue.ParseString(`{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}`); err != nil {
		t.Fatal(err)
	}
}

func TestParseNotUTF8(t *testing.T) {
	// Text that is not UTF-8 is an error, not U+FFFD: "DE\x91\x92" and
	// "DE\x81\x82" would otherwise read as one string.
	for _, in := range []string{"\"DE\x91\x92\"", "\"DE\x81\x82\"", "{\"k\xff\": 1}", "\"\xed\xa0\x80\"", "\"\xc0\x80\"", "[\"a\\n\xe9\"]", "\"ok\" ", "\"caf\xe9\""} {
		_, err := jsonvalue.ParseString(in)
		if in == "\"ok\" " {
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "invalid UTF-8") {
			t.Errorf("Parse(%q) error = %v, want invalid UTF-8", in, err)
		}
	}
}

func TestParseKeepsSurrogates(t *testing.T) {
	// Lone surrogates stay apart from each other and from U+FFFD, and are
	// written back as the escapes they were read from.
	in := []string{`"\ud800"`, `"\udbff"`, `"\udc00"`, `"\ufffd"`, `"\ud83d\ude00"`, `"a\ud800b"`, `"\ud800\udbff"`}
	vals := make([]any, len(in))
	for i, s := range in {
		v, err := jsonvalue.ParseString(s)
		if err != nil {
			t.Fatal(err)
		}
		vals[i] = v
		out := string(jsonvalue.Append(nil, v))
		if want := strings.ReplaceAll(s, `\ufffd`, "\ufffd"); s != `"\ud83d\ude00"` && out != want {
			t.Errorf("Append(Parse(%s)) = %s, want it back", s, out)
		}
		if !json.Valid([]byte(out)) {
			t.Errorf("%s written as %s, not JSON", s, out)
		}
	}
	for i := range vals {
		for j := range vals {
			if got := jsonvalue.Equal(vals[i], vals[j]); got != (i == j) {
				t.Errorf("Equal(%s, %s) = %v", in[i], in[j], got)
			}
		}
	}
	for s, want := range map[string][2]int{"\xed\xa0\x80x": {0xD800, 3}, "\xed\xbf\xbf": {0xDFFF, 3}, "é": {'é', 2}, "\xff": {0xFFFD, 1}} {
		if r, n := jsonvalue.DecodeRune(s); r != rune(want[0]) || n != want[1] {
			t.Errorf("DecodeRune(%q) = %U, %d, want %U, %d", s, r, n, want[0], want[1])
		}
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
		{"{\"a\": 1,\n \"a\": 2}", 2, `duplicate key "a"`},
		{"[\"ok\",\n\"caf\xe9\"]", 2, "invalid UTF-8 (byte 0xe9)"},
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
// encoding/json accepts but for a repeated key and text that is not UTF-8
// (which encoding/json takes, and which it refuses), and what it parses
// survives a round trip byte for byte, lone surrogates included.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `[]`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, `-0.0e+1`, `{"a" 1}`, `[1,]`, "\"\xff\"", `["\ud800","\udbff\ud800"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Parse(data)
		var se *jsonvalue.SyntaxError
		refused := errors.As(err, &se) && (strings.HasPrefix(se.Msg, "duplicate key") || strings.HasPrefix(se.Msg, "invalid UTF-8"))
		if !refused && (err == nil) != json.Valid(data) {
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
		if !jsonvalue.Equal(v, v2) || !cmp.Equal(v, v2) {
			t.Fatalf("round trip changed %q to %q", data, out)
		}
		if again := jsonvalue.Append(nil, v2); string(again) != string(out) {
			t.Fatalf("written again, %q became %q", out, again)
		}
	})
}

func TestAppendStrings(t *testing.T) {
	for _, tc := range []struct {
		list []string
		want string
	}{
		{nil, `[]`},
		{[]string{"a"}, `["a"]`},
		{[]string{"a", `b"c`, ""}, `["a","b\"c",""]`},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := string(jsonvalue.AppendStrings([]byte("x"), tc.list)); got != "x"+tc.want {
				t.Errorf("AppendStrings(%q) = %s, want x%s", tc.list, got, tc.want)
			}
		})
	}
}
