package bfcl

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// The expected values below are what BFCL's converters give under CPython
// 3.11 (checked there while writing them).

func TestBFCLJava(t *testing.T) {
	tests := []struct {
		text, typ, nested string
		want              string // the value as JSON, or "ERR" when BFCL raises
	}{
		{"123", "integer", "", `123`},
		{"-0042", "short", "", `-42`},
		{"١٢", "integer", "", `12`},   // \d and int() take any decimal digits
		{"12\n", "integer", "", `12`}, // $ matches before a final newline
		{"12L", "integer", "", `"12L"`},
		{"5L", "long", "", `5`},
		{"5", "long", "", `"5"`},
		{"3.14f", "float", "", `3.14`},
		{"3e3F", "float", "", `3000.0`},
		{"3.14", "float", "", `"3.14"`},
		{"3.14", "double", "", `3.14`},
		{"3.14f", "double", "", `"3.14f"`},
		{"true", "boolean", "", `true`},
		{"True", "boolean", "", `"True"`},
		{"'a'", "char", "", `"'a'"`},
		{`"abc"`, "String", "", `"\"abc\""`},
		{"new int[]{1, 2, 3}", "Array", "integer", `[1,2,3]`},
		{"new int[] { }", "Array", "integer", `[]`},
		{`new String[]{"a", b}`, "Array", "String", `["\"a\"","b"]`},
		{"new long[]{1L, 2, 3L}", "Array", "long", `[1,"2",3]`},
		{`new ArrayList<>(Arrays.asList("a", "b"))`, "ArrayList", "String", `["a","b"]`},
		{`new ArrayList<Integer>(Arrays.asList(1, 2))`, "ArrayList", "integer", `[1,2]`},
		{"new ArrayList<Float>() {{ add(1.0f); add(2.5f); }}", "ArrayList", "float", `[1.0,2.5]`},
		{"new ArrayList<>()", "ArrayList", "any", `[]`},
		{`new ArrayList<>(Arrays.asList(42, true))`, "ArrayList", "any", `["42","true"]`},
		{`new HashMap<String, Object>() {{ put("k1", 1); put("k2", "v"); put("k3", true); put("k4", 2L); put("k5", 1.5f); }}`, "HashMap", "", `{"k1":1,"k2":"v","k3":true,"k4":2,"k5":1.5}`},
		{"new HashMap<>()", "HashMap", "", `{}`},
		{"new HashMap<>() {{ }}", "HashMap", "", `{}`},
		{"map", "HashMap", "", `"map"`},
		{"x", "Set", "", "ERR"},
	}
	for _, tt := range tests {
		got, err := javaValue(tt.text, tt.typ, tt.nested)
		if s := literalJSON(got, err); s != tt.want {
			t.Errorf("javaValue(%q, %s, %q) = %s, want %s", tt.text, tt.typ, tt.nested, s, tt.want)
		}
	}
}

func TestBFCLJS(t *testing.T) {
	tests := []struct {
		text, typ, nested string
		want              string
	}{
		{`"abc"`, "String", "", `"abc"`},
		{`'abc'`, "String", "", `"abc"`},
		{`abc`, "String", "", `"abc"`},
		{`"`, "String", "", `""`},
		{"123", "integer", "", `123`},
		{"1.5", "float", "", `1.5`},
		{"1e5", "float", "", `"1e5"`},
		{"123n", "Bigint", "", `123`},
		{"123n\n", "Bigint", "", "ERR"}, // int("123n") raises
		{"true", "Boolean", "", `true`},
		{"[1, 2, 3]", "array", "integer", `[1,2,3]`},
		{"new Array(4, 5)", "array", "integer", `[4,5]`},
		{`["a", 'b']`, "array", "String", `["a","b"]`},
		{`['5']`, "array", "integer", `["'5'"]`},
		{"[1, 'two', true]", "array", "", `[1,"two",true]`},
		{"[[1, 2], [3, 4]]", "array", "array", `[[1,2],[3,4]]`},
		{"[1n, 2]", "array", "Bigint", `[1,"2"]`},
		{"[1n, 2n\n]", "array", "Bigint", `"[1n, 2n\n]"`}, // . does not cross the newline
		{"[]", "array", "integer", `[]`},
		{"not an array", "array", "integer", `"not an array"`},
		{"{'key': 'value'}", "dict", "", `{"key":"value"}`},
		{`{"a": "123", b: true}`, "dict", "", `{"a":123,"b":true}`},
		{`{"initialState": initialStateObject, "middlewares": ["loggerMiddleware"], "enhancers": ["applyMiddleware", "myMiddleWare"]}`, "dict", "",
			`{"initialState":"initialStateObject","middlewares":["loggerMiddleware"],"enhancers":["applyMiddleware","myMiddleWare"]}`},
		{`{a: {b: 1}, c: 2}`, "dict", "", `{"a":"{b: 1"}`}, // nesting is cut at the first }
		{"{}", "dict", "", `{}`},
		{"{a: 1, a: 2}", "dict", "", `{"a":2}`},
		{"x", "object", "", "ERR"},
	}
	for _, tt := range tests {
		got, err := jsValue(tt.text, tt.typ, tt.nested)
		if s := literalJSON(got, err); s != tt.want {
			t.Errorf("jsValue(%q, %s, %q) = %s, want %s", tt.text, tt.typ, tt.nested, s, tt.want)
		}
	}
}

func literalJSON(v any, err error) string {
	if err != nil {
		return "ERR"
	}
	return string(jsonvalue.Append(nil, v))
}

