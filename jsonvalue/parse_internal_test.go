package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// TestStopsFindsTheFirstStop: for any eight bytes, the lowest byte stops
// flags is the first that plainByte rejects, and stops flags none when
// there is none (the bytes after the first may be flagged or not).
func TestStopsFindsTheFirstStop(t *testing.T) {
	// Each byte alone, after plain ones: only a stop borrows from the
	// byte after it, so this and the first-stop rule below make the
	// lowest flag exact.
	for c := range 256 {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			want := uint64(0)
			if !plainByte[c] {
				want = 0x80 << (8 * at)
			}
			if got := stops(word(string(w), 0)) & (1<<(8*at+8) - 1); got != want {
				t.Fatalf("stops(%q) = %#x in its first %d bytes, want %#x", w, got, at+1, want)
			}
		}
	}
	// The bytes around each edge of the test, and any byte.
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xa2, 0xdc, 0xff}
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(edges), rapid.Byte()), 8, 8).Draw(t, "word")
		first := 8
		for k, c := range w {
			if !plainByte[c] {
				first = k
				break
			}
		}
		m := stops(word(string(w), 0))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != first || m&^msb != 0 {
			t.Fatalf("stops(%q) = %#x: first stop at %d, want %d", w, m, got, first)
		}
		if s := scanStops(word(string(w), 0)); s != m {
			t.Fatalf("scanStops(%q) = %#x, stops %#x", w, s, m)
		}
	})
}

// TestScanStopsIsStops: the parser's scans use scanStops, whose
// constants are variables; it must be stops for every word.
func TestScanStopsIsStops(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			if x := word(string(w), 0); scanStops(x) != stops(x) {
				t.Fatalf("scanStops(%q) = %#x, stops %#x", w, scanStops(x), stops(x))
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Uint64().Draw(t, "word")
		if scanStops(x) != stops(x) {
			t.Fatalf("scanStops(%#x) = %#x, stops %#x", x, scanStops(x), stops(x))
		}
	})
}

// TestParseDepthAgreesWithReference: at the edge of MaxDepth, in arrays
// and in objects, every kind of value (a string among them, which the
// containers read without the call to value) is refused or read as the
// reference parser has it.
func TestParseDepthAgreesWithReference(t *testing.T) {
	for _, inner := range []string{`"x"`, `1`, `true`, `[]`, `{}`, `["x"]`, `{"k":"v"}`, `[{"k":["x"]}]`} {
		for _, n := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1} {
			for name, doc := range map[string]string{
				"arrays":  strings.Repeat("[", n) + inner + strings.Repeat("]", n),
				"objects": strings.Repeat(`{"a":`, n) + inner + strings.Repeat("}", n),
			} {
				want, wantErr := refParseJSON([]byte(doc))
				got, err := ParseString(doc)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
					t.Errorf("%s in %d %s: error %v, reference %v", inner, n, name, err, wantErr)
				}
			}
		}
	}
}

// TestParseGeneratedAgreesWithReference: documents generated from random
// values, written compactly or with white space between any tokens, then
// sometimes broken (a byte dropped, doubled or replaced by one of JSON's
// own), are read exactly as the reference parser reads them, value for
// value and error for error; and a valid document reads the same with
// and without white space. The tuned loops read compact input and strings
// without escapes their own way: this holds them to the simple one.
func TestParseGeneratedAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := genValue(t, 0)
		compact := string(Append(nil, v))
		spaced := string(appendSpaced(nil, v, rapid.SampledFrom([]string{"", " ", "\n", "\t ", "\r\n  "}).Draw(t, "space")))
		for _, doc := range []string{compact, spaced} {
			got, err := ParseString(doc)
			if err != nil || !reflect.DeepEqual(got, v) {
				t.Fatalf("ParseString(%q) = %#v, %v; want %#v", doc, got, err, v)
			}
		}
		doc := breakDocument(t, rapid.SampledFrom([]string{compact, spaced}).Draw(t, "doc"))
		want, wantErr := refParseJSON([]byte(doc))
		got, err := ParseString(doc)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseString(%q) = %#v, %v; reference %#v, %v", doc, got, err, want, wantErr)
		}
	})
}

