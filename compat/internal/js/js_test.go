package js

import (
	"math"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func parse(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b          string
		strict, equal bool
	}{
		{`1`, `1.0`, true, true},
		{`1`, `1e0`, true, true},
		{`-0`, `0`, true, true},
		{`1e400`, `1e401`, true, true}, // both Infinity
		{`9007199254740993`, `9007199254740992`, true, true},
		{`"1"`, `1`, false, false},
		{`true`, `1`, false, false},
		{`null`, `null`, true, true},
		{`null`, `{}`, false, false},
		{`[]`, `{}`, false, false},
		{`["en","fr"]`, `{"0":"en","1":"fr"}`, false, false},
		{`{"a":1,"b":[1,{}]}`, `{"b":[1.0,{}],"a":1}`, false, true},
		{`[1,2]`, `[2,1]`, false, false},
		{`{"a":null}`, `{}`, false, false},
	}
	for _, tt := range tests {
		a, b := parse(t, tt.a), parse(t, tt.b)
		if got := StrictEqual(a, b); got != tt.strict {
			t.Errorf("StrictEqual(%s, %s) = %v", tt.a, tt.b, got)
		}
		if got := DeepEqual(a, b); got != tt.equal {
			t.Errorf("DeepEqual(%s, %s) = %v", tt.a, tt.b, got)
		}
		if DeepEqual(b, a) != DeepEqual(a, b) {
			t.Errorf("DeepEqual(%s, %s) is not symmetric", tt.a, tt.b)
		}
	}
	if !StrictEqual(Undefined{}, Undefined{}) || StrictEqual(Undefined{}, nil) || DeepEqual(nil, Undefined{}) {
		t.Error("undefined equals only itself")
	}
}

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {0.1, "0.1"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123456789012345680000, "123456789012345680000"},
		{1e-6, "0.000001"}, {1e-7, "1e-7"}, {1.5e-7, "1.5e-7"}, {2.5e300, "2.5e+300"},
		{0.30000000000000004, "0.30000000000000004"}, {1 / 3.0, "0.3333333333333333"},
		{math.Inf(1), "Infinity"}, {math.NaN(), "NaN"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.f); got != tt.want {
			t.Errorf("FormatNumber(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

func TestStringify(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"b":1,"a":2}`},
		{`{"b":1,"10":2,"2":3,"01":4}`, `{"2":3,"10":2,"b":1,"01":4}`},
		{`[1.0,-0,1e21,1e400,"x"]`, `[1,0,1e+21,null,"x"]`},
		{`"a\"b\\c\n\u0001\u2028é"`, "\"a\\\"b\\\\c\\n\\u0001\u2028é\""},
		{`{"4294967295":1,"4294967294":2}`, `{"4294967294":2,"4294967295":1}`},
	}
	for _, tt := range tests {
		got, ok := Stringify(parse(t, tt.in))
		if !ok || got != tt.want {
			t.Errorf("Stringify(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if _, ok := Stringify(Undefined{}); ok {
		t.Error("Stringify(undefined) gave text")
	}
	if got, _ := Stringify(jsonvalue.Object{{Key: "a", Value: Undefined{}}, {Key: "b", Value: nil}}); got != `{"b":null}` {
		t.Errorf("an undefined member is written: %s", got)
	}
}

func TestKeysAndProperties(t *testing.T) {
	v := parse(t, `{"x":1,"1":2,"0":3}`)
	if keys, _ := Keys(v); len(keys) != 3 || keys[0] != "0" || keys[1] != "1" || keys[2] != "x" {
		t.Errorf("Keys = %v", keys)
	}
	l := parse(t, `["a","b"]`)
	if p, ok := Property(l, "1"); !ok || p != "b" {
		t.Errorf("Property(list, 1) = %v %v", p, ok)
	}
	for _, k := range []string{"01", "2", "-1", "1.0", ""} {
		if _, ok := Property(l, k); ok {
			t.Errorf("Property(list, %q) found", k)
		}
	}
	if !IsUndefined(Field("text", "length")) || !IsUndefined(Field(v, "y")) {
		t.Error("Field of a primitive or a missing key is not undefined")
	}
	for _, v := range []string{`0`, `-0`, `""`, `false`, `null`} {
		if Truthy(parse(t, v)) {
			t.Errorf("%s is truthy", v)
		}
	}
	for _, v := range []string{`1`, `"0"`, `[]`, `{}`, `true`} {
		if !Truthy(parse(t, v)) {
			t.Errorf("%s is falsy", v)
		}
	}
}
