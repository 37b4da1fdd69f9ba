package jsonvalue

// The parser and string writer as they were before they were tuned for
// speed, with the rules added since (a repeated key and text that is not
// UTF-8 are errors, lone surrogates are kept as WTF-8): simple enough to
// trust, and kept here as the oracle the tuned ones must agree with
// exactly (see FuzzParseReference).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func refParseJSON(data []byte) (any, error) {
	p := refParser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.errorf("unexpected %s after the value", p.describe())
	}
	return v, nil
}

func refIndex(o Object, key string) int {
	for i := range o {
		if o[i].Key == key {
			return i
		}
	}
	return -1
}

type refParser struct {
	data []byte
	pos  int
}

func (p *refParser) errorf(format string, args ...any) error {
	line := 1
	for _, c := range p.data[:min(p.pos, len(p.data))] {
		if c == '\n' {
			line++
		}
	}
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), Offset: p.pos, Line: line}
}

func (p *refParser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *refParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *refParser) value(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.errorf("nesting deeper than %d", MaxDepth)
	}
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input, want a value")
	}
	switch c := p.data[p.pos]; c {
	case '{':
		return p.object(depth)
	case '[':
		return p.array(depth)
	case '"':
		return p.string()
	case 't':
		return true, p.literal("true")
	case 'f':
		return false, p.literal("false")
	case 'n':
		return nil, p.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return p.number()
		}
		return nil, p.errorf("unexpected %s, want a value", p.describe())
	}
}

func (p *refParser) literal(word string) error {
	for i := range len(word) {
		if p.pos >= len(p.data) || p.data[p.pos] != word[i] {
			return p.errorf("unexpected %s, want %q", p.describe(), word)
		}
		p.pos++
	}
	return nil
}

func (p *refParser) object(depth int) (any, error) {
	p.pos++ // {
	obj := Object{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("unexpected %s, want a string key", p.describe())
		}
		keyAt := p.pos
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		if refIndex(obj, key) >= 0 {
			p.pos = keyAt
			return nil, p.errorf("duplicate key %s in object", refAppendJSONString(nil, key))
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("unexpected %s after object key, want ':'", p.describe())
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{key, v})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return obj, nil
		default:
			return nil, p.errorf("unexpected %s in object, want ',' or '}'", p.describe())
		}
	}
}

func (p *refParser) array(depth int) (any, error) {
	p.pos++ // [
	arr := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.errorf("unexpected %s in array, want ',' or ']'", p.describe())
		}
	}
}

func (p *refParser) number() (any, error) {
	start := p.pos
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(d) && d[p.pos] == '0':
		p.pos++
	case p.pos < len(d) && d[p.pos] >= '1' && d[p.pos] <= '9':
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	default:
		return nil, p.errorf("invalid number: want a digit after '-'")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if p.pos >= len(d) || d[p.pos] < '0' || d[p.pos] > '9' {
			return nil, p.errorf("invalid number: want a digit after '.'")
		}
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(d) || d[p.pos] < '0' || d[p.pos] > '9' {
			return nil, p.errorf("invalid number: want a digit in the exponent")
		}
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	}
	return json.Number(d[start:p.pos]), nil
}

func (p *refParser) string() (string, error) {
	p.pos++ // opening quote
	d := p.data
	var buf []byte
	for {
		if p.pos >= len(d) {
			return "", p.errorf("unterminated string")
		}
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.errorf("control character %#02x in string", c)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errorf("invalid UTF-8 (byte %#02x) in string: JSON text must be UTF-8; is the file in another encoding, such as Windows-1252 or Latin-1?", c)
			}
			buf = append(buf, d[p.pos:p.pos+size]...)
			p.pos += size
			continue
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		p.pos++ // backslash
		if p.pos >= len(d) {
			return "", p.errorf("unterminated string")
		}
		e := d[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errorf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A high surrogate followed by a low one is one character;
				// a lone surrogate is kept as its WTF-8 bytes.
				if r < 0xDC00 && p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if r2, ok := p.hex4(); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
						buf = utf8.AppendRune(buf, utf16.DecodeRune(r, r2))
						continue
					}
					p.pos = save
				}
				buf = append(buf, 0xED, byte(0x80|r>>6&0x3F), byte(0x80|r&0x3F))
				continue
			}
			buf = utf8.AppendRune(buf, r)
		default:
			p.pos--
			return "", p.errorf("invalid escape '\\%c' in string", e)
		}
	}
}

