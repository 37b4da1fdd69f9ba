package ragas

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Python's str() and repr() of the values json.loads returns, which
// ToolCallAccuracy compares argument values by: str(1) is "1", str(1.0)
// is "1.0", str(True) is "True", str("1") is "1", and a list or dict
// prints as its repr, ['a', None] or {'k': 1.5}.

// maxIntDigits is CPython's default limit on the digits of an int that
// it converts from or to text (sys.get_int_max_str_digits()): json.loads
// refuses a longer integer literal with a ValueError.
const maxIntDigits = 4300

// pyStr returns Python's str(v) for a value in the JSON value model: a
// string is itself, everything else its repr.
func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

// pyRepr returns Python's repr(v) for a value in the JSON value model.
func pyRepr(v any) string {
	var b strings.Builder
	appendRepr(&b, v)
	return b.String()
}

func appendRepr(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case json.Number:
		b.WriteString(pyNumber(v))
	case string:
		appendStrRepr(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			appendRepr(b, e)
		}
		b.WriteByte(']')
	case jsonvalue.Object:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			appendStrRepr(b, m.Key)
			b.WriteString(": ")
			appendRepr(b, m.Value)
		}
		b.WriteByte('}')
	default:
		// Not a JSON value: Go values reach here only through a Case built
		// in code with the wrong types; print them plainly.
		fmt.Fprint(b, v)
	}
}

// pyNumber returns str() of the number json.loads makes of a JSON number
// literal: an int (exact, any size; "-0" is 0) when it has no fraction or
// exponent, else the nearest float in Python's shortest repr.
func pyNumber(n json.Number) string {
	s := string(n)
	if jsonvalue.IsIntegerLiteral(s) {
		if strings.TrimLeft(strings.TrimPrefix(s, "-"), "0") == "" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s // not a number literal; the JSON parser lets none through
	}
	return pyFloatRepr(f)
}

// pyFloatRepr is Python's repr of a float: the shortest digits that read
// back to it, in positional notation when the decimal point falls at most
// 16 digits after the first digit and less than 4 zeros before it
// (100000.0, 0.0001, 1e+16, 1e-05), always with a fraction or an
// exponent, and at least two exponent digits.
func pyFloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	point := x + 1 // digits are 0.DIGITS × 10^point
	if point > -4 && point <= 16 {
		switch {
		case point <= 0:
			return sign + "0." + strings.Repeat("0", -point) + digits
		case point >= len(digits):
			return sign + digits + strings.Repeat("0", point-len(digits)) + ".0"
		default:
			return sign + digits[:point] + "." + digits[point:]
		}
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	expSign := "+"
	if x < 0 {
		expSign, x = "-", -x
	}
	if x < 10 {
		return out + "e" + expSign + "0" + strconv.Itoa(x)
	}
	return out + "e" + expSign + strconv.Itoa(x)
}

