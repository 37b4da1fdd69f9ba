package js

import (
	"math"
	"testing"
)

func TestMathRound(t *testing.T) {
	x := 1.005 // a variable, so that 1.005 × 100 is a double product: 100.49999999999999
	for _, tt := range []struct{ in, want float64 }{
		{0.5, 1}, {1.5, 2}, {2.5, 3}, {-0.5, math.Copysign(0, -1)}, {-1.5, -1}, {0.49999999999999994, 0},
		{56.99999999999999, 57}, {x * 100, 100}, {math.Inf(1), math.Inf(1)},
	} {
		got := MathRound(tt.in)
		if got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
			t.Errorf("MathRound(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(MathRound(math.NaN())) {
		t.Error("MathRound(NaN) is not NaN")
	}
}

func TestToStringAndNumber(t *testing.T) {
	for _, tt := range []struct {
		json, str string
		num       float64
	}{
		{`null`, "null", 0},
		{`true`, "true", 1},
		{`1.0`, "1", 1},
		{`1e21`, "1e+21", 1e21},
		{`" 12 "`, " 12 ", 12},
		{`"0x1F"`, "0x1F", 31},
		{`""`, "", 0},
		{`[1,[2,null]]`, "1,2,", math.NaN()},
		{`[5]`, "5", 5},
		{`{}`, "[object Object]", math.NaN()},
		{`"1_000"`, "1_000", math.NaN()},
		{`"-Infinity"`, "-Infinity", math.Inf(-1)},
		{`"inf"`, "inf", math.NaN()},
	} {
		v := parse(t, tt.json)
		if got := ToString(v); got != tt.str {
			t.Errorf("ToString(%s) = %q, want %q", tt.json, got, tt.str)
		}
		if got := ToNumber(v); got != tt.num && !(math.IsNaN(got) && math.IsNaN(tt.num)) {
			t.Errorf("ToNumber(%s) = %v, want %v", tt.json, got, tt.num)
		}
	}
	if ToString(Undefined{}) != "undefined" || !math.IsNaN(ToNumber(Undefined{})) {
		t.Error("undefined")
	}
}

func TestTrimAndLength(t *testing.T) {
	if got := Trim("\u00a0\ufeff x \u2028\u3000"); got != "x" {
		t.Errorf("Trim = %q", got)
	}
	if n, _ := Length("a😀"); n != 3 {
		t.Errorf("length %d, want 3 UTF-16 units", n)
	}
	if _, ok := Iterate(map[string]any{}); ok {
		t.Error("a map is not iterable here")
	}
	if Key(parse(t, `1.0`), 0) != Key(parse(t, `1`), 1) || Key(parse(t, `{}`), 0) == Key(parse(t, `{}`), 1) || Key("1", 0) == Key(parse(t, `1`), 0) {
		t.Error("Key is not SameValueZero")
	}
}