func (p *refParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

func refAppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			if i+2 < len(s) && c == 0xED && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
				// a lone surrogate, as WTF-8
				dst = append(dst, fmt.Sprintf(`\u%04x`, 0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F))...)
				i += 3
			} else {
				dst = append(dst, `\ufffd`...)
				i++
			}
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// FuzzParseReference: Parse (which copies its input once) and
// ParseString (which shares its input) give exactly what the reference
// parser gives, value for value and error for error, and AppendString
// writes exactly what the reference writer writes.
func FuzzParseReference(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2.5,"x"],"b":{"c":null,"d":true}}`, `[]`, `{}`, `"\ud83d\ude00"`, `{"a":1,"a":2}`,
		`-0.0e+1`, `{"a" 1}`, `[1,]`, "\"\xff\"", `"plain text of more than eight bytes"`,
		`"Zürich, 東京, café and \"quotes\" \\ and \u00e9 \n"`, "\"ctrl \x01 inside\"", `"unterminated and long enough`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"ka":10,"kb":11,"kc":12,"kd":13,"ke":14,"kf":15,"kg":16,"k3":17}`,
		`[[[[{"deep":[{"er":[]}]}]]]]`, "{\"a\":\n[1,\n\"b\\x\"]}",
		`"\ud800"`, `"\ud800\u0041"`, `"\udc00x"`, `"\ud800\u12"`, `"\ud800\"`, `"a\u00"`, `[1e5,-0,0.5E-3,-]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := refParseJSON(data)
		for name, parse := range map[string]func() (any, error){
			"Parse":       func() (any, error) { return Parse(data) },
			"ParseString": func() (any, error) { return ParseString(string(data)) },
		} {
			got, err := parse()
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%s(%q) error %v, reference %v", name, data, err, wantErr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s(%q) differs from the reference (-reference +got):\n%s", name, data, diff)
			}
		}
		if got, want := AppendString([]byte("x"), string(data)), refAppendJSONString([]byte("x"), string(data)); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSONString(%q) = %q, reference %q", data, got, want)
		}
	})
}

// TestParseOwnsItsCopy: values parsed from a buffer do not change when
// the buffer is reused.
func TestParseOwnsItsCopy(t *testing.T) {
	buf := []byte(`{"city":"Paris","n":12,"tags":["a","b"]}`)
	v, err := Parse(buf)
	if err != nil {
		t.Fatal(err)
	}
	want := Append(nil, v)
	for i := range buf {
		buf[i] = 'X'
	}
	if got := Append(nil, v); !bytes.Equal(got, want) {
		t.Errorf("after reusing the buffer, the value reads %s, want %s", got, want)
	}
}

// TestAppendFloatWholeNumbers: the shortcut for whole numbers spells them
// as strconv does.
func TestAppendFloatWholeNumbers(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 2, 1e15, -1e15, 1<<53 - 1, 1 << 53, 1e20, 1e21, 0.5, 1.5} {
		want := strconv.AppendFloat(nil, f, 'f', -1, 64)
		if f >= 1e21 {
			want = strconv.AppendFloat(nil, f, 'e', -1, 64)
		}
		if got := AppendFloat(nil, f); !bytes.Equal(got, want) {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

// TestAppendFloatRemembered: floats written again, from several goroutines
// at once and with many sharing a slot of the cache, read as strconv
// writes them.
func TestAppendFloatRemembered(t *testing.T) {
	want := func(f float64) string {
		if f != 0 && (math.Abs(f) < 1e-6 || math.Abs(f) >= 1e21) {
			return strconv.FormatFloat(f, 'e', -1, 64)
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	// Ratios of small counts, as scores are, plus values spread widely
	// enough to collide in the cache's slots.
	var floats []float64
	for d := 1; d <= 40; d++ {
		for n := 1; n < d; n++ {
			floats = append(floats, float64(n)/float64(d), -float64(n)/float64(d))
		}
	}
	for i := range 3000 {
		floats = append(floats, math.Float64frombits(uint64(i)*0x9e3779b97f4a7c15>>2), 1e-9*float64(i+1))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 3 {
				for k := range floats {
					f := floats[(k*(g+1)+round)%len(floats)]
					if math.IsNaN(f) || math.IsInf(f, 0) {
						continue
					}
					if got := string(AppendFloat([]byte("x"), f)); got != "x"+want(f) {
						t.Errorf("AppendFloat(%v) = %s, want x%s", f, got, want(f))
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestAppendJSONStringEveryPosition: a byte that needs a look (an escape, a
// multi-byte or invalid sequence) is written as the reference writes it at
// every offset in and across the eight-byte words the writer copies.
func TestAppendJSONStringEveryPosition(t *testing.T) {
	for _, special := range []string{`"`, `\`, "\n", "\x01", "\x7f", "é", "東", "😀", "\xff", "\xe6\x9d", `"\`, `":"`, `","`, `":`, `:"`} {
		for n := 0; n <= 40; n++ { // across the shortcuts for up to 16 and 32 bytes
			for at := 0; at <= n; at++ {
				s := strings.Repeat("a", at) + special + strings.Repeat("b", n-at)
				want := refAppendJSONString([]byte("x"), s)
				for _, dst := range [][]byte{[]byte("x"), append(make([]byte, 0, 64), 'x'), append(make([]byte, 0, 2*len(s)+11), 'x')} {
					if got := AppendString(dst, s); !bytes.Equal(got, want) {
						t.Fatalf("AppendJSONString(%q) into %d bytes of room = %q, reference %q", s, cap(dst)-1, got, want)
					}
				}
			}
		}
	}
}

// TestParseStringEveryPosition: a string with an escape, a multi-byte or
// invalid sequence, or a control character at every offset in and across
// the eight-byte words the parser copies reads as the reference reads it,
// as a whole document and with the input going on after it.
func TestParseStringEveryPosition(t *testing.T) {
	for _, first := range []string{``, `\"`, "é"} { // before: none, an escape, non-ASCII
		for _, special := range []string{`\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, "é", "東", "\xff", "\xc3", "\xc0\x80", "\xe0\xa0\x80", "\xe0\x80\x80", "\xed\x9f\xbf", "\xed\xa0\x80", "\xef\xbf\xbf", "😀", "\x01", `\x`} {
			for n := 0; n <= 20; n++ {
				for at := 0; at <= n; at++ {
					s := `"` + first + strings.Repeat("a", at) + special + strings.Repeat("b", n-at) + `"`
					for _, doc := range []string{s, "[" + s + `,"tail of the document"]`} {
						want, wantErr := refParseJSON([]byte(doc))
						got, err := ParseString(doc)
						if fmt.Sprint(err) != fmt.Sprint(wantErr) || !cmp.Equal(got, want) {
							t.Fatalf("ParseJSONString(%q) = %q, %v; reference %q, %v", doc, got, err, want, wantErr)
						}
					}
				}
			}
		}
	}
}

// stringPieces are what AppendString treats apart: plain text, the
// escapes of quoted JSON, control characters, DEL, characters of two to
// four bytes (U+2028 and U+2029 among them, which JSON leaves alone),
// HTML's characters (left alone too), lone surrogates as WTF-8, and bytes
// that are not UTF-8, cut sequences among them.
var stringPieces = []string{
	"a", "plain", "text of more than eight bytes", `"`, `\`, `\"`, `":"`, `","`, "\n", "\r", "\t", "\x00", "\x01", "\x1f", "\x7f",
	"é", "ü", "東", "😀", "\u2028", "\u2029", "<", ">", "&", "'", "\xed\xa0\x80", "\xed\xbf\xbf", "\xff", "\xc3", "\xe6\x9d", "\xc0\x80",
}