// breakDocument may break doc: drop, double or replace one of its
// bytes (by one of JSON's own, or one that is never valid), or cut it
// short.
func breakDocument(t *rapid.T, doc string) string {
	if len(doc) == 0 {
		return doc
	}
	at := rapid.IntRange(0, len(doc)-1).Draw(t, "at")
	switch rapid.IntRange(0, 4).Draw(t, "break") {
	case 1:
		return doc[:at] + doc[at+1:]
	case 2:
		return doc[:at] + doc[at:at+1] + doc[at:]
	case 3:
		return doc[:at] + rapid.SampledFrom([]string{`"`, `\`, `:`, `,`, `{`, `}`, `[`, `]`, " ", "0", "-", ".", "e", "t", "\x01", "\xff", "é"}).Draw(t, "by") + doc[at+1:]
	case 4:
		return doc[:at]
	}
	return doc
}

// genValue draws a value of the model: strings of the pieces that the
// string loops treat apart, around and across their eight-byte words, keys
// that repeat now and then, numbers of every form, nesting a few deep.
func genValue(t *rapid.T, depth int) any {
	str := rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(rapid.SampledFrom([]string{
			"a", "key", "plain text!", "0123456789abcdef", `"`, `\`, "/", "\n", "\x01", "\x7f", "é", "東", "😀", "\xed\xa0\x80",
		}), 0, 6).Draw(t, "pieces"), "")
	})
	kind := rapid.IntRange(0, 7).Draw(t, "kind")
	if depth >= 4 {
		kind %= 3
	}
	switch kind {
	case 0:
		return str.Draw(t, "string")
	case 1:
		return json.Number(rapid.SampledFrom([]string{"0", "-0", "7", "-12", "676893", "0.5", "-1.25e-3", "1E+9", "12e5", "3.0"}).Draw(t, "number"))
	case 2:
		return rapid.SampledFrom([]any{true, false, nil}).Draw(t, "literal")
	case 3, 4:
		n := rapid.IntRange(0, 20).Draw(t, "members")
		if n == 0 {
			return Object{}
		}
		obj := Object{}
		for range n {
			key := rapid.OneOf(rapid.SampledFrom([]string{"id", "name", "args", "k", ""}), str).Draw(t, "key")
			if obj.index(key) >= 0 {
				continue // repeated keys are made by breaking documents
			}
			obj = append(obj, Member{key, genValue(t, depth+1)})
		}
		return obj
	default:
		n := rapid.IntRange(0, 6).Draw(t, "elems")
		arr := []any{}
		for range n {
			arr = append(arr, genValue(t, depth+1))
		}
		return arr
	}
}

// appendSpaced is Append with space before and after every token.
func appendSpaced(dst []byte, v any, space string) []byte {
	dst = append(dst, space...)
	switch v := v.(type) {
	case Object:
		dst = append(dst, '{')
		for i, m := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, space...)
			dst = AppendString(dst, m.Key)
			dst = append(dst, space...)
			dst = append(dst, ':')
			dst = appendSpaced(dst, m.Value, space)
		}
		dst = append(dst, space...)
		dst = append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendSpaced(dst, e, space)
		}
		dst = append(dst, space...)
		dst = append(dst, ']')
	default:
		dst = Append(dst, v)
	}
	return append(dst, space...)
}

// TestWordAtAgreesWithWord: the unchecked load reads the same eight
// bytes, in the same order, as word, at every offset that has eight.
func TestWordAtAgreesWithWord(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOfN(rapid.Byte(), 8, 40).Draw(t, "s"))
		for i := 0; i+8 <= len(s); i++ {
			if got, want := wordAt(s, i), word(s, i); got != want {
				t.Fatalf("wordAt(%q, %d) = %#x, want %#x", s, i, got, want)
			}
		}
	})
}

// TestSubAgreesWithSlicing: sub is slicing, sharing the string's memory,
// for every i <= j < len(s), the empty strings included.
func TestSubAgreesWithSlicing(t *testing.T) {
	s := `{"ab":"","c":"déf"}`
	for i := range len(s) {
		for j := i; j < len(s); j++ {
			got := sub(s, i, j)
			if got != s[i:j] || len(got) != j-i {
				t.Fatalf("sub(%q, %d, %d) = %q, want %q", s, i, j, got, s[i:j])
			}
			if unsafe.StringData(got) != unsafe.StringData(s[i:j+1]) {
				t.Fatalf("sub(%q, %d, %d) does not share the string's memory", s, i, j)
			}
		}
	}
}

