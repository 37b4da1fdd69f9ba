package jsonvalue

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
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

// TestHashStringAsWords: hashString, which reads its words without index
// checks, hashes every string as the same hash read with word does,
// whatever its length (each branch of the switch, and each tail of the
// loops), and reads no byte outside the string (checkptr, under -race,
// fails a read past a string's memory).
func TestHashStringAsWords(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, seed uint64, s string) {
		if got, want := hashString(seed, s), hashStringByWord(seed, s); got != want {
			t.Fatalf("hashString(%#x, %q) = %#x, read with word %#x", seed, s, got, want)
		}
	}
	long := strings.Repeat("0123456789abcdef", 5)
	for n := range len(long) + 1 {
		for seed := range uint64(3) {
			check(t, seed, long[:n])
			check(t, seed, long[len(long)-n:])
			check(t, seed, strings.Clone(long[:n])) // at the end of its memory
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, rapid.Uint64().Draw(t, "seed"), rapid.String().Draw(t, "s"))
	})
}

// hashStringByWord is hashString as it was written before reading with
// wordAt: every load checked.
func hashStringByWord(h uint64, s string) uint64 {
	n := len(s)
	h ^= uint64(n) * 0x9e3779b97f4a7c15
	var t uint64
	switch {
	case n > 16:
		i := 0
		for ; i+16 < n; i += 16 {
			hi, lo := bits.Mul64(h^word(s, i), word(s, i+8)^0xbf58476d1ce4e5b9)
			h = hi ^ lo
		}
		if i+8 < n {
			h = (h ^ word(s, i)) * 0xbf58476d1ce4e5b9
			h ^= h >> 31
		}
		t = word(s, n-8)
	case n >= 8:
		for i := 0; i+8 < n; i += 8 {
			h = (h ^ word(s, i)) * 0xbf58476d1ce4e5b9
			h ^= h >> 31
		}
		t = word(s, n-8)
	case n >= 4:
		t = load4(s, 0) | load4(s, n-4)<<32
	case n > 0:
		t = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return mix(h ^ t)
}

// load4 returns the four bytes of s at offset i, the first in the lowest
// byte.
func load4(s string, i int) uint64 {
	w := s[i : i+4]
	return uint64(uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24)
}
