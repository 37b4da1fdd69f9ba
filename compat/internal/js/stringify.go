package js

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Stringify is JSON.stringify(v): object keys in [Keys] order, numbers as
// [FormatNumber] writes them (NaN and infinities as null), strings escaped
// as JavaScript escapes them, and members or a value that are undefined
// left out. ok is false when the whole value is undefined, for which
// JSON.stringify returns undefined rather than text.
func Stringify(v any) (text string, ok bool) {
	if IsUndefined(v) {
		return "", false
	}
	return string(AppendStringify(nil, v)), true
}

// AppendStringify appends the text of [Stringify] to dst; undefined
// appends nothing.
func AppendStringify(dst []byte, v any) []byte {
	switch v := v.(type) {
	case Undefined:
		return dst
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, v)
	case string:
		return appendQuoted(dst, v)
	case json.Number:
		f := Number(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return append(dst, "null"...)
		}
		return AppendNumber(dst, f)
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			if IsUndefined(e) {
				dst = append(dst, "null"...) // as JSON.stringify writes a hole
				continue
			}
			dst = AppendStringify(dst, e)
		}
		return append(dst, ']')
	case jsonvalue.Object:
		keys, _ := Keys(v)
		dst = append(dst, '{')
		first := true
		for _, k := range keys {
			e, _ := v.Get(k)
			if IsUndefined(e) {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendQuoted(dst, k)
			dst = append(dst, ':')
			dst = AppendStringify(dst, e)
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// appendQuoted writes a string as JSON.stringify does: quote, backslash
// and the control characters escaped (\b \t \n \f \r by name, the others
// as \u00xx), everything else as it is.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c < 0x20:
			dst = append(dst, `\u00`...)
			dst = append(dst, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		case c < utf8.RuneSelf:
			dst = append(dst, c)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			dst = append(dst, s[i:i+n]...)
			i += n
			continue
		}
		i++
	}
	return append(dst, '"')
}

// FormatNumber is String(f), JavaScript's Number::toString: the shortest
// digits that read back as f, in plain decimal from 1e-6 up to 1e21 and
// with an exponent ("1e+21", "1.5e-7") outside; -0 is "0".
func FormatNumber(f float64) string { return string(AppendNumber(nil, f)) }

// AppendNumber appends the text of [FormatNumber] to dst.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// The shortest digits s and the exponent n of the spec's
	// s × 10^(n−k), read off Go's shortest exponent form "d.ddde±x".
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, "0."...)
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}
