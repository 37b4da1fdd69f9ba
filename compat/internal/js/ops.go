package js

// The operators and built-ins that Mastra's and promptfoo's code leans on
// beyond equality and JSON text: Math.round, String(v), Number(v), the
// whitespace String.prototype.trim removes, UTF-16 lengths, SameValueZero
// map keys and the members every object inherits.

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// MathRound is Math.round: the nearest integer, halves rounded up (toward
// +Infinity), NaN and infinities kept, and -0 for inputs in [-0.5, -0].
func MathRound(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	r := math.Floor(x)
	if x-r >= 0.5 { // exact for doubles: x - floor(x) loses nothing
		r++
	}
	if r == 0 && x < 0 {
		return math.Copysign(0, -1)
	}
	return r
}

// ToString is String(v): numbers as [FormatNumber] writes them, null as
// "null", undefined as "undefined", arrays as their elements' texts joined
// by commas (null and undefined elements as ""), and other objects as
// "[object Object]".
func ToString(v any) string {
	switch v := v.(type) {
	case Undefined:
		return "undefined"
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	case json.Number:
		return FormatNumber(Number(v))
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			if !Nullish(e) {
				parts[i] = ToString(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// ToNumber is Number(v): booleans 1 and 0, null 0, undefined NaN, strings
// as StringToNumber reads them, arrays through their String text, and
// other objects NaN.
func ToNumber(v any) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case bool:
		if v {
			return 1
		}
		return 0
	case json.Number:
		return Number(v)
	case string:
		return StringToNumber(v)
	case []any:
		return StringToNumber(ToString(v))
	}
	return math.NaN()
}

// StringToNumber reads a string as Number(s) does: surrounding whitespace
// trimmed, "" is 0, decimal literals (with an optional sign, "Infinity"
// included), and 0x, 0o and 0b literals without a sign; anything else is
// NaN.
func StringToNumber(s string) float64 {
	s = Trim(s)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			f := 0.0
			for _, c := range s[2:] {
				d, err := strconv.ParseUint(string(c), base, 8)
				if err != nil {
					return math.NaN()
				}
				f = f*float64(base) + float64(d)
			}
			return f
		}
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return math.NaN()
	}
	if body == "Infinity" {
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	// A decimal literal: digits with at most one point, at least one digit,
	// and an optional exponent; ParseFloat would also take "inf", "nan",
	// hex floats and underscores, which JavaScript does not.
	i, digits := 0, 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(body) && body[i] == '.' {
		i++
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return math.NaN()
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		start := i
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
		}
		if i == start {
			return math.NaN()
		}
	}
	if i != len(body) {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return math.NaN()
	}
	return f
}

// IsSpace reports whether r is whitespace or a line terminator to
// JavaScript: what trim removes and \s matches.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Trim is String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }

// TrimEnd is String.prototype.trimEnd.
func TrimEnd(s string) string { return strings.TrimRightFunc(s, IsSpace) }

// UTF16 returns the UTF-16 code units of s, the units JavaScript indexes
// strings by.
func UTF16(s string) []uint16 { return utf16.Encode([]rune(s)) }

// UTF16Len is s.length: the number of UTF-16 code units.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 && r != utf8.RuneError {
			n++
		}
	}
	return n
}

// Length is v.length for the values that have one: a string's UTF-16
// length and an array's element count; ok is false for the others, whose
// length is undefined.
func Length(v any) (n int, ok bool) {
	switch v := v.(type) {
	case string:
		return UTF16Len(v), true
	case []any:
		return len(v), true
	}
	return 0, false
}

// Iterate gives the values for...of walks in v: an array's elements or a
// string's code points (as strings); ok is false when v is not iterable,
// where JavaScript throws a TypeError.
func Iterate(v any) (values []any, ok bool) {
	switch v := v.(type) {
	case []any:
		return v, true
	case string:
		for _, r := range v {
			values = append(values, string(r))
		}
		return values, true
	}
	return nil, false
}

// Key is a text that two values share exactly when they are the same key
// of a Map or member of a Set (SameValueZero): primitives by type and
// value, each object or array its own key, told apart by id.
func Key(v any, id int) string {
	switch v := v.(type) {
	case Undefined:
		return "u"
	case nil:
		return "l"
	case bool:
		return "b" + strconv.FormatBool(v)
	case string:
		return "s" + v
	case json.Number:
		return "n" + FormatNumber(Number(v))
	}
	return "o" + strconv.Itoa(id)
}

// objectPrototype lists the members every plain object inherits from
// Object.prototype, which obj[key] finds though the object does not own
// them.
var objectPrototype = map[string]bool{
	"constructor": true, "__proto__": true, "__defineGetter__": true, "__defineSetter__": true,
	"__lookupGetter__": true, "__lookupSetter__": true, "hasOwnProperty": true, "isPrototypeOf": true,
	"propertyIsEnumerable": true, "toLocaleString": true, "toString": true, "valueOf": true,
}

// Inherited reports whether key names a member every object inherits
// (toString, constructor, __proto__, ...): a lookup of it on an object
// that lacks it finds a function (or the prototype), not undefined.
func Inherited(key string) bool { return objectPrototype[key] }

// IsRecord reports whether v is an object that is not an array or null.
func IsRecord(v any) bool {
	_, ok := v.(jsonvalue.Object)
	return ok
}