// TestAppendStringAgreesWithReference: strings drawn from stringPieces,
// escapes as dense as in a reason quoting JSON, are written as the
// reference writes them, and after any bytes already in dst.
func TestAppendStringAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(rapid.SampledFrom(stringPieces), 0, 40).Draw(t, "pieces")
		s := strings.Join(pieces, "")
		prefix := rapid.StringN(0, 9, -1).Draw(t, "dst")
		// Short strings are written in place when dst has room, longer
		// ones without tests for room when it holds every byte escaped.
		room := rapid.IntRange(0, 80).Draw(t, "room")
		if rapid.Bool().Draw(t, "ample") {
			room += 2*len(s) + 10
		}
		dst := append(make([]byte, 0, len(prefix)+room), prefix...)
		if got, want := AppendString(dst, s), refAppendJSONString([]byte(prefix), s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %q, reference %q", s, got, want)
		}
	})
}

// stdlibAppendString is encoding/json's text for s, without escaping
// HTML's characters (as a result line is written), and whether AppendString
// writes the same: it does unless s holds a backspace or a form feed
// (encoding/json writes \b and \f, AppendString \u0008 and \u000c),
// U+2028 or U+2029 (which encoding/json escapes and JSON does not
// require), or a lone surrogate as WTF-8 (which AppendString writes as its
// escape, encoding/json as U+FFFD for each byte).
func stdlibAppendString(s string) ([]byte, bool) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	same := !strings.ContainsAny(s, "\b\f\u2028\u2029")
	for i := 0; same && i+2 < len(s); i++ {
		same = !(s[i] == 0xED && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), same
}