func TestPyNumbers(t *testing.T) {
	for _, tt := range []struct{ s, wantInt, wantFloat string }{
		{"12", "12", "12.0"},
		{" +7\n", "7", "7.0"},
		{"1_000", "1000", "1000.0"},
		{"1__0", "ERR", "ERR"},
		{"_1", "ERR", "ERR"},
		{"٣", "3", "3.0"},
		{"1.5", "ERR", "1.5"},
		{".5", "ERR", "0.5"},
		{"5.", "ERR", "5.0"},
		{"1e3", "ERR", "1000.0"},
		{"1e999", "ERR", "1e999"},
		{"-Infinity", "ERR", "-1e999"},
		{"nan", "ERR", "NaN"},
		{"0x10", "ERR", "ERR"},
		{"\x1c5", "ERR", "ERR"}, // Python's number parsers strip ASCII space only
		{"", "ERR", "ERR"},
	} {
		n, err := pyInt(tt.s)
		if got := literalJSON(n, err); got != tt.wantInt {
			t.Errorf("int(%q) = %s, want %s", tt.s, got, tt.wantInt)
		}
		f, err := pyFloat(tt.s)
		if got := literalJSON(f, err); got != tt.wantFloat {
			t.Errorf("float(%q) = %s, want %s", tt.s, got, tt.wantFloat)
		}
	}
}

// TestJavaIntegersRoundTrip: an integer literal converts to its value,
// with or without the long suffix, for any size up to Python's limit.
func TestJavaIntegersRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int64().Draw(t, "n")
		s := strconv.FormatInt(n, 10)
		for _, c := range []struct{ text, typ string }{{s, "integer"}, {s + "L", "long"}, {s + "l", "long"}} {
			got, err := javaValue(c.text, c.typ, "")
			if err != nil || got != json.Number(s) {
				t.Fatalf("javaValue(%q, %s) = %v, %v; want %s", c.text, c.typ, got, err, s)
			}
		}
		got, err := jsValue(s+"n", "Bigint", "")
		if err != nil || got != json.Number(s) {
			t.Fatalf("jsValue(%qn, Bigint) = %v, %v", s, got, err)
		}
	})
}

// TestBFCLNormalizeIdempotent: normalizing twice changes nothing more.
func TestBFCLNormalizeIdempotent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		once := normalize(s)
		if twice := normalize(once); twice != once {
			t.Fatalf("normalize(%q) = %q, again %q", s, once, twice)
		}
	})
}

// checkLiteral fails on a converted value outside the value model.
func checkLiteral(t *testing.T, v any) {
	switch v := v.(type) {
	case bool:
	case string:
		if !utf8.ValidString(v) {
			t.Fatalf("invalid UTF-8 in %q", v)
		}
	case json.Number:
		if v != nan {
			if _, err := jsonvalue.ParseString(string(v)); err != nil {
				t.Fatalf("number %q is not JSON: %v", v, err)
			}
		}
	case []any:
		for _, e := range v {
			checkLiteral(t, e)
		}
	case jsonvalue.Object:
		for _, m := range v {
			checkLiteral(t, m.Value)
		}
	default:
		t.Fatalf("value %#v outside the value model", v)
	}
}

var (
	javaTypes = []string{"byte", "short", "integer", "float", "double", "long", "boolean", "char", "String", "any", "Array", "ArrayList", "HashMap"}
	jsTypes   = []string{"String", "integer", "float", "Bigint", "Boolean", "dict", "array", "any"}
)

func FuzzBFCLJava(f *testing.F) {
	for _, s := range []string{"12", "5L", "3.5f", "new int[]{1, 2}", `new ArrayList<>(Arrays.asList("a"))`,
		"new ArrayList<>() {{ add(1); }}", `new HashMap<String, Object>() {{ put("k", 1L); }}`, "١٢\n"} {
		f.Add(s, uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, typ, nested uint8) {
		if !utf8.ValidString(text) {
			t.Skip("arguments in the value model are valid UTF-8")
		}
		ty := javaTypes[int(typ)%len(javaTypes)]
		nt := append([]string{""}, javaTypes...)[int(nested)%(len(javaTypes)+1)]
		v, err := javaValue(text, ty, nt)
		if err == nil {
			checkLiteral(t, v)
		}
	})
}

func FuzzBFCLJS(f *testing.F) {
	for _, s := range []string{"'a'", "12", "3n", "[1, 'two', true]", "new Array(1, 2)", "[[1], [2]]", "{a: 1, 'b': [1, 2]}", "{x: 1,  y: :}"} {
		f.Add(s, uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, typ, nested uint8) {
		if !utf8.ValidString(text) {
			t.Skip("arguments in the value model are valid UTF-8")
		}
		ty := jsTypes[int(typ)%len(jsTypes)]
		nt := append([]string{""}, jsTypes...)[int(nested)%(len(jsTypes)+1)]
		v, err := jsValue(text, ty, nt)
		if err == nil {
			checkLiteral(t, v)
		}
	})
}

// The converters compile their regular expressions on first use: every
// one must compile (MustCompile panics otherwise).
func TestConvertersCompile(t *testing.T) {
	for _, re := range []func() *regexp.Regexp{javaInt, javaFloat, javaDouble, javaLong, javaAsList, javaAddBlock, javaAdd, javaEmptyArrayList, javaArray, javaHashMap, javaPut, javaEmptyHashMap, jsInt, jsFloat, jsBigint, jsArray2D, jsArray, jsInner, jsObject} {
		re()
	}
}
