package jsonvalue

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// FuzzPlainDecimal: the hash's one-pass reading of a number without an
// exponent accepts only what decimalOf reads, and reads it alike: the
// same significant digits and exponent (decimalOf's 0.digits × 10^exp is
// digits × 10^(exp-n)).
func FuzzPlainDecimal(f *testing.F) {
	for _, s := range []string{
		"0", "1", "10", "100", "676893", "0.25", "0.025", "2.50", "1.0", "0.0", "00", "01", ".5", "5.", "1..2", "1.2.3",
		"-1", "", "1e2", "9999999999999999999", "12345678901234567890", "1234567890123456789.000", "0.00000000000000000001234",
		"1.2345678901234567891", "+1", "1 ", "١",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, exp, ok := plainDecimal(s)
		if !ok {
			return
		}
		dec, decOK := decimalOf(s)
		if !decOK || dec.neg || dec.bigExp != nil || dec.n > 19 {
			t.Fatalf("plainDecimal(%q) = %d, %d; decimalOf reads %+v, %v", s, v, exp, dec, decOK)
		}
		var digits strings.Builder
		for j := range dec.n {
			digits.WriteByte(dec.digit(dec.skip + j))
		}
		want := digits.String()
		if dec.n == 0 {
			want = "0"
		}
		got := strconv.FormatUint(v, 10)
		if got != want || dec.n > 0 && int64(exp) != dec.exp-int64(dec.n) {
			t.Fatalf("plainDecimal(%q) = %s, %d; decimalOf: %s, %d", s, got, exp, want, dec.exp)
		}
	})
}

// TestHashTellsMembersApart: an object's hash depends on which value
// each key has, not only on the keys and the values apart.
func TestHashTellsMembersApart(t *testing.T) {
	for _, pair := range [][2]string{
		{`{"a":1,"b":2}`, `{"a":2,"b":1}`}, {`{"a":"x","b":"y"}`, `{"a":"y","b":"x"}`}, {`{"a":"b"}`, `{"b":"a"}`},
		{`{"a":{"b":1},"c":2}`, `{"a":{"b":2},"c":1}`}, {`{"a":null}`, `{"a":{}}`}, {`{"a":[]}`, `{"a":{}}`},
		{`{"a":1}`, `{"a":1,"b":1}`}, {`{"ab":"c"}`, `{"a":"bc"}`}, {`{}`, `[]`},
	} {
		a, _ := ParseString(pair[0])
		b, _ := ParseString(pair[1])
		for seed := range uint64(100) {
			if Hash(seed, a) == Hash(seed, b) {
				t.Errorf("%s and %s hash alike with seed %d", pair[0], pair[1], seed)
			}
		}
	}
}

// TestHashFastPathsAgree: the members and elements hashValue hashes
// without the call (strings and numbers) hash as the call would: values
// outside the model, which From converts to the same, take the call.
func TestHashFastPathsAgree(t *testing.T) {
	type name string
	for _, tc := range []struct {
		model, outside any
	}{
		{Object{{"n", json.Number("676893")}, {"s", "north"}}, Object{{"n", 676893}, {"s", name("north")}}},
		{Object{{"ratio", json.Number("0.25")}, {"k", json.Number("-3")}}, Object{{"ratio", 0.25}, {"k", int8(-3)}}},
		{Object{{"to", []any{"fatima@example.com", "a longer string than sixteen bytes, past two words"}}},
			Object{{"to", []any{name("fatima@example.com"), name("a longer string than sixteen bytes, past two words")}}}},
		{[]any{"x", json.Number("1e2"), Object{{"s", "y"}}}, []any{name("x"), 100, map[string]any{"s": name("y")}}},
	} {
		for seed := range uint64(20) {
			if a, b := Hash(seed, tc.model), Hash(seed, tc.outside); a != b {
				t.Fatalf("%s: %#x, as Go values %#x", Append(nil, tc.model), a, b)
			}
		}
	}
}