// shortStringPieces are placed among plain bytes to draw the strings
// AppendString writes with a few stores (up to 16 bytes): each byte is
// tested by one of two words, or of three bytes, that may overlap, so
// each kind of byte must be caught in each place.
var shortStringPieces = []string{"a", "b", "to", "key", `"`, `\`, "\n", "\x00", "\x1f", "\x7f", "é", "東", "😀", "\xff", "\xc3", "\xed\xa0\x80", "<", "&"}

// TestAppendStringAgreesWithEncodingJSON: strings short and long, escapes
// at any place, are written as encoding/json writes them with HTML's
// characters left alone, wherever the two agree (see stdlibAppendString),
// into dst with room and without.
func TestAppendStringAgreesWithEncodingJSON(t *testing.T) {
	check := func(t *rapid.T, s string, room int, prefix []byte) {
		want, same := stdlibAppendString(s)
		if !same {
			want = refAppendJSONString(nil, s)
		}
		dst := append(make([]byte, 0, len(prefix)+room), prefix...)
		if got := AppendString(dst, s); !bytes.Equal(got[len(prefix):], want) || !bytes.Equal(got[:len(prefix)], prefix) {
			t.Fatalf("AppendString(%q) into %d bytes of room = %q, encoding/json %q (same: %v)", s, room, got[len(prefix):], want, same)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		prefix := []byte(rapid.StringN(0, 5, -1).Draw(t, "prefix"))
		// Short strings are written with a few stores when dst has room
		// for 18 bytes, longer ones without tests for room when it holds
		// every byte escaped as two.
		room := rapid.IntRange(0, 20).Draw(t, "room")
		ample := rapid.Bool().Draw(t, "ample")
		if rapid.Bool().Draw(t, "long") {
			s := strings.Join(rapid.SliceOfN(rapid.SampledFrom(stringPieces), 0, 24).Draw(t, "pieces"), "")
			if ample {
				room += 2*len(s) + 10
			}
			check(t, s, room, prefix)
			return
		}
		// A few pieces at every place among plain bytes.
		pieces := strings.Join(rapid.SliceOfN(rapid.SampledFrom(shortStringPieces), 0, 3).Draw(t, "pieces"), "")
		for before := range 17 {
			for after := range 17 {
				s := strings.Repeat("a", before) + pieces + strings.Repeat("b", after)
				r := room
				if ample {
					r += 2*len(s) + 10
				}
				check(t, s, r, prefix)
			}
		}
	})
}

// FuzzAppendString: AppendString writes any bytes as the reference
// writer does, and as encoding/json does where the two agree.
func FuzzAppendString(f *testing.F) {
	for _, s := range stringPieces {
		f.Add(s)
	}
	f.Add(`{"from":"team","to":"north","passengers":4,"nonstop":false}`)
	f.Add("Zürich \"東京\" \\ \x01\xed\xa0\x80\xff\u2028")
	f.Add("to")
	f.Add("a\x01b")
	f.Add("key\"")
	f.Fuzz(func(t *testing.T, s string) {
		want := refAppendJSONString([]byte("x"), s)
		if std, same := stdlibAppendString(s); same && !bytes.Equal(want[1:], std) {
			t.Fatalf("reference %q, encoding/json %q", want[1:], std)
		}
		for _, dst := range [][]byte{[]byte("x"), append(make([]byte, 0, 64), 'x'), append(make([]byte, 0, 2*len(s)+11), 'x')} {
			if got := AppendString(dst, s); !bytes.Equal(got, want) {
				t.Fatalf("AppendString(%q) into %d bytes of room = %q, reference %q", s, cap(dst)-1, got, want)
			}
		}
	})
}