// appendStrRepr writes Python's repr of a str: in single quotes, or in
// double quotes when the text has a single quote and no double quote;
// backslash, the quote, \t, \n and \r escaped; other characters that
// Python does not print (controls, format characters, separators but the
// space, private use, surrogates, unassigned) as \xhh, \uhhhh or
// \Uhhhhhhhh.
func appendStrRepr(b *strings.Builder, s string) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		r, size := jsonvalue.DecodeRune(s[i:]) // a lone surrogate is one character, as in Python
		i += size
		switch {
		case r == '\\' || r == rune(quote):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\x%02x`, r)
		case r < 0x7f || pyPrintable(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
	}
	b.WriteByte(quote)
}

// pyPrintable is Python's str.isprintable for one non-ASCII character:
// false for the categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (the space
// excepted, which is ASCII).
func pyPrintable(r rune) bool {
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Cs, unicode.Co, unicode.Zl, unicode.Zp, unicode.Zs) {
		return false
	}
	// Unassigned code points (Cn) are in no category of package unicode.
	if !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S) {
		return false
	}
	return !newerThanPython(r)
}

// pythonUnicode is the Unicode version of CPython 3.11's tables, which
// the peer ran on; Go's are newer (unicode.Version).
const pythonUnicode = "14.0.0"

// unicode15 lists the characters Unicode 15.0 assigned, which are
// unassigned (so escaped by repr) in Unicode 14.0.
var unicode15 = [][2]rune{
	{0xCF3, 0xCF3},
	{0xECE, 0xECE},
	{0x10EFD, 0x10EFF},
	{0x1123F, 0x11241},
	{0x11B00, 0x11B09},
	{0x11F00, 0x11F10},
	{0x11F12, 0x11F3A},
	{0x11F3E, 0x11F59},
	{0x1342F, 0x1342F},
	{0x13440, 0x13455},
	{0x1B132, 0x1B132},
	{0x1B155, 0x1B155},
	{0x1D2C0, 0x1D2D3},
	{0x1DF25, 0x1DF2A},
	{0x1E030, 0x1E06D},
	{0x1E08F, 0x1E08F},
	{0x1E4D0, 0x1E4F9},
	{0x1F6DC, 0x1F6DC},
	{0x1F774, 0x1F776},
	{0x1F77B, 0x1F77F},
	{0x1F7D9, 0x1F7D9},
	{0x1FA75, 0x1FA77},
	{0x1FA87, 0x1FA88},
	{0x1FAAD, 0x1FAAF},
	{0x1FABB, 0x1FABD},
	{0x1FABF, 0x1FABF},
	{0x1FACE, 0x1FACF},
	{0x1FADA, 0x1FADB},
	{0x1FAE8, 0x1FAE8},
	{0x1FAF7, 0x1FAF8},
	{0x2B739, 0x2B739},
	{0x31350, 0x323AF},
}

// newerThanPython reports whether Unicode assigned r after the version of
// CPython 3.11's tables.
func newerThanPython(r rune) bool {
	_, found := slices.BinarySearchFunc(unicode15, r, func(rg [2]rune, r rune) int {
		switch {
		case rg[1] < r:
			return -1
		case rg[0] > r:
			return 1
		}
		return 0
	})
	return found
}

// intTooLong reports the digits of the first integer literal in v longer
// than CPython converts (0 when there is none).
func intTooLong(v any) int {
	switch v := v.(type) {
	case json.Number:
		s := strings.TrimPrefix(string(v), "-")
		if jsonvalue.IsIntegerLiteral(s) && len(s) > maxIntDigits {
			return len(s)
		}
	case []any:
		for _, e := range v {
			if n := intTooLong(e); n > 0 {
				return n
			}
		}
	case jsonvalue.Object:
		for _, m := range v {
			if n := intTooLong(m.Value); n > 0 {
				return n
			}
		}
	}
	return 0
}

// hashKey returns a key that two hashable values share exactly when
// Python's == holds between them (so they collapse in a set): strings by
// text, None, and numbers and booleans by exact value (True is 1, -0.0
// is 0, an integral float equals the int, inf is inf however it was
// spelled). A list or an object is unhashable: hashKey returns Python's
// type name for it, "list" or "dict", and ok false.
func hashKey(v any) (key string, ok bool) {
	switch v := v.(type) {
	case nil:
		return "n", true
	case string:
		return "s" + v, true
	case bool:
		if v {
			return "i1", true
		}
		return "i0", true
	case json.Number:
		s := string(v)
		if jsonvalue.IsIntegerLiteral(s) {
			n, ok := new(big.Int).SetString(s, 10)
			if !ok {
				return "x" + s, true
			}
			return "i" + n.String(), true
		}
		f, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil && !math.IsInf(f, 0):
			return "x" + s, true
		case math.IsInf(f, 0):
			return "f" + strconv.FormatFloat(f, 'g', -1, 64), true
		}
		r := new(big.Rat)
		r.SetFloat64(f)
		if r.IsInt() {
			return "i" + r.Num().String(), true
		}
		return "r" + r.String(), true
	case []any:
		return "list", false
	case jsonvalue.Object:
		return "dict", false
	}
	return fmt.Sprintf("?%T:%v", v, v), true
}