// TestRepeatedKeysAgreeWithReference: objects of up to 80 distinct keys
// and perhaps a repeat of one of them, anywhere, before the index of keys
// is made (indexFrom members) and after, spelled as it was or with an
// escape: a repeat is found wherever it is, and reported as the reference
// parser does.
func TestRepeatedKeysAgreeWithReference(t *testing.T) {
	// The case random keys seldom make: indexFrom keys of distinct bits,
	// one whose bit is taken (the index is made), then a key of a bit
	// still free, and its repeat.
	var keys []string
	var bits uint64
	for c := 0; len(keys) <= indexFrom; c++ {
		key := string(rune('a'+c%26)) + strings.Repeat("x", c/26)
		if b := keyBit(key); bits&b == 0 && len(keys) < indexFrom || bits&b != 0 && len(keys) == indexFrom {
			keys, bits = append(keys, key), bits|b
		}
	}
	for c := 0; ; c++ {
		if key := "y" + string(rune('a'+c%26)) + strings.Repeat("y", c/26); bits&keyBit(key) == 0 {
			keys = append(keys, key, key)
			break
		}
	}
	doc := `{"` + strings.Join(keys, `":0,"`) + `":0}`
	if _, err := ParseString(doc); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("ParseString(%s) = %v, want a duplicate key", doc, err)
	}
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z]{1,3}`), 0, 80, rapid.ID).Draw(t, "keys")
		if len(keys) > 0 && rapid.Bool().Draw(t, "repeat") {
			from := rapid.IntRange(0, len(keys)-1).Draw(t, "from")
			to := rapid.IntRange(from+1, len(keys)).Draw(t, "to")
			keys = append(keys[:to], append([]string{keys[from]}, keys[to:]...)...)
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, key := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if rapid.IntRange(0, 9).Draw(t, "escaped") == 0 {
				key = fmt.Sprintf(`\u%04x`, key[0]) + key[1:]
			}
			fmt.Fprintf(&b, `"%s":%d`, key, i)
		}
		b.WriteByte('}')
		doc := b.String()
		want, wantErr := refParseJSON([]byte(doc))
		got, err := ParseString(doc)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseString(%q) = %#v, %v; reference %#v, %v", doc, got, err, want, wantErr)
		}
	})
}

// TestParseCharactersAgreeWithReference: every lead byte from 0x80 with
// every byte after it, and the edges of the third, before and after the
// string's first eight bytes (the scan's words, then its tail): the
// parser's checks of two- and three-byte characters accept and refuse
// what the reference parser does, at the same offset.
func TestParseCharactersAgreeWithReference(t *testing.T) {
	thirds := []byte{0x00, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}
	for lead := 0x80; lead <= 0xff; lead++ {
		for second := range 256 {
			for _, third := range thirds {
				for _, before := range []string{"", "0123456789"} {
					doc := `"` + before + string([]byte{byte(lead), byte(second), third}) + `xyz"`
					want, wantErr := refParseJSON([]byte(doc))
					got, err := ParseString(doc)
					if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
						t.Fatalf("ParseString(%q) = %q, %v; reference %q, %v", doc, got, err, want, wantErr)
					}
				}
			}
		}
	}
}

// TestLiteralsAgreeWithReference: objects and arrays read literals
// without the call to value (literalAt). Each literal, cut after each
// byte, with each byte replaced by every byte, and followed by every
// byte, where a value, a member and an element can stand, is accepted
// or refused as the reference parser does, at the same offset.
func TestLiteralsAgreeWithReference(t *testing.T) {
	contexts := []string{`%s`, `{"k":%s}`, `{"k":%s,"j":1}`, `[%s]`, `[1,%s]`, `[%s,2]`, `{"k": %s }`, `[ %s ]`}
	check := func(word string) {
		for _, c := range contexts {
			doc := fmt.Sprintf(c, word)
			want, wantErr := refParseJSON([]byte(doc))
			got, err := ParseString(doc)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("ParseString(%q) = %#v, %v; reference %#v, %v", doc, got, err, want, wantErr)
			}
		}
	}
	for _, word := range []string{"true", "false", "null"} {
		for n := range len(word) + 1 {
			check(word[:n])
			for b := range 256 {
				if n < len(word) {
					check(word[:n] + string([]byte{byte(b)}) + word[n+1:])
				}
				check(word[:n] + string([]byte{byte(b)}) + word[n:])
			}
		}
	}
}
