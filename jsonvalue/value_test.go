package jsonvalue_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// tb is what mustParse needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func mustParse(t tb, s string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(s)
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
		{`1e400`, `2e400`, false}, // exact, though both are +Inf as floats
		{`[1e400]`, `[10e399]`, true},
		{`"\ud800"`, `"\udbff"`, false}, // lone surrogates, kept apart
	}
	for _, tt := range tests {
		t.Run(tt.a+" vs "+tt.b, func(t *testing.T) {
			a, b := mustParse(t, tt.a), mustParse(t, tt.b)
			if got := jsonvalue.Equal(a, b); got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := jsonvalue.Equal(b, a); got != tt.want {
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
		// Exactly, whatever the size: these pairs are each one float64.
		{"1e400", "2e400", -1}, {"-1e400", "-2e400", 1}, {"1e-400", "2e-400", -1}, {"1e-400", "0", 1},
		{"0.1", "0.10000000000000001", -1}, {"9007199254740993", "9007199254740992.0", 1},
		{"1e1000000000000000000000", "1e1000000000000000000001", -1},
		{"10e999999999999999999999", "1e1000000000000000000000", 0},
		{"1e-1000000000000000000000", "1e-1000000000000000000001", 1},
		{"123.456e-1000000000000000000000", "123.456e-1000000000000000000000", 0},
		// The same decimal, spelled otherwise.
		{"1", "1.0", 0}, {"1", "1e0", 0}, {"100", "1E+2", 0}, {"100", "0.1e3", 0}, {"1.50", "15e-1", 0},
		{"0", "-0.0e+7", 0}, {"0.000", "0e-999999999999999999999", 0}, {"1e400", "10e399", 0},
		{"-1.5", "-1.4", -1}, {"0.0001", "1e-4", 0}, {"12.5", "125e-1", 0}, {"1.05", "1.5", -1},
		{"2.5", "25", -1}, {"-0.5", "0", -1}, {"5e-1", "0.50", 0},
	}
	for _, tt := range tests {
		if got := jsonvalue.CompareNumbers(json.Number(tt.a), json.Number(tt.b)); got != tt.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := jsonvalue.CompareNumbers(json.Number(tt.b), json.Number(tt.a)); got != -tt.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// genNumber draws a JSON number's spelling: zeros in every place, long
// digit runs, and exponents of every size.
var genNumber = rapid.Custom(func(t *rapid.T) string {
	digits := rapid.StringMatching(`(0|[1-9][0-9]{0,25})`).Draw(t, "int")
	s := rapid.SampledFrom([]string{"", "-"}).Draw(t, "sign") + digits
	if rapid.Bool().Draw(t, "frac") {
		s += "." + rapid.StringMatching(`[0-9]{1,25}`).Draw(t, "frac")
	}
	if rapid.Bool().Draw(t, "exp") {
		s += rapid.SampledFrom([]string{"e", "E"}).Draw(t, "e") + rapid.SampledFrom([]string{"", "+", "-"}).Draw(t, "esign") +
			rapid.StringMatching(`0{0,3}[0-9]{1,3}`).Draw(t, "exp")
	}
	return s
})

// TestCompareNumbersIsExact: CompareNumbers orders numbers as exact
// rationals do.
func TestCompareNumbersIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := genNumber.Draw(t, "a"), genNumber.Draw(t, "b")
		if rapid.Bool().Draw(t, "near") { // the same digits, the point moved
			b = strings.Replace(a, ".", "", 1) + "e-" + strconv.Itoa(strings.Count(a, "")%5)
			if strings.ContainsAny(a, "eE") {
				b = a + "0"
			}
		}
		ra, okA := new(big.Rat).SetString(a)
		rb, okB := new(big.Rat).SetString(b)
		if !okA || !okB {
			t.Skip("not a rational spelling")
		}
		want := ra.Cmp(rb)
		if got := jsonvalue.CompareNumbers(json.Number(a), json.Number(b)); got != want {
			t.Fatalf("CompareNumbers(%s, %s) = %d, want %d", a, b, got, want)
		}
	})
}

// FuzzCompareNumbers: any two spellings compare antisymmetrically, each
// equal to itself, and as exact rationals where they are JSON numbers of
// a size big.Rat reads quickly.
func FuzzCompareNumbers(f *testing.F) {
	for _, p := range [][2]string{{"1e400", "2e400"}, {"0.1", "0.10000000000000001"}, {"1", "1.0"}, {"-0", "0e5"}, {"NaN", "1"}, {"1e99999999999999999999", "1e99999999999999999998"}, {"01", "1"}, {"1.", "1"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab := jsonvalue.CompareNumbers(json.Number(a), json.Number(b))
		if ba := jsonvalue.CompareNumbers(json.Number(b), json.Number(a)); ab != -ba {
			t.Fatalf("CompareNumbers(%q, %q) = %d, but the other way %d", a, b, ab, ba)
		}
		if aa := jsonvalue.CompareNumbers(json.Number(a), json.Number(a)); aa != 0 {
			t.Fatalf("CompareNumbers(%q, itself) = %d", a, aa)
		}
		va, errA := jsonvalue.ParseString(a)
		vb, errB := jsonvalue.ParseString(b)
		_, numA := va.(json.Number)
		_, numB := vb.(json.Number)
		if errA != nil || errB != nil || !numA || !numB || len(a) > 40 || len(b) > 40 || strings.Contains(a+b, "e+") {
			return // big.Rat takes exponents as they come: keep them small
		}
		ra, okA := new(big.Rat).SetString(a)
		rb, okB := new(big.Rat).SetString(b)
		if !okA || !okB {
			return
		}
		if want := ra.Cmp(rb); ab != want {
			t.Fatalf("CompareNumbers(%s, %s) = %d, exactly %d", a, b, ab, want)
		}
	})
}

func TestIsIntegerLiteral(t *testing.T) {
	for n, want := range map[string]bool{
		"0": true, "-12": true, "123456789012345678901234567890": true,
		"1.0": false, "1e5": false, "1E5": false, "-2.5e-3": false, "9007199254740993.": false,
	} {
		t.Run(n, func(t *testing.T) {
			if got := jsonvalue.IsIntegerLiteral(n); got != want {
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

// TestHashFollowsEqual: equal values hash alike, and the values of the
// model that differ mostly do not.
func TestHashFollowsEqual(t *testing.T) {
	seed := uint64(0x5eed)
	rapid.Check(t, func(t *rapid.T) {
		a := mustParse(t, genValue(3).Draw(t, "a"))
		b := mustParse(t, genValue(3).Draw(t, "b"))
		if jsonvalue.Equal(a, b) && jsonvalue.Hash(seed, a) != jsonvalue.Hash(seed, b) {
			t.Fatalf("%s and %s are equal but hash differently", jsonvalue.Append(nil, a), jsonvalue.Append(nil, b))
		}
		if s, ok := a.(string); ok && jsonvalue.HashString(seed, s) != jsonvalue.Hash(seed, a) {
			t.Fatalf("HashString(%q) is not Hash", s)
		}
	})
	for _, pair := range [][2]string{
		{`1`, `1.0`}, {`100`, `1e2`}, {`0`, `-0.0e5`}, {`{"a":1,"b":[2.50]}`, `{"b":[25e-1],"a":1.00}`},
		{`1e400`, `10e399`}, {`"\ud800"`, `"\ud800"`}, {`[null, true]`, `[null, true]`},
	} {
		if a, b := mustParse(t, pair[0]), mustParse(t, pair[1]); jsonvalue.Hash(seed, a) != jsonvalue.Hash(seed, b) {
			t.Errorf("%s and %s hash differently", pair[0], pair[1])
		}
	}
	// Strings of every length, each differing from the others in one
	// byte, at every position of the words the hash reads.
	seen := map[uint64]string{}
	for n := range 25 {
		for pos := range n + 1 {
			b := []byte(strings.Repeat("a", n))
			if pos < n {
				b[pos] = 'b'
			}
			if other, dup := seen[jsonvalue.HashString(seed, string(b))]; dup && other != string(b) {
				t.Errorf("%q and %q hash alike", b, other)
			}
			seen[jsonvalue.HashString(seed, string(b))] = string(b)
		}
	}
	for _, pair := range [][2]string{
		{`1`, `2`}, {`1e400`, `2e400`}, {`"1"`, `1`}, {`true`, `1`}, {`null`, `false`}, {`[]`, `{}`}, {`[1,2]`, `[2,1]`},
		{`{"a":1}`, `{"b":1}`}, {`{"a":{"b":1}}`, `{"a":{"b":2}}`}, {`"\ud800"`, `"\udbff"`}, {`["a","b"]`, `["ab"]`},
	} {
		if a, b := mustParse(t, pair[0]), mustParse(t, pair[1]); jsonvalue.Hash(seed, a) == jsonvalue.Hash(seed, b) {
			t.Errorf("%s and %s hash alike", pair[0], pair[1])
		}
	}
}

// TestEqualIsAnEquivalence: reflexive, symmetric, and blind to key order.
func TestEqualIsAnEquivalence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := mustParse(t, genValue(3).Draw(t, "a"))
		b := mustParse(t, genValue(3).Draw(t, "b"))
		if !jsonvalue.Equal(a, a) {
			t.Fatalf("Equal(a, a) is false for %s", jsonvalue.Append(nil, a))
		}
		if jsonvalue.Equal(a, b) != jsonvalue.Equal(b, a) {
			t.Fatalf("Equal is not symmetric")
		}
		if obj, ok := a.(jsonvalue.Object); ok && len(obj) > 1 {
			rev := make(jsonvalue.Object, len(obj))
			for i := range obj {
				rev[i] = obj[len(obj)-1-i]
			}
			if !jsonvalue.Equal(obj, rev) {
				t.Fatalf("key order matters for %s", jsonvalue.Append(nil, obj))
			}
		}
	})
}

func TestFrom(t *testing.T) {
	got, err := jsonvalue.From(map[string]any{"b": 1, "a": []any{2.5, true, nil, "x"}, "c": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, `{"a":[2.5,true,null,"x"],"b":1,"c":{}}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Value mismatch (-want +got):\n%s", diff)
	}
	// Integral floats stay floats.
	if v := jsonvalue.MustFrom(2.0); v != json.Number("2.0") {
		t.Errorf("MustFrom(2.0) = %v, want 2.0", v)
	}
	type point struct {
		X int `json:"x"`
	}
	if v := jsonvalue.MustFrom([]point{{1}}); !jsonvalue.Equal(v, mustParse(t, `[{"x":1}]`)) {
		t.Errorf("MustFrom(struct slice) = %s", jsonvalue.Append(nil, v))
	}
}

func TestKind(t *testing.T) {
	for in, want := range map[string]string{`null`: "null", `true`: "boolean", `1`: "integer", `1.0`: "number", `1e3`: "number", `""`: "string", `[]`: "array", `{}`: "object"} {
		if got := jsonvalue.Kind(mustParse(t, in)); got != want {
			t.Errorf("Kind(%s) = %s, want %s", in, got, want)
		}
	}
}

// Every kind of Go value a case built in code may hold converts to the
// value it means in JSON; values with no JSON form are refused, naming
// their type and where they are.
func TestFromKinds(t *testing.T) {
	type city string
	type ratio float32
	type place struct {
		City city   `json:"city"`
		Days *int   `json:"days,omitempty"`
		Tags []byte `json:"tags,omitempty"`
	}
	days := 3
	for _, tt := range []struct {
		name string
		in   any
		want string // JSON text of the value, "" for an error
		err  string // part of the error, when want is ""
	}{
		{"nil", nil, `null`, ""},
		{"int", 7, `7`, ""},
		{"int8", int8(-7), `-7`, ""},
		{"int16", int16(300), `300`, ""},
		{"int32", int32(1 << 30), `1073741824`, ""},
		{"int64", int64(1) << 62, `4611686018427387904`, ""},
		{"uint", uint(7), `7`, ""},
		{"uint8", uint8(255), `255`, ""},
		{"uint64", uint64(1) << 63, `9223372036854775808`, ""},
		{"float64", 2.5, `2.5`, ""},
		{"integral float64 stays a float", 3.0, `3.0`, ""},
		{"float32 shortest", float32(0.1), `0.1`, ""},
		{"named float32 shortest", ratio(0.1), `0.1`, ""},
		{"json.Number", json.Number("1e3"), `1e3`, ""},
		{"json.RawMessage", json.RawMessage(`{"b":1,"a":[true]}`), `{"b":1,"a":[true]}`, ""},
		{"named string", city("Paris"), `"Paris"`, ""},
		{"pointer", &days, `3`, ""},
		{"nil pointer", (*int)(nil), `null`, ""},
		{"map[string]any sorted", map[string]any{"b": 1, "a": 2}, `{"a":2,"b":1}`, ""},
		{"map[string]string", map[string]string{"to": "ana", "cc": "bo"}, `{"cc":"bo","to":"ana"}`, ""},
		{"map[string]int", map[string]int{"n": 1}, `{"n":1}`, ""},
		{"map with named keys", map[city]int{"Rome": 1}, `{"Rome":1}`, ""},
		{"map with int keys", map[int]string{2: "b"}, `{"2":"b"}`, ""},
		{"[]string", []string{"a", "b"}, `["a","b"]`, ""},
		{"array", [2]int{1, 2}, `[1,2]`, ""},
		{"nested any", []any{map[string]any{"x": []int{1}}}, `[{"x":[1]}]`, ""},
		{"struct", place{City: "Oslo", Days: &days}, `{"city":"Oslo","days":3}`, ""},
		{"[]byte as encoding/json writes it", []byte("hi"), `"aGk="`, ""},
		{"Object holding a Go map", jsonvalue.Object{{Key: "m", Value: map[string]any{"z": 1}}}, `{"m":{"z":1}}`, ""},
		{"channel", make(chan int), "", "chan int"},
		{"func", func() {}, "", "func()"},
		{"complex", complex(1, 2), "", "complex128"},
		{"NaN", math.NaN(), "", "not a JSON number"},
		{"infinity inside a map", map[string]any{"x": math.Inf(1)}, "", "x: +Inf is not a JSON number"},
		{"channel inside a list", []any{1, make(chan int)}, "", "[1]: a chan int"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonvalue.From(tt.in)
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("From(%#v) = %v, %v; want an error containing %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("From(%#v): %v", tt.in, err)
			}
			if !jsonvalue.InModel(got) {
				t.Fatalf("From(%#v) = %#v, not in the model", tt.in, got)
			}
			if s := string(jsonvalue.Append(nil, got)); s != tt.want {
				t.Errorf("From(%#v) = %s, want %s", tt.in, s, tt.want)
			}
		})
	}
}

// Equal compares Go values as From converts them: two equal maps are
// equal whatever their iteration order, and a map equals the Object it
// means.
func TestEqualForeignValues(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b any
		want bool
	}{
		{"equal maps", map[string]any{"x": 1, "y": []any{"a"}}, map[string]any{"y": []any{"a"}, "x": 1}, true},
		{"map and object", map[string]any{"x": 1}, mustParse(t, `{"x":1.0}`), true},
		{"object and map", mustParse(t, `{"x":1}`), map[string]int{"x": 1}, true},
		{"int and number", 1, json.Number("1"), true},
		{"different maps", map[string]any{"x": 1}, map[string]any{"x": 2}, false},
		{"bool is not a number", true, 1, false},
		{"no JSON form", make(chan int), make(chan int), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonvalue.Equal(tt.a, tt.b); got != tt.want {
				t.Errorf("Equal(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// TestHashNumberSpellings: every spelling of a number (as an integer,
// with a fraction, with trailing zeros, in scientific notation, with
// more significant digits than a uint64 holds) is Equal to the others
// and hashes alike; numbers that differ hash differently.
func TestHashNumberSpellings(t *testing.T) {
	seed := uint64(0x5eed)
	spellings := func(t *rapid.T, label string) []string {
		sign := rapid.SampledFrom([]string{"", "-"}).Draw(t, label+"sign")
		digits := rapid.StringMatching(`[1-9][0-9]{0,24}`).Draw(t, label+"digits")
		exp := rapid.IntRange(-30, 30).Draw(t, label+"exp") // the value is digits × 10^exp
		var plain string
		switch {
		case exp >= 0:
			plain = digits + strings.Repeat("0", exp)
		case -exp < len(digits):
			plain = digits[:len(digits)+exp] + "." + digits[len(digits)+exp:]
		default:
			plain = "0." + strings.Repeat("0", -exp-len(digits)) + digits
		}
		sci := digits[:1]
		if len(digits) > 1 {
			sci += "." + digits[1:]
		}
		sci += "e" + strconv.Itoa(exp+len(digits)-1)
		padded := plain + "00"
		if !strings.Contains(plain, ".") {
			padded = plain + ".000"
		}
		out := []string{plain, sci, padded, digits + "E" + strconv.Itoa(exp), digits + "0e" + strconv.Itoa(exp-1)}
		for i := range out {
			out[i] = sign + out[i]
		}
		return out
	}
	rapid.Check(t, func(t *rapid.T) {
		a := spellings(t, "a")
		for _, s := range a[1:] {
			x, y := json.Number(a[0]), json.Number(s)
			if !jsonvalue.Equal(x, y) {
				t.Fatalf("%s and %s are not Equal", x, y)
			}
			if jsonvalue.Hash(seed, x) != jsonvalue.Hash(seed, y) {
				t.Fatalf("%s and %s are equal but hash differently", x, y)
			}
		}
		b := json.Number(rapid.SampledFrom(spellings(t, "b")).Draw(t, "b"))
		if !jsonvalue.Equal(json.Number(a[0]), b) && jsonvalue.Hash(seed, json.Number(a[0])) == jsonvalue.Hash(seed, b) {
			t.Fatalf("%s and %s differ but hash alike", a[0], b)
		}
	})
}

// TestEqualAgreesWithReference holds Equal, with its shortcuts for
// members in the same order and for strings in objects and arrays, to a
// plain recursive reference, on values and near copies of them (a leaf
// changed, members reordered).
func TestEqualAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := mustParse(t, genValue(3).Draw(t, "a"))
		var b any
		if rapid.Bool().Draw(t, "other") {
			b = mustParse(t, genValue(3).Draw(t, "b"))
		} else {
			b = nearCopy(t, a)
		}
		if got, want := jsonvalue.Equal(a, b), refEqual(a, b); got != want {
			t.Fatalf("Equal(%s, %s) = %v, want %v", jsonvalue.Append(nil, a), jsonvalue.Append(nil, b), got, want)
		}
	})
}

// nearCopy copies v, now and then changing a string or number, or
// reversing an object's members.
func nearCopy(t *rapid.T, v any) any {
	switch v := v.(type) {
	case string:
		if rapid.Bool().Draw(t, "change") {
			return v + "x"
		}
	case json.Number:
		if rapid.Bool().Draw(t, "change") {
			return v + "1"
		}
	case []any:
		c := make([]any, len(v))
		for i := range v {
			c[i] = nearCopy(t, v[i])
		}
		return c
	case jsonvalue.Object:
		c := make(jsonvalue.Object, len(v))
		rev := rapid.Bool().Draw(t, "reverse")
		for i := range v {
			j := i
			if rev {
				j = len(v) - 1 - i
			}
			c[j] = jsonvalue.Member{Key: v[i].Key, Value: nearCopy(t, v[i].Value)}
		}
		return c
	}
	return v
}

// refEqual is Equal without shortcuts.
func refEqual(a, b any) bool {
	switch av := a.(type) {
	case nil:
		return b == nil
	case bool:
		bv, ok := b.(bool)
		return ok && av == bv
	case string:
		bv, ok := b.(string)
		return ok && av == bv
	case json.Number:
		bv, ok := b.(json.Number)
		return ok && jsonvalue.CompareNumbers(av, bv) == 0
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !refEqual(av[i], bv[i]) {
				return false
			}
		}
		return true
	case jsonvalue.Object:
		bv, ok := b.(jsonvalue.Object)
		if !ok || len(av) != len(bv) {
			return false
		}
		for _, m := range av {
			w, ok := bv.Get(m.Key)
			if !ok || !refEqual(m.Value, w) {
				return false
			}
		}
		return true
	}
	panic("not a value of the model")
}

// TestEqualKeysAsWords: Equal compares the keys of members in the same
// place by loads of four or eight bytes, without index checks: keys of
// every length up to past two words, alike or differing in any one byte,
// compare as strings do, and no read leaves a key's memory (each key is
// a copy of its own, at the end of it; checkptr, under -race, fails a
// read past it).
func TestEqualKeysAsWords(t *testing.T) {
	const text = "0123456789abcdefghijklmn"
	for n := range len(text) + 1 {
		key := text[:n]
		for pos := -1; pos < n; pos++ {
			other := []byte(key)
			if pos >= 0 {
				other[pos] ^= 0x20
			}
			a := jsonvalue.Object{{Key: "k", Value: "v"}, {Key: strings.Clone(key), Value: json.Number("1")}}
			b := jsonvalue.Object{{Key: "k", Value: "v"}, {Key: string(other), Value: json.Number("1")}}
			if got, want := jsonvalue.Equal(a, b), key == string(other); got != want {
				t.Errorf("keys %q and %q: Equal = %v", key, other, got)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		k1 := rapid.StringN(0, 20, -1).Draw(t, "k1")
		k2 := rapid.StringN(0, 20, -1).Draw(t, "k2")
		a := jsonvalue.Object{{Key: strings.Clone(k1), Value: nil}}
		b := jsonvalue.Object{{Key: strings.Clone(k2), Value: nil}}
		if got, want := jsonvalue.Equal(a, b), k1 == k2; got != want {
			t.Fatalf("keys %q and %q: Equal = %v", k1, k2, got)
		}
	})
}
